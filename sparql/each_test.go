package sparql_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

// TestEach: every row in the query's order, a stop at fn's first error
// (returned as is), and a syntax error from Prepare.
func TestEach(t *testing.T) {
	var quads []rdf.Quad
	for _, o := range []string{"c", "a", "b"} {
		quads = append(quads, rdf.Quad{S: iri("s"), P: iri("p"), O: iri(o)})
	}
	s := openStore(t, quads)
	v := s.Snapshot()
	defer v.Close()
	ctx := context.Background()
	q := "SELECT ?o WHERE { <" + ex + "s> <" + ex + "p> ?o } ORDER BY ?o"
	var got []string
	if err := sparql.Each(ctx, v, q, func(row []rdf.Term) error {
		got = append(got, row[0].Value)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{ex + "a", ex + "b", ex + "c"}; !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	stop := errors.New("stop")
	calls := 0
	if err := sparql.Each(ctx, v, q, func([]rdf.Term) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("stopping: err %v after %d calls, want %v after 1", err, calls, stop)
	}
	if err := sparql.Each(ctx, v, "SELECT ?o WHERE {", func([]rdf.Term) error { return nil }); err == nil {
		t.Error("a syntax error was not reported")
	}
}
