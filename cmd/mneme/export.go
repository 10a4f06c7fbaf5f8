package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/rdfio"
)

func newExportCmd() *cobra.Command {
	var storeDir, graphIRI, format string
	cmd := &cobra.Command{
		Use:   "export --store DIR [OUT]",
		Short: "Write the quads of a store (or of one graph) as RDF",
		Long: `Stream the store's quads to OUT (standard output when absent or "-"),
graph by graph. The format comes from --format (nq, nt, ttl, trig) or
OUT's name, N-Quads by default; a final .gz compresses.

With --graph only that graph is written (use "default" for the default
graph). N-Triples and Turtle cannot name graphs: without --graph they get
the union of all graphs, each triple once. Loading the export into an
empty store gives the same store, up to the names of blank nodes.`,
		Example: `  mneme export --store kb all.nq.gz
  mneme export --store kb --graph https://example.org/crawl/1 --format ttl`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if storeDir == "" {
				return usagef("export needs --store DIR")
			}
			out := "-"
			if len(args) == 1 {
				out = args[0]
			}
			f, err := exportFormat(format, out)
			if err != nil {
				return err
			}
			s, err := graph.Open(storeDir, graph.OpenOptions{ReadOnly: true})
			if err != nil {
				return err
			}
			defer s.Close()
			snap := s.Snapshot()
			defer snap.Close()
			var w *rdfio.Output
			if out == "-" {
				if w, err = rdfio.NewOutput(cmd.OutOrStdout(), f, rdf.WriteOptions{}); err != nil {
					return err
				}
			} else if w, err = rdfio.Create(out, f, rdf.WriteOptions{}); err != nil {
				return err
			}
			if err := export(cmd.Context(), snap, graphIRI, f.Quads, w); err != nil {
				_ = w.Close()
				return err
			}
			return w.Close()
		},
	}
	cmd.Flags().StringVar(&storeDir, "store", "", "store directory")
	cmd.Flags().StringVar(&graphIRI, "graph", "", `only this graph (IRI, or "default")`)
	cmd.Flags().StringVar(&format, "format", "", "nq, nt, ttl or trig (default: from OUT, else nq)")
	return cmd
}

func exportFormat(name, out string) (*rdfio.Format, error) {
	if name != "" {
		f, err := rdfio.ByName(name)
		if err != nil {
			return nil, usageError{err}
		}
		return f, nil
	}
	if out == "-" {
		return rdfio.NQuads, nil
	}
	f, _, err := rdfio.ForPath(out)
	if err != nil {
		return nil, usageError{err}
	}
	return f, nil
}

// exportBatch is how many quads are decoded together.
const exportBatch = 8192

// export writes the selected quads to w, decoding IDs in batches.
func export(ctx context.Context, v *graph.View, graphIRI string, quads bool, w rdf.Writer) error {
	pat := graph.Pattern{}
	opts := graph.ScanOptions{Order: graph.GSPO}
	switch {
	case graphIRI == "default":
		pat.G = graph.DefaultGraph
	case graphIRI != "":
		id, ok, err := v.Lookup(rdf.IRI(graphIRI))
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("graph <%s> is not in the store", graphIRI)
		}
		pat.G = id
	case !quads:
		opts = graph.ScanOptions{Order: graph.SPOG, Union: true}
	}
	it, err := v.Scan(ctx, pat, opts)
	if err != nil {
		return err
	}
	defer it.Close()
	ids := make([]graph.ID, 0, 4*exportBatch)
	var terms []rdf.Term
	flush := func() error {
		if terms, err = v.Terms(ctx, ids, terms); err != nil {
			return err
		}
		for i := 0; i < len(terms); i += 4 {
			q := rdf.Quad{S: terms[i], P: terms[i+1], O: terms[i+2]}
			if quads {
				q.G = terms[i+3]
			}
			if err := w.Write(q); err != nil {
				return err
			}
		}
		ids = ids[:0]
		return nil
	}
	for it.Next() {
		q := it.Quad()
		g := q.G
		if g == graph.Any {
			g = graph.DefaultGraph
		}
		ids = append(ids, q.S, q.P, q.O, g)
		if len(ids) == cap(ids) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := it.Err(); err != nil {
		return err
	}
	return flush()
}
