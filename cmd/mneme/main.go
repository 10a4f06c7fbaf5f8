// Command mneme builds and queries semantic web archives: it crawls the web
// into WARC files and an RDF store, and answers SPARQL over every crawl.
//
// Exit codes: 0 success, 1 failure, 2 usage error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes one command line and returns the process exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "mneme:", err)
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintln(stderr, "Run 'mneme --help' or 'mneme COMMAND --help' for usage.")
		return 2
	}
	return 1
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "mneme",
		Short: "Build semantic web archives: crawl to WARC and RDF, query with SPARQL",
		Long: `mneme crawls web sites and social media into WARC files and turns what it
finds (pages, posts, comments, authors, links) into RDF in a built-in triple
store, one named graph per crawl, queried with SPARQL across crawls.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          subcommandArgs,
		RunE:          func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.SetFlagErrorFunc(flagError)
	// One command per line, so branches that add commands merge cleanly.
	root.AddCommand(newVersionCmd())
	root.AddCommand(newRDFCmd())
	root.AddCommand(newLoadCmd())
	root.AddCommand(newExportCmd())
	root.AddCommand(newStoreCmd())
	root.AddCommand(newKBCmd())
	root.AddCommand(newSimCmd())
	root.AddCommand(newQueryCmd())
	root.AddCommand(newServeCmd())
	root.AddCommand(newCrawlCmd())
	root.AddCommand(newTUICmd())
	root.AddCommand(newDemoCmd())
	root.AddCommand(newSocialCmd())
	root.AddCommand(newNodeCmd())
	root.AddCommand(newClusterCmd())
	root.AddCommand(newAnalyzeCmd())
	return root
}

// usageError marks an error in how mneme was called (exit code 2).
type usageError struct{ error }

func (u usageError) Unwrap() error { return u.error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func flagError(_ *cobra.Command, err error) error { return usageError{err} }

// subcommandArgs makes a command that only groups subcommands reject an
// unknown subcommand as a usage error instead of printing help.
func subcommandArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	return nil
}

// usageArgs turns a cobra argument validator's error into a usage error.
func usageArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := v(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}
