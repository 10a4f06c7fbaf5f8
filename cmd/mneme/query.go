package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/rdfio"
	"github.com/mneme-archive/mneme/sparql"
	"github.com/mneme-archive/mneme/sparql/results"
)

type queryOptions struct {
	store, format string
	lang          string // sparql, gizmo or graphql
	endpoint      string
	timeout       time.Duration
	explain       bool
}

func newQueryCmd() *cobra.Command {
	var o queryOptions
	cmd := &cobra.Command{
		Use:   "query (--store DIR | --endpoint URL) [flags] QUERY|@FILE|-",
		Short: "Run a SPARQL (or Gizmo, GraphQL) query against a store",
		Long: `Run one SPARQL 1.1 query against the store in DIR (opened read-only, one
snapshot for the whole query). The query is the argument, @FILE reads it from
a file and "-" from standard input. Without FROM, the default graph is the
union of all graphs.

SELECT and ASK results are written as an aligned table (the default on a
terminal), json, xml, csv or tsv (the default otherwise); CONSTRUCT and
DESCRIBE as turtle (default), ntriples or jsonld (JSON-LD, expanded form).

--explain runs the query, discards its answer and prints the plan: the join
order chosen for each basic graph pattern (property paths among its steps,
with the end each is walked from), the physical join of every operator
(bind, hash, anti-join, semi-join), the planner's estimated rows (est) and
the rows each operator actually produced (rows).

A query running longer than --timeout is stopped with exit code 1; syntax
errors are reported as FILE:LINE:COLUMN.

A store is open in one process at a time. While a mneme serve, crawl or
tui holds DIR, the query goes to that process's endpoint (it notes its URL
in DIR), with a note on stderr; --endpoint URL queries any SPARQL endpoint instead of a
store. Through an endpoint, the answer is the server's (cut at its
--max-rows) and --explain is not available.

--lang gizmo or --lang graphql runs Cayley's query languages instead
(docs/cayley.md): a Gizmo path such as g.V("<IRI>").In("<pred>").All(), or
a GraphQL query; each result is written as one JSON value per line. The
store's named graphs are Cayley labels. Through a server (--endpoint, or a
store held by mneme serve) the query goes to its Cayley API at
/api/v2/query.`,
		Example: `  mneme query --store kb 'SELECT ?s WHERE { ?s a <http://schema.org/Person> } LIMIT 10'
  mneme query --store kb --format csv @q2.rq > q2.csv
  mneme query --store kb --explain --timeout 5s @q2.rq
  echo 'ASK { ?s ?p ?o }' | mneme query --store kb -
  mneme query --endpoint http://127.0.0.1:7878/sparql 'ASK { ?s ?p ?o }'
  mneme query --store kb --lang gizmo 'g.V("<https://example.org/>").In("<https://w3id.org/mneme#url>").All()'`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (o.store == "") == (o.endpoint == "") {
				return usagef("query needs --store DIR or --endpoint URL (not both)")
			}
			if o.endpoint != "" && o.explain {
				return usagef("--explain runs the plan in this process: it needs --store, not --endpoint")
			}
			if o.timeout <= 0 {
				return usagef("--timeout must be positive")
			}
			switch o.lang {
			case "sparql":
			case "gizmo", "graphql":
				return runCayleyQuery(cmd, o, args[0])
			default:
				return usagef("--lang %q: want sparql, gizmo or graphql", o.lang)
			}
			return runQuery(cmd, o, args[0])
		},
	}
	cmd.Flags().StringVar(&o.store, "store", "", "store directory")
	cmd.Flags().StringVar(&o.endpoint, "endpoint", "", "SPARQL endpoint URL to query instead of a store")
	cmd.Flags().StringVar(&o.format, "format", "", "table, json, xml, csv, tsv; turtle, ntriples or jsonld for CONSTRUCT/DESCRIBE")
	cmd.Flags().DurationVar(&o.timeout, "timeout", 30*time.Second, "stop the query after this long")
	cmd.Flags().StringVar(&o.lang, "lang", "sparql", "query language: sparql, gizmo or graphql (Cayley's)")
	cmd.Flags().BoolVar(&o.explain, "explain", false, "print the plan with estimated and actual rows instead of the answer")
	return cmd
}

// readQuery returns the query text and the name its errors are given.
func readQuery(cmd *cobra.Command, arg string) (text, name string, err error) {
	switch {
	case arg == "-":
		b, err := io.ReadAll(cmd.InOrStdin())
		return string(b), "stdin", err
	case strings.HasPrefix(arg, "@"):
		b, err := os.ReadFile(arg[1:])
		return string(b), arg[1:], err
	}
	return arg, "query", nil
}

