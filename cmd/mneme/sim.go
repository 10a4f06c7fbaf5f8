package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/crawler/revisit/sim"
)

func newSimCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "Simulate crawler policies on synthetic sites",
		Args:  subcommandArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newSimRevisitCmd())
	cmd.AddCommand(newSimFocusCmd())
	return cmd
}

func newSimRevisitCmd() *cobra.Command {
	c := sim.Config{Mix: sim.MixLogUniform, Pages: 10000, Days: 30, Seed: 1}
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "revisit",
		Short: "Measure a revisit policy on a simulated site of changing pages",
		Long: `Simulate an incremental crawl of one site on a virtual clock and report how
many page changes the policy captured.

Every page changes as a Poisson process with its own rate λ (changes per day):
--mix loguniform draws λ log-uniformly from [0.001, 10]; --mix static80 makes
80 % of the pages change at 0.001/day and draws the rest from [0.1, 10]. The
crawler may make --budget requests per simulated day, evenly spaced, and
fetches the URL that has been due the longest. A captured change is a visit
whose content differs from the previous capture. Staleness is the time the
archive's copy has been out of date, averaged over pages and time.

Policies: uniform (every page once per pages/budget days), ar (the adaptive
revisiting heuristic of Heritrix 1.x, text/* defaults) and poisson (a belief
about each page's change rate learnt from the visits; a page is due when the
expected value of visiting it reaches the crawl's yield per request).`,
		Example: `  mneme sim revisit --policy ar
  mneme sim revisit --policy poisson --mix static80 --json
  mneme sim revisit --policy uniform --pages 1000 --days 10 --seed 7`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if c.Policy == "" {
				return usagef("--policy is required (uniform, ar or poisson)")
			}
			if !cmd.Flags().Changed("budget") {
				c.Budget = c.Pages
			}
			if err := c.Validate(); err != nil {
				return usageError{err}
			}
			res, err := sim.Run(cmd.Context(), c)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(res)
			}
			fmt.Fprintf(out, "policy %s, mix %s, %d pages, %d days, %d requests/day, seed %d\n",
				res.Policy, res.Mix, res.Pages, res.Days, res.BudgetPerDay, res.Seed)
			fmt.Fprintf(out, "requests              %d (%d first captures, %d idle slots)\n", res.Requests, res.FirstCaptures, res.IdleSlots)
			fmt.Fprintf(out, "changes               %d\n", res.Changes)
			fmt.Fprintf(out, "captured              %d\n", res.Captured)
			fmt.Fprintf(out, "captured per request  %.4f\n", res.CapturedPerRequest)
			fmt.Fprintf(out, "mean staleness        %.0f s\n", res.MeanStalenessS)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.Policy, "policy", "", "revisit policy: uniform, ar or poisson (required)")
	f.StringVar(&c.Mix, "mix", c.Mix, "change-rate mix: loguniform or static80")
	f.IntVar(&c.Pages, "pages", c.Pages, "pages on the site")
	f.IntVar(&c.Days, "days", c.Days, "simulated days")
	f.IntVar(&c.Budget, "budget", 0, "requests per simulated day (default: one per page)")
	f.Uint64Var(&c.Seed, "seed", c.Seed, "seed of the site's change rates and change times")
	f.DurationVar(&c.StalenessHorizon, "staleness-horizon", 0, "poisson: longest wait of a page surely out of date (default: pages/budget, the uniform policy's wait)")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}
