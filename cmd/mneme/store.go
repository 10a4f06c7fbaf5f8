package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/graph"
)

func newStoreCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "store",
		Short: "Inspect and verify a store",
		Args:  subcommandArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newStoreStatsCmd(), newStoreCheckCmd(), newStoreUpgradeCmd())
	return cmd
}

func newStoreStatsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "stats DIR",
		Short: "Print the statistics the query planner uses",
		Long: `Print the store's exact counts: quads, distinct triples (the union of all
graphs), quads per graph, and per predicate the quads, distinct triples,
distinct subjects and distinct objects.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(args[0], func(s *graph.Store) error { return printStats(cmd.OutOrStdout(), s.View) })
		},
	}
}

func printStats(w io.Writer, v *graph.View) error {
	st, err := v.Stats()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "quads\t%d\ntriples\t%d\ngraphs\t%d\npredicates\t%d\n", st.Quads, st.Triples, len(st.Graphs), len(st.Predicates))
	name := func(id graph.ID) string {
		if id == graph.DefaultGraph {
			return "(default graph)"
		}
		t, err := v.Term(id)
		if err != nil {
			return fmt.Sprintf("?%016x (%v)", uint64(id), err)
		}
		return t.String()
	}
	fmt.Fprintln(w, "\ngraph\tquads")
	for _, g := range sortedKeys(st.Graphs, name) {
		fmt.Fprintf(w, "%s\t%d\n", name(g), st.Graphs[g])
	}
	fmt.Fprintln(w, "\npredicate\tquads\ttriples\tsubjects\tobjects")
	for _, p := range sortedKeys(st.Predicates, name) {
		c := st.Predicates[p]
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\n", name(p), c.Quads, c.Triples, c.Subjects, c.Objects)
	}
	return nil
}

// sortedKeys orders IDs by their names, for stable output.
func sortedKeys[V any](m map[graph.ID]V, name func(graph.ID) string) []graph.ID {
	names := map[graph.ID]string{}
	keys := make([]graph.ID, 0, len(m))
	for k := range m {
		keys = append(keys, k)
		names[k] = name(k)
	}
	slices.SortFunc(keys, func(a, b graph.ID) int {
		switch {
		case names[a] < names[b]:
			return -1
		case names[a] > names[b]:
			return 1
		}
		return 0
	})
	return keys
}

func newStoreCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check DIR",
		Short: "Verify that indexes, dictionary and statistics agree",
		Long: `Check the store in DIR: the six indexes hold the same quads, every ID they
use is in the dictionary, every term is where a lookup finds it, and the
statistics equal counts made from the indexes. Exits 1 with a report when
anything disagrees.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			var rep *graph.CheckReport
			err := withStore(args[0], func(s *graph.Store) (err error) {
				rep, err = s.Check(cmd.Context())
				return err
			})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			for _, p := range rep.Problems {
				fmt.Fprintln(out, p)
			}
			if rep.Truncated {
				fmt.Fprintln(out, "(more problems not listed)")
			}
			if !rep.OK() {
				return fmt.Errorf("store %s is inconsistent: %s", args[0], plural(len(rep.Problems), "problem"))
			}
			fmt.Fprintf(out, "ok: %d quads, %d terms\n", rep.Quads, rep.Terms)
			return nil
		},
	}
}

// withStore runs fn on the store in dir, opened read-only.
func withStore(dir string, fn func(*graph.Store) error) error {
	s, err := graph.Open(dir, graph.OpenOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(s)
}
