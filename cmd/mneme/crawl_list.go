package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// crawlListing is one row of mneme crawl list.
type crawlListing struct {
	ID      string        `json:"id"`
	State   string        `json:"state"`
	Reason  string        `json:"reason,omitempty"`
	Started time.Time     `json:"started"`
	Elapsed time.Duration `json:"elapsed"`
	Pages   int64         `json:"pages"`
	Bytes   int64         `json:"bytes"`
	Seeds   []string      `json:"seeds"`
}

func newCrawlListCmd() *cobra.Command {
	var data string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the crawls of the data folder",
		Long: `List every crawl of the data folder, oldest first: its id, state (running,
stopped, finished; why it stopped or finished), start, running time, pages
and bytes fetched (from its crawl.log, over all its runs) and seeds. A crawl
marked running whose process is gone was interrupted: 'mneme crawl resume ID'
continues it.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := dataDir(data, "")
			l := crawler.Layout{Data: dir}
			ents, err := os.ReadDir(l.Crawls())
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			var rows []crawlListing
			for _, e := range ents {
				if !e.IsDir() {
					continue
				}
				st, err := crawler.ReadFigures(dir, e.Name())
				if err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "crawl %s: %v\n", e.Name(), err)
					continue
				}
				r := crawlListing{ID: st.ID, State: st.State, Reason: st.Reason, Started: st.Started,
					Elapsed: st.Elapsed, Pages: st.Fetched, Bytes: st.Bytes}
				if s, err := spec.Load(l.Spec(e.Name())); err == nil {
					r.Seeds = s.Seeds
				}
				rows = append(rows, r)
			}
			slices.SortFunc(rows, func(a, b crawlListing) int { return a.Started.Compare(b.Started) })
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				if rows == nil {
					rows = []crawlListing{}
				}
				return enc.Encode(rows)
			}
			if len(rows) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "no crawls in %s\n", dir)
				return nil
			}
			t := newColumns(cmd.OutOrStdout(), tableLayout{}, []string{"ID", "STATE", "STARTED", "RAN", "PAGES", "BYTES", "SEEDS"})
			for _, r := range rows {
				state := r.State
				if why := strings.TrimPrefix(r.Reason, r.State+": "); why != "" && why != r.State {
					if n := 40; len([]rune(why)) > n {
						why = string([]rune(why)[:n-1]) + "…" // crawl status ID has it whole
					}
					state += " (" + why + ")"
				}
				seeds := strings.Join(r.Seeds, " ")
				t.row([]string{r.ID, state, r.Started.UTC().Format("2006-01-02 15:04"),
					r.Elapsed.Round(time.Second).String(), fmt.Sprint(r.Pages), humanBytes(r.Bytes), seeds})
			}
			return t.end()
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON")
	return cmd
}