func runQuery(cmd *cobra.Command, o queryOptions, arg string) error {
	text, name, err := readQuery(cmd, arg)
	if err != nil {
		return err
	}
	q, err := sparql.Prepare(text, sparql.Options{})
	if err != nil {
		var se *sparql.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%s:%d:%d: %s", name, se.Line, se.Col, se.Msg)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	out := cmd.OutOrStdout()
	write, err := queryWriter(q, o.format, isTerminal(out))
	if err != nil {
		return err
	}
	if o.endpoint != "" {
		return remoteQuery(cmd.Context(), o.endpoint, text, q.Form(), o.format, isTerminal(out), o.timeout, out)
	}
	if _, err := os.Stat(o.store); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	s, err := graph.Open(o.store, graph.OpenOptions{ReadOnly: true})
	if errors.Is(err, graph.ErrLocked) {
		return heldStore(cmd, o, text, q.Form())
	}
	if err != nil {
		return err
	}
	defer s.Close()
	if !s.HasValueIndex() {
		fmt.Fprint(cmd.ErrOrStderr(), oldStoreNotice(o.store))
	}
	snap := s.Snapshot()
	defer snap.Close()
	ctx, cancel := context.WithTimeout(cmd.Context(), o.timeout)
	defer cancel()
	if o.explain {
		plan, err := q.Explain(ctx, snap, true)
		if err != nil {
			return queryFailure(err, o.timeout)
		}
		_, err = io.WriteString(out, plan)
		return err
	}
	res, err := q.Exec(ctx, snap)
	if err != nil {
		return queryFailure(err, o.timeout)
	}
	defer res.Close()
	return queryFailure(write(out, res), o.timeout)
}

// heldStore answers a query on a store another process holds: through
// the endpoint of the mneme serve, crawl or tui that holds it, or with an
// error that says what to do.
func heldStore(cmd *cobra.Command, o queryOptions, text string, form sparql.Form) error {
	u, ok := servedURL(o.store)
	switch {
	case !ok:
		return fmt.Errorf("store %s is in use by another process (a mneme serve, crawl or load holds it, and a store opens in one process at a time): query a running server with --endpoint URL, or wait for the other process to end", o.store)
	case o.explain:
		return fmt.Errorf("store %s is held by another mneme process serving it at %s: --explain runs the plan in this process, so wait for that process to end (or query without --explain)", o.store, u)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "mneme: %s is held by another mneme process; querying its endpoint %s\n", o.store, u)
	out := cmd.OutOrStdout()
	return remoteQuery(cmd.Context(), u, text, form, o.format, isTerminal(out), o.timeout, out)
}

// queryFailure names a timeout as such.
func queryFailure(err error, timeout time.Duration) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("query timed out after %v", timeout)
	}
	return err
}

// resultWriter writes a whole result.
type resultWriter func(w io.Writer, res *sparql.Result) error

// queryWriter picks the output for the query form and --format.
func queryWriter(q *sparql.Query, format string, terminal bool) (resultWriter, error) {
	form := q.Form()
	if form.IsGraph() {
		_, open, err := graphFormat(format, form)
		if err != nil {
			return nil, err
		}
		prefixes := q.Prefixes()
		return func(w io.Writer, res *sparql.Result) error { return writeGraph(w, res, open, prefixes) }, nil
	}
	if format == "" {
		format = "tsv"
		if terminal {
			format = "table"
		}
	}
	if format == "table" {
		return func(w io.Writer, res *sparql.Result) error { return writeTable(w, localRows{res}, queryTable) }, nil
	}
	f, err := results.ParseFormat(format)
	if err != nil {
		return nil, usagef("--format %q: a %s query writes table, json, xml, csv or tsv", format, form)
	}
	return func(w io.Writer, res *sparql.Result) error { return writeResults(w, res, f) }, nil
}

func writeResults(w io.Writer, res *sparql.Result, f results.Format) error {
	rw := results.NewWriter(w, f)
	if res.Form == sparql.Ask {
		if err := rw.Boolean(res.Boolean()); err != nil {
			return err
		}
		return rw.Close()
	}
	if err := rw.Head(res.Vars); err != nil {
		return err
	}
	for res.Next() {
		if err := rw.Row(res.Row()); err != nil {
			return err
		}
	}
	if err := res.Err(); err != nil {
		return err
	}
	return rw.Close()
}

// writeGraph writes a CONSTRUCT or DESCRIBE answer; Turtle abbreviates
// IRIs with the query's prefixes.
// graphWriter opens a writer of one RDF format.
type graphWriter func(io.Writer, rdf.WriteOptions) (rdf.Writer, error)

// graphFormat is the media type and the writer of the RDF format that
// --format names for a CONSTRUCT or DESCRIBE answer (Turtle by default).
func graphFormat(format string, form sparql.Form) (string, graphWriter, error) {
	if format == "" {
		format = "turtle"
	}
	f, err := rdfio.ByName(format)
	if err != nil || !f.CanWrite() || f.Quads {
		return "", nil, usagef("--format %q: a %s query writes turtle, ntriples or jsonld", format, form)
	}
	return f.MediaType, f.NewWriter, nil
}

func writeGraph(w io.Writer, res *sparql.Result, open graphWriter, prefixes map[string]string) error {
	gw, err := open(w, rdf.WriteOptions{Prefixes: prefixes})
	if err != nil {
		return err
	}
	for res.Next() {
		if err := gw.Write(res.Triple().In(rdf.Term{})); err != nil {
			return err
		}
	}
	if err := res.Err(); err != nil {
		return err
	}
	return gw.Close()
}
