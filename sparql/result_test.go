package sparql_test

import (
	"fmt"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

// An answer of thousands of rows is decoded in batches of growing size:
// every row keeps its own terms across the batch boundaries, and none is
// lost or repeated.
func TestLargeAnswerDecodedInBatches(t *testing.T) {
	const n = 5000 // batches of 256, 512, 1024, 2048 and the rest
	var quads []rdf.Quad
	want := map[string]bool{}
	for i := range n {
		q := rdf.Quad{S: iri(fmt.Sprint("s", i)), P: iri("n"), O: rdf.Literal(fmt.Sprint(i), rdf.XSDInteger)}
		quads = append(quads, q)
		want[q.S.String()+" "+q.O.String()] = true
	}
	s := openStore(t, quads)
	rows := selectAll(t, s.View, `SELECT ?s ?o WHERE { ?s <`+ex+`n> ?o }`, sparql.Options{})
	if len(rows) != n {
		t.Fatalf("%d rows, want %d", len(rows), n)
	}
	for _, r := range rows {
		if !want[r] {
			t.Fatalf("row %q: not a quad of the store, or seen twice", r)
		}
		delete(want, r)
	}
}
