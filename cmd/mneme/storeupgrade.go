package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/graph"
)

func newStoreUpgradeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "upgrade DIR",
		Short: "Bring a store written by an older version to the current format",
		Long: `Open the store in DIR for writing, which adds what an older version did not
write: the value index, which orders numbers, dates and dateTimes so that
range filters read only the values in their range. Servers and queries
open a store read-only and read an old one without it (they say so);
this command upgrades it once. A store already current is left as it is.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			start := time.Now()
			s, err := graph.Open(args[0], graph.OpenOptions{})
			if err != nil {
				return err
			}
			if err := s.Close(); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "ok: %s is current (%s)\n", args[0], time.Since(start).Round(time.Millisecond))
			return nil
		},
	}
}

// oldStoreNotice is what a reader of a store without a value index is
// told.
func oldStoreNotice(dir string) string {
	return fmt.Sprintf("mneme: the store %s predates the value index: range filters read every value; 'mneme store upgrade %s' adds it\n", dir, dir)
}
