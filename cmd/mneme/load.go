package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/rdfio"
)

func newLoadCmd() *cobra.Command {
	var o loadOptions
	cmd := &cobra.Command{
		Use:   "load --store DIR FILE...",
		Short: "Bulk-load RDF files into a store",
		Long: `Load FILEs (.nt .nq .ttl .trig .rdf, each optionally .gz) into the store in
DIR, creating it if needed. Quads the store already holds are ignored, so
loading twice changes nothing. N-Triples and N-Quads are parsed in parallel.

Triples of the default graph go into --graph when it is given. Blank node
labels are local to each file: every file's blank nodes are new ones.

By default the load stops at the first syntax error, reported as
FILE:LINE:COLUMN, and loads nothing. With --skip-invalid, bad statements
are skipped and counted (N-Triples and N-Quads resume at the next line;
other formats keep what came before the error). Memory stays bounded
whatever the input size; quads become visible in one atomic step per
segment, so a killed load leaves the store as it was before the segment.`,
		Example: `  mneme load --store kb lubm.nt.gz
  mneme load --store kb --graph https://example.org/crawl/1 crawl1.ttl`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, files []string) error {
			if o.store == "" {
				return usagef("load needs --store DIR")
			}
			return runLoad(cmd, o, files)
		},
	}
	cmd.Flags().StringVar(&o.store, "store", "", "store directory (created if missing)")
	cmd.Flags().StringVar(&o.graph, "graph", "", "load default-graph triples into this named graph (IRI)")
	cmd.Flags().BoolVar(&o.skipInvalid, "skip-invalid", false, "skip invalid statements, report how many and where")
	cmd.Flags().IntVar(&o.runQuads, "run-quads", 0, "quads sorted in memory at once (default 2Mi; memory grows with it)")
	cmd.Flags().IntVar(&o.segmentQuads, "segment-quads", 0, "quads committed in one atomic step (default 64Mi)")
	return cmd
}

type loadOptions struct {
	store, graph string
	skipInvalid  bool
	runQuads     int
	segmentQuads int
}

// maxListedErrors is how many skipped statements are listed one by one.
const maxListedErrors = 10

// loadRun is one mneme load, as its progress reports it.
type loadRun struct {
	loader *graph.Loader
	files  *graph.FileLoad
	total  int64 // input bytes
}

func runLoad(cmd *cobra.Command, o loadOptions, files []string) error {
	var g rdf.Term
	if o.graph != "" {
		g = rdf.IRI(o.graph)
		if err := (rdf.Quad{S: g, P: g, O: g, G: g}).Validate(); err != nil {
			return usagef("--graph: %v", err)
		}
	}
	var total int64
	for _, path := range files {
		if _, _, err := rdfio.ForPath(path); err != nil {
			return usageError{err}
		}
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		total += fi.Size()
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// Keep the heap well under the 1.5 GB the loader promises.
		debug.SetMemoryLimit(1 << 30)
	}
	s, err := graph.Open(o.store, graph.OpenOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	loader, err := s.NewLoader(ctx, graph.LoadOptions{RunQuads: o.runQuads, SegmentQuads: o.segmentQuads})
	if err != nil {
		return err
	}
	skipped := 0
	r := &loadRun{loader: loader, total: total, files: loader.NewFileLoad(graph.FileLoadOptions{
		Graph: g, SkipInvalid: o.skipInvalid,
		Skipped: func(err error) {
			skipped++
			if skipped <= maxListedErrors {
				fmt.Fprintf(cmd.ErrOrStderr(), "skipped: %v\n", err)
			}
		},
	})}
	start := time.Now()
	prog := startProgress(cmd.ErrOrStderr(), r, start)
	if err := r.files.Load(ctx, files); err != nil {
		prog.stop()
		loader.Close()
		return err
	}
	prog.phase("sorting and ingesting")
	res, err := loader.Commit()
	elapsed := time.Since(start)
	prog.stop()
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "loaded %d quads (%d new, %d new terms) from %s in %s, %.0f quads/s\n",
		res.Read, res.Added, res.Terms, plural(len(files), "file"), elapsed.Round(time.Millisecond), float64(res.Read)/elapsed.Seconds())
	if skipped > 0 {
		fmt.Fprintf(cmd.OutOrStdout(), "skipped %s\n", plural(skipped, "invalid statement"))
	}
	return nil
}
