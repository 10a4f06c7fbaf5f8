package main

import (
	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/tui"
)

func newTUICmd() *cobra.Command {
	var o tui.Options
	cmd := &cobra.Command{
		Use:   "tui [--connect URL] [--data DIR]",
		Short: "Browse and query the archive in a terminal UI",
		Long: `Open the terminal UI: a SPARQL console (editor with history and saved
queries, results with paging, row detail and export) and an archive browser
(URLs, their captures over time, the objects extracted from each).

With --connect it talks to a running 'mneme serve' at URL; otherwise it
opens the store in the data folder itself (DIR/store, read-only). The query
history and saved queries are kept in DIR/tui. Press ? or F1 for the keys.`,
		Example: `  mneme demo && mneme tui
  mneme tui --data ./mneme-data
  mneme tui --connect http://127.0.0.1:7878`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return tui.Run(cmd.Context(), o, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&o.Connect, "connect", "", "URL of a running 'mneme serve' (default: open DIR/store)")
	cmd.Flags().StringVar(&o.DataDir, "data", "mneme-data", "data folder")
	return cmd
}
