package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/kb/adapt"
)

func newKBLearnedCmd() *cobra.Command {
	var data, accept, reject string
	cmd := &cobra.Command{
		Use:   "learned [--data DIR] [--accept ID | --reject ID]",
		Short: "List the patterns learned when a site's template changed, and review them",
		Long: `List the patterns the application-aware crawler learned when a site's
template no longer matched the knowledge base (kept in DIR/kb/learned.yaml
with their provenance: site, time, pages checked), or review one: --accept
keeps it, --reject stops its use. A pending pattern is in use until
reviewed.`,
		Example: `  mneme kb learned --data mneme-data
  mneme kb learned --data mneme-data --reject 3f2a9c01d4e5`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if accept != "" && reject != "" {
				return usagef("kb learned takes --accept or --reject, not both")
			}
			l, err := adapt.OpenLearned(adapt.LearnedPath(dataDir(data, "")))
			if err != nil {
				return err
			}
			switch {
			case accept != "":
				return l.Accept(accept)
			case reject != "":
				return l.Reject(reject)
			}
			w := cmd.OutOrStdout()
			props := l.List()
			if len(props) == 0 {
				fmt.Fprintf(w, "no learned patterns in %s\n", l.Path())
			}
			for _, p := range props {
				fmt.Fprintf(w, "%s %-8s %s  %s\n  pattern: %s\n  replaces: %s\n  %s on %s, %s (%d relaxations), worked on %d of %d pages\n",
					p.ID, p.Status, p.Site, p.What(), p.Pattern, strings.Join(p.Replaces, " ; "),
					p.Learned.Format("2006-01-02 15:04:05Z"), p.Site, p.Method, p.Relaxations, len(p.Pages), p.Checked)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	cmd.Flags().StringVar(&accept, "accept", "", "mark the learned pattern with this ID accepted")
	cmd.Flags().StringVar(&reject, "reject", "", "mark the learned pattern with this ID rejected (no longer used)")
	return cmd
}
