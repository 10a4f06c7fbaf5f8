package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/control"
	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/social/builtin"
	"github.com/mneme-archive/mneme/social/campaign"
)

func newSocialCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "social",
		Short: "Collect posts from social platforms and feeds: campaigns into WARC and RDF",
		Long: `A social campaign collects posts through platform APIs and web feeds, as
named in a YAML spec of (query, platform) pairs with a time window, a budget
and a schedule (docs/social.md). Each campaign keeps its spec, WARC files,
log and state in DATA/social/ID and writes its RDF into the data folder's
store, in the graph urn:mneme:campaign:ID.

Credentials come from DATA/secrets.yaml (mode 600; platform: {key: value})
or the environment (MNEME_SOCIAL_<PLATFORM>_<KEY>), never from the spec, and
never reach the WARC files, the log or the store.

When a mneme serve --data or mneme tui holds the data folder, these commands
go to its control API; otherwise they work on the folder themselves, and
'start' runs the campaign in this process until it ends or Ctrl-C (which
leaves it to resume).`,
		Args: subcommandArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newSocialCreateCmd(), newSocialStartCmd("start"), newSocialStartCmd("resume"),
		newSocialActionCmd("pause"), newSocialActionCmd("stop"), newSocialListCmd(), newSocialStatusCmd(), newSocialImportCmd())
	return cmd
}

// socialServer returns a client of the mneme process holding the data
// folder's store, if one noted its address there.
func socialServer(dir string) (*api.Client, bool) {
	endpoint, ok := servedURL(campaign.Layout{Data: dir}.Store())
	if !ok {
		return nil, false
	}
	tok, _ := os.ReadFile(crawler.Layout{Data: dir}.Token())
	return &api.Client{Base: strings.TrimSuffix(endpoint, "/sparql"), Token: strings.TrimSpace(string(tok))}, true
}

func newSocialCreateCmd() *cobra.Command {
	var data string
	cmd := &cobra.Command{
		Use:   "create SPEC.yaml",
		Short: "Create a campaign from its spec, without starting it",
		Example: `  mneme social create quake.yaml
  mneme social start quake-2026`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := dataDir(data, "")
			b, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			if c, ok := socialServer(dir); ok {
				st, err := c.CreateCampaign(cmd.Context(), b)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), st.ID)
				return nil
			}
			s, err := campaign.Parse(b, args[0])
			if err != nil {
				return usageError{err}
			}
			if s.ID == "" {
				s.ID = campaign.NewID(time.Now())
			}
			if err := (campaign.Layout{Data: dir}).Create(s); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), s.ID)
			return nil
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	return cmd
}

