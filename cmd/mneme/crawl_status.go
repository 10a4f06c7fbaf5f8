package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/crawler"
)

func newCrawlStatusCmd() *cobra.Command {
	var data string
	var queues, asJSON bool
	cmd := &cobra.Command{
		Use:   "status ID",
		Short: "Report a stopped crawl's state and frontier",
		Long: `Report crawl ID as its files hold it: its state, and the URLs of its frontier
by state (queued for a first visit, waiting for a revisit, done, failed).
--queues lists every queue (host) with its state (ready, busy, snoozed, empty,
exhausted), URLs queued and waiting, when its next URL is due and when it can
next be served, and for incremental crawls how often the host's ETag and
Last-Modified predicted a change correctly. A running crawl holds its
frontier: ask the control API (mneme serve --data) instead.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := crawler.ReadReport(dataDir(data, ""), args[0])
			if err != nil {
				return err
			}
			if !queues {
				r.Queues = nil
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(r)
			}
			return writeReport(cmd.OutOrStdout(), r, queues)
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	cmd.Flags().BoolVar(&queues, "queues", false, "list every queue")
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON")
	return cmd
}

// writeReport prints a frontier report for reading.
func writeReport(w io.Writer, r crawler.Report, queues bool) error {
	s, t := r.Status, r.Totals
	fmt.Fprintf(w, "crawl %s: %s", s.ID, s.State)
	if s.Reason != "" {
		fmt.Fprintf(w, " (%s)", s.Reason)
	}
	fmt.Fprintf(w, ", started %s, ran %s\n", s.Started.UTC().Format(time.RFC3339), s.Elapsed.Round(time.Second))
	fmt.Fprintf(w, "URLs: %d queued, %d waiting for a revisit, %d in flight, %d pending, %d visits succeeded, %d failed, %d disregarded, %d blacklisted; %d queues\n",
		t.Queued, t.Waiting, t.InFlight, t.Pending, t.Succeeded, t.Failed, t.Disregarded, t.Blacklisted, t.Queues)
	if !queues {
		return nil
	}
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "QUEUE\tSTATE\tQUEUED\tWAITING\tIN FLIGHT\tNEXT DUE\tNEXT READY\tBUDGET\tHEADER TRUST")
	for _, q := range r.Queues {
		budget := "-"
		if q.Budget > 0 {
			budget = fmt.Sprintf("%d/%d", q.BudgetUsed, q.Budget)
		}
		trust := "-"
		if q.Trust != nil {
			trust = fmt.Sprintf("%d/%d right", q.Trust.Correct, q.Trust.Checked)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", q.Key, q.State, q.Size, q.Waiting, q.InFlight,
			reportTime(q.NextDue), reportTime(q.NextReady), budget, trust)
	}
	return tw.Flush()
}

func reportTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}
