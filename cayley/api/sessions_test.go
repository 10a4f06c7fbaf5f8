package api

import (
	"context"
	"fmt"
	"testing"

	"github.com/cayleygraph/cayley/graph/memstore"
	"github.com/cayleygraph/quad"

	"github.com/mneme-archive/mneme/cayley"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

func TestPureScripts(t *testing.T) {
	for _, c := range []struct {
		script string
		pure   bool
	}{
		{`g.V("<a>").Out("<b>").All()`, true},
		{`graph.Vertex("<a>").in("<b>").Has("<c>", "<d>").Tag("x").Limit(-1).ToArray()`, true},
		{`g.V().Has("<t>", "<c>").Out("<m>").Count(); g.emit(g.V("<a>").ToValue())`, true},
		{`g.V("<a>").Follow(g.M().Out("<b>")).Filter(regex("x.*")).All()`, true},
		{`g.emit({a: 1, "b": [iri("x"), lang("y", "en"), null, true]})`, true},
		{`var x = 1; g.V("<a>").All()`, false},
		{`x = 1`, false},
		{`g = null`, false},
		{`g.addNamespace("ex", "http://example.org/")`, false},
		{`g.V().ForEach(function(d) { g.emit(d) })`, false},
		{`g.V().constructor.assign(Object.prototype, {x: 1})`, false},
		{`g["V"]().All()`, false},
		{`Object.freeze(g)`, false},
		{`g.V(x).All()`, false},
		{`g.emit({get a() { return 1 }})`, false},
		{`g.emit({[k]: 1})`, false},
		{`for (;;) {}`, false},
		{`g.V(`, false},
	} {
		p := NewSessions(nil, 1)
		if got := p.pure(c.script); got != c.pure {
			t.Errorf("pure(%s) = %v, want %v", c.script, got, c.pure)
		}
		if got := p.pure(c.script); got != c.pure { // the kept verdict
			t.Errorf("pure(%s) again = %v, want %v", c.script, got, c.pure)
		}
	}
}

// TestGizmoMethodsExist checks that the names a pure script may call are
// Gizmo's: each is a function of the graph or a path object.
func TestGizmoMethodsExist(t *testing.T) {
	p := NewSessions(memstore.New(), 1)
	for name := range gizmoMethods {
		var got []any
		_, err := p.Run(context.Background(), "gizmo", fmt.Sprintf(`g.emit(typeof g.%[1]s == "function" || typeof g.V().%[1]s == "function")`, name), 0, func(v any) error {
			got = append(got, v)
			return nil
		})
		if err != nil || len(got) != 1 || got[0] != true {
			t.Errorf("%s: %v %v, want a Gizmo method", name, got, err)
		}
	}
}

func run1(t *testing.T, p *Sessions, script string, limit int) ([]any, bool, error) {
	t.Helper()
	var got []any
	trunc, err := p.Run(context.Background(), "gizmo", script, limit, func(v any) error {
		got = append(got, v)
		return nil
	})
	return got, trunc, err
}

// TestSessionsKeepOnlyUntouchedRuntimes: what a script leaves in its
// runtime, or a stopped run, never reaches the next query.
func TestSessionsKeepOnlyUntouchedRuntimes(t *testing.T) {
	qs := memstore.New(
		quad.MakeIRI("a", "p", "b", ""),
		quad.MakeIRI("a", "p", "c", ""),
	)
	p := NewSessions(qs, 1)
	if _, _, err := run1(t, p, `var x = 1; g.V("<a>").Out("<p>").All()`, 0); err != nil {
		t.Fatal(err)
	}
	got, _, err := run1(t, p, `g.emit(typeof x)`, 0)
	if err != nil || len(got) != 1 || got[0] != "undefined" {
		t.Fatalf("after a script with a global: %v %v, want the global gone", got, err)
	}
	if _, _, err := run1(t, p, `g = null`, 0); err != nil {
		t.Fatal(err)
	}
	got, _, err = run1(t, p, `g.V("<a>").Out("<p>").All()`, 0)
	if err != nil || len(got) != 2 {
		t.Fatalf("after a script that replaced g: %v %v, want 2 results", got, err)
	}
	// A run cut at its limit interrupts its runtime: the next query must
	// not inherit it.
	got, trunc, err := run1(t, p, `g.V("<a>").Out("<p>").All()`, 1)
	if err != nil || !trunc || len(got) != 1 {
		t.Fatalf("limit 1: %v %v %v", got, trunc, err)
	}
	for range 2 {
		got, _, err = run1(t, p, `g.V("<a>").Out("<p>").All()`, 0)
		if err != nil || len(got) != 2 {
			t.Fatalf("after a cut run: %v %v, want 2 results", got, err)
		}
	}
	if len(p.idle) != 1 {
		t.Fatalf("%d idle sessions after pure queries, want the one kept", len(p.idle))
	}
	kept := p.idle[0]
	got, _, err = run1(t, p, `g.V("<a>").Out("<p>").Count(); g.emit(g.V("<a>").Out("<p>").ToArray())`, 0)
	if err != nil || len(got) != 1 || len(p.idle) != 1 || p.idle[0] != kept {
		t.Fatalf("a pure query did not run in the kept session: %v %v", got, err)
	}
}

// TestSourceSessionsSeeWrites: over a writable store a kept session reads
// the store's latest state at each query, and an idle one holds no
// snapshot.
func TestSourceSessionsSeeWrites(t *testing.T) {
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	add := func(o string) {
		b := s.NewBatch()
		b.Add(rdf.Quad{S: rdf.IRI("a"), P: rdf.IRI("p"), O: rdf.IRI(o)})
		if _, err := b.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	add("b")
	src := cayley.NewSource(s)
	p := NewSourceSessions(src, 1)
	const q = `g.V("<a>").Out("<p>").All()`
	for i, o := range []string{"c", "d", ""} {
		got, _, err := run1(t, p, q, 0)
		if err != nil || len(got) != i+1 {
			t.Fatalf("query %d: %v %v, want %d results", i, got, err, i+1)
		}
		if len(p.idle) != 1 {
			t.Fatalf("query %d: %d idle sessions, want the one kept", i, len(p.idle))
		}
		if o != "" {
			add(o)
		}
	}
	if _, err := p.Run(context.Background(), "graphql", `{ nodes(id: "a") { p } }`, 0, func(any) error { return nil }); err != nil {
		t.Fatal(err)
	}
	src.Close()
	// Pebble refuses to close with a snapshot open ("leaked snapshots").
	if err := s.Close(); err != nil {
		t.Fatalf("closing the store with a session idle: %v", err)
	}
}