func newSocialStartCmd(name string) *cobra.Command {
	var data, secrets string
	cmd := &cobra.Command{
		Use:   name + " ID",
		Short: map[string]string{"start": "Start a campaign (or resume it where it was)", "resume": "Resume a paused, stopped or interrupted campaign"}[name],
		Long: `Run campaign ID: through the control API of the mneme process holding the data
folder, or else in this process, printing its progress, until its passes are
run or its budget spent. Ctrl-C (or kill -9) leaves it to resume: every page
is committed with its pair's cursor, so nothing is lost or stored twice.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, id := dataDir(data, ""), args[0]
			if c, ok := socialServer(dir); ok {
				st, err := c.CampaignDo(cmd.Context(), id, name)
				if err != nil {
					return err
				}
				return writeCampaign(cmd.OutOrStdout(), st)
			}
			return runCampaign(cmd.Context(), cmd.ErrOrStderr(), dir, id, secrets)
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	cmd.Flags().StringVar(&secrets, "secrets", "", "secrets file (default DATA/secrets.yaml)")
	return cmd
}

// runCampaign runs a campaign in this process, its progress on w.
func runCampaign(ctx context.Context, w io.Writer, dir, id, secretsFile string) error {
	l := campaign.Layout{Data: dir}
	spec, err := l.LoadSpec(id)
	if err != nil {
		return err
	}
	if secretsFile == "" {
		secretsFile = l.Secrets()
	}
	secrets, err := campaign.LoadSecrets(secretsFile, os.Environ())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(l.Store(), 0o755); err != nil {
		return err
	}
	// Imports write through the bulk loader, which reads the dictionary
	// at random: a larger block cache saves reads (graph.BulkCacheBytes).
	st, err := graph.Open(l.Store(), graph.OpenOptions{CacheBytes: graph.BulkCacheBytes})
	if err != nil {
		return err
	}
	defer st.Close()
	r := &campaign.Runner{Layout: l, Spec: spec, Store: st, Platforms: builtin.Platforms(), Secrets: secrets,
		Agent: "urn:mneme:agent:mneme/" + crawlVersion()}
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- r.Run(ctx) }()
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			s := r.Status()
			el := time.Since(start)
			fmt.Fprintf(w, "campaign %s: %s %s; %d posts, %d requests in %s (%.0f posts/s)\n", id, s.State, s.Reason, s.Posts, s.Requests,
				el.Round(time.Millisecond), float64(s.Posts)/el.Seconds())
			if errors.Is(err, context.Canceled) {
				fmt.Fprintf(w, "interrupted: 'mneme social resume %s' goes on where it stopped\n", id)
				return nil
			}
			return err
		case <-tick.C:
			s := r.Status()
			fmt.Fprintf(w, "campaign %s: pass %d, %d posts, %d requests\n", id, s.Pass, s.Posts, s.Requests)
		}
	}
}

func newSocialActionCmd(action string) *cobra.Command {
	var data string
	cmd := &cobra.Command{
		Use:   action + " ID",
		Short: map[string]string{"pause": "Pause a campaign run by a mneme serve or tui", "stop": "Stop a campaign for good (resume still can restart it)"}[action],
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, id := dataDir(data, ""), args[0]
			if c, ok := socialServer(dir); ok {
				st, err := c.CampaignDo(cmd.Context(), id, action)
				if err != nil {
					return err
				}
				return writeCampaign(cmd.OutOrStdout(), st)
			}
			l := campaign.Layout{Data: dir}
			if _, err := l.LoadSpec(id); err != nil {
				return err
			}
			if action == "pause" {
				return fmt.Errorf("campaign %s is not run by a mneme serve or tui of %s; a campaign run by 'mneme social start' pauses with Ctrl-C", id, dir)
			}
			return l.WriteState(id, campaign.State{State: campaign.Stopped, Reason: "stopped by the operator"})
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	return cmd
}

// campaignStatus reads a campaign's status: from the server holding the
// data folder, or from its files and store.
func campaignStatus(ctx context.Context, dir, id string) (api.Campaign, error) {
	if c, ok := socialServer(dir); ok {
		return c.CampaignStatus(ctx, id)
	}
	l := campaign.Layout{Data: dir}
	st, err := graph.Open(l.Store(), graph.OpenOptions{ReadOnly: true})
	if err != nil {
		return api.Campaign{}, err
	}
	defer st.Close()
	return control.NewSocial(dir, st).Status(ctx, id)
}

func newSocialListCmd() *cobra.Command {
	var data string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the campaigns of the data folder",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := dataDir(data, "")
			var all []api.Campaign
			var err error
			if c, ok := socialServer(dir); ok {
				all, err = c.Campaigns(cmd.Context())
			} else if _, serr := os.Stat(campaign.Layout{Data: dir}.Store()); serr == nil {
				var st *graph.Store
				if st, err = graph.Open(campaign.Layout{Data: dir}.Store(), graph.OpenOptions{ReadOnly: true}); err == nil {
					all, err = control.NewSocial(dir, st).Campaigns(cmd.Context())
					st.Close()
				}
			}
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(all)
			}
			t := newColumns(cmd.OutOrStdout(), tableLayout{none: "no campaigns"}, []string{"ID", "STATE", "PASS", "POSTS", "REQUESTS", "PAIRS"})
			for _, c := range all {
				t.row([]string{c.ID, c.State, fmt.Sprint(c.Pass), fmt.Sprint(c.Posts), fmt.Sprint(c.Requests), fmt.Sprint(len(c.Pairs))})
			}
			return t.end()
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON")
	return cmd
}

func newSocialStatusCmd() *cobra.Command {
	var data string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status ID",
		Short: "Report a campaign: its state, and posts, requests and errors per pair",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := campaignStatus(cmd.Context(), dataDir(data, ""), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(st)
			}
			return writeCampaign(cmd.OutOrStdout(), st)
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON")
	return cmd
}

func writeCampaign(w io.Writer, c api.Campaign) error {
	fmt.Fprintf(w, "campaign %s: %s", c.ID, c.State)
	if c.Reason != "" {
		fmt.Fprintf(w, " (%s)", c.Reason)
	}
	fmt.Fprintf(w, "; pass %d, %d posts, %d requests\n", c.Pass, c.Posts, c.Requests)
	t := newColumns(w, tableLayout{none: "no query pairs"}, []string{"PLATFORM", "KIND", "QUERY", "PASS", "DONE", "POSTS", "REQUESTS", "ERRORS", "LAST ERROR"})
	for _, p := range c.Pairs {
		t.row([]string{p.Platform, p.Kind, p.Query, fmt.Sprint(p.Pass), fmt.Sprint(p.Done), fmt.Sprint(p.Posts), fmt.Sprint(p.Requests), fmt.Sprint(p.Errors), p.LastError})
	}
	return t.end()
}

func newSocialImportCmd() *cobra.Command {
	var data, id string
	cmd := &cobra.Command{
		Use:   "import FILE.jsonl...",
		Short: "Import tweet collections (twarc / Twitter API JSONL, v1.1 and v2) as a campaign",
		Long: `Import JSON Lines files of tweets as twarc and the Twitter API wrote them —
v1.1 tweets, API v2 response pages (twarc2), or flattened v2 tweets — as a
campaign of their own: each line is archived as it is in a WARC resource
record, and its tweets and accounts go to the campaign's graph. A bad line is
archived, reported in the campaign log and skipped. An interrupted import
resumes with 'mneme social resume ID' at the first line not committed.`,
		Example: `  mneme social import --id quake-tweets quake-*.jsonl`,
		Args:    usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := dataDir(data, "")
			if id == "" {
				id = "import-" + time.Now().UTC().Format("20060102-150405")
			}
			s := &campaign.Spec{ID: id, Description: "import of " + strings.Join(args, ", ")}
			for _, f := range args {
				abs, err := filepath.Abs(f)
				if err != nil {
					return err
				}
				if _, err := os.Stat(abs); err != nil {
					return err
				}
				s.Pairs = append(s.Pairs, campaign.Pair{Platform: "import", Kind: "list", Query: abs})
			}
			if err := s.Check(); err != nil {
				return usageError{err}
			}
			if err := (campaign.Layout{Data: dir}).Create(s); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "importing as campaign %s\n", id)
			if c, ok := socialServer(dir); ok {
				st, err := c.CampaignDo(cmd.Context(), id, "start")
				if err != nil {
					return err
				}
				return writeCampaign(cmd.OutOrStdout(), st)
			}
			return runCampaign(cmd.Context(), cmd.ErrOrStderr(), dir, id, "")
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	cmd.Flags().StringVar(&id, "id", "", "campaign id (default import-DATE-TIME)")
	return cmd
}
