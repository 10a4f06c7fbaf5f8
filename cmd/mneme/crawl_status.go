package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/control"
	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/frontier"
)

func newCrawlStatusCmd() *cobra.Command {
	var data string
	var queues, asJSON bool
	cmd := &cobra.Command{
		Use:   "status ID",
		Short: "Report a crawl's state and frontier",
		Long: `Report crawl ID as its files hold it: its state, and the URLs of its frontier
by state (queued for a first visit, waiting for a revisit, done, failed).
--queues lists every queue (host) with its state (ready, busy, snoozed, empty,
exhausted), URLs queued and waiting, when its next URL is due and when it can
next be served, and for incremental crawls how often the host's ETag and
Last-Modified predicted a change correctly.

A running crawl holds its frontier. When a mneme crawl, serve or tui holds
the data folder (each notes its address in the store directory), the report
comes live from its control API, with a note on stderr: there pending URLs
count as queued, and blacklisted URLs and header trust are not reported.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, id := dataDir(data, ""), args[0]
			r, err := crawler.ReadReport(dir, id)
			live := false
			if err != nil {
				if r, err = heldCrawlReport(cmd, dir, id, queues, err); err != nil {
					return err
				}
				live = true
			}
			if !queues {
				r.Queues = nil
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			}
			return writeReport(cmd.OutOrStdout(), r, queues, live)
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	cmd.Flags().BoolVar(&queues, "queues", false, "list every queue")
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON")
	return cmd
}

// heldCrawlReport reads the report of a crawl whose frontier could not be
// opened (err) from the control API of the mneme crawl, serve or tui that
// holds the data folder, if one noted its address there.
func heldCrawlReport(cmd *cobra.Command, dir, id string, queues bool, err error) (crawler.Report, error) {
	endpoint, ok := servedURL(crawler.Layout{Data: dir}.Store())
	if _, serr := crawler.ReadStatus(dir, id); !ok || serr != nil {
		return crawler.Report{}, err // no server, or no such crawl
	}
	base := strings.TrimSuffix(endpoint, "/sparql")
	fmt.Fprintf(cmd.ErrOrStderr(), "mneme: crawl %s is held by another mneme process; asking its control API at %s\n", id, base)
	// The control API wants its token for reads too; it is the data
	// folder's, which this process can read.
	tok, _ := os.ReadFile(crawler.Layout{Data: dir}.Token())
	r, rerr := remoteReport(cmd.Context(), &api.Client{Base: base, Token: strings.TrimSpace(string(tok))}, id, queues, cmd.ErrOrStderr())
	if rerr != nil {
		return crawler.Report{}, fmt.Errorf("%w; control API %s: %w", err, base, rerr)
	}
	return r, nil
}

// remoteReport is a crawl's report as the control API gives it: its live
// status, and its queues if asked for (a note on warn if they are cut).
func remoteReport(ctx context.Context, c *api.Client, id string, queues bool, warn io.Writer) (crawler.Report, error) {
	s, err := c.Status(ctx, id)
	if err != nil {
		return crawler.Report{}, err
	}
	r := crawler.Report{
		Status: crawler.Status{ID: s.ID, State: s.State, Reason: s.Reason, Started: s.Started, Incremental: s.Incremental,
			Elapsed: time.Duration(s.ElapsedSeconds * float64(time.Second))},
		Totals: frontier.Totals{Queued: s.Queued, Waiting: s.Waiting, InFlight: s.InFlight, Succeeded: s.Succeeded,
			Failed: s.Failed, Disregarded: s.Disregarded, Queues: s.Queues},
	}
	if !queues {
		return r, nil
	}
	qs, err := c.Queues(ctx, id, control.MaxCount)
	if err != nil {
		return crawler.Report{}, err
	}
	for _, q := range qs.Queues {
		r.Queues = append(r.Queues, crawler.QueueReport{QueueStats: frontier.QueueStats{
			Key: q.Key, State: frontier.QueueState(q.State), Size: q.Size, Waiting: q.Waiting, InFlight: q.InFlight,
			Valence: q.Valence, Budget: q.Budget, BudgetUsed: q.BudgetUsed, NextReady: q.NextReady, NextDue: q.NextDue,
			LastFetch: time.Duration(q.LastFetchMS * float64(time.Millisecond)),
		}})
	}
	if qs.Total > len(qs.Queues) {
		fmt.Fprintf(warn, "mneme: the control API lists the first %d of %d queues\n", len(qs.Queues), qs.Total)
	}
	return r, nil
}

// writeReport prints a frontier report for reading; a live one (from the
// control API) has no pending or blacklisted counts, nor header trust.
func writeReport(w io.Writer, r crawler.Report, queues, live bool) error {
	s, t := r.Status, r.Totals
	fmt.Fprintf(w, "crawl %s: %s", s.ID, s.State)
	if s.Reason != "" {
		fmt.Fprintf(w, " (%s)", s.Reason)
	}
	fmt.Fprintf(w, ", started %s, ran %s\n", s.Started.UTC().Format(time.RFC3339), s.Elapsed.Round(time.Second))
	fmt.Fprintf(w, "URLs: %d queued, %d waiting for a revisit, %d in flight, ", t.Queued, t.Waiting, t.InFlight)
	if !live {
		fmt.Fprintf(w, "%d pending, ", t.Pending)
	}
	fmt.Fprintf(w, "%d visits succeeded, %d failed, %d disregarded", t.Succeeded, t.Failed, t.Disregarded)
	if !live {
		fmt.Fprintf(w, ", %d blacklisted", t.Blacklisted)
	}
	fmt.Fprintf(w, "; %d queues\n", t.Queues)
	if !queues {
		return nil
	}
	head := []string{"QUEUE", "STATE", "QUEUED", "WAITING", "IN FLIGHT", "NEXT DUE", "NEXT READY", "BUDGET"}
	if !live {
		head = append(head, "HEADER TRUST")
	}
	table := newColumns(w, tableLayout{}, head)
	for _, q := range r.Queues {
		budget := "-"
		if q.Budget > 0 {
			budget = fmt.Sprintf("%d/%d", q.BudgetUsed, q.Budget)
		}
		cells := []string{q.Key, string(q.State), fmt.Sprint(q.Size), fmt.Sprint(q.Waiting), fmt.Sprint(q.InFlight),
			reportTime(q.NextDue), reportTime(q.NextReady), budget}
		switch {
		case live:
		case q.Trust != nil:
			cells = append(cells, fmt.Sprintf("%d/%d right", q.Trust.Correct, q.Trust.Checked))
		default:
			cells = append(cells, "-")
		}
		table.row(cells)
	}
	return table.end()
}

func reportTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}
