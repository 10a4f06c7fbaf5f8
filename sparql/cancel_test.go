package sparql_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

// countdown is a context that is cancelled at its n-th check (Err or
// Done): it stops a query at each point an operator looks, in turn,
// where a timer would hit only the points that happen to be slow.
type countdown struct {
	context.Context
	left int64
	once sync.Once
	done chan struct{}
}

func newCountdown(n int64) *countdown {
	return &countdown{Context: context.Background(), left: n, done: make(chan struct{})}
}

func (c *countdown) tick() bool {
	if atomic.AddInt64(&c.left, -1) <= 0 {
		c.once.Do(func() { close(c.done) })
		return true
	}
	return false
}

func (c *countdown) Err() error {
	if c.tick() {
		return context.Canceled
	}
	return nil
}

func (c *countdown) Done() <-chan struct{} {
	c.tick()
	return c.done
}

// counting counts the context checks a whole run of a query makes.
type counting struct {
	context.Context
	n atomic.Int64
}

func (c *counting) Err() error                  { c.n.Add(1); return nil }
func (c *counting) Done() <-chan struct{}       { c.n.Add(1); return nil }
func (c *counting) Deadline() (time.Time, bool) { return time.Time{}, false }

// TestCancelEveryOperatorReleasesTheStore runs a query of each operator
// kind (joins of every physical kind, OPTIONAL, UNION, MINUS, FILTER and
// EXISTS, GRAPH, BIND, VALUES, GROUP BY, ORDER BY in memory and spilled,
// DISTINCT, LIMIT, property paths, subqueries, ASK, CONSTRUCT, DESCRIBE)
// and cancels it at each context check it makes, on its own snapshot as
// the endpoint does; then the store must close cleanly: a scan left open
// on any cancellation path makes Pebble refuse or panic ("element has
// outstanding references").
func TestCancelEveryOperatorReleasesTheStore(t *testing.T) {
	var quads []rdf.Quad
	for i := range 200 {
		s := iri(fmt.Sprint("s", i))
		quads = append(quads,
			rdf.Quad{S: s, P: iri("p"), O: iri(fmt.Sprint("s", (i*7+1)%200))},
			rdf.Quad{S: s, P: iri("q"), O: rdf.Literal(fmt.Sprint(i%97), rdf.XSDInteger), G: iri(fmt.Sprint("g", i%3))},
			rdf.Quad{S: s, P: iri("type"), O: iri(fmt.Sprint("C", i%5))},
		)
	}
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	for _, q := range quads {
		b.Add(q)
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	const p = "PREFIX : <http://example.org/> "
	queries := []string{
		`SELECT * { ?a :p ?b . ?b :p ?c . ?c :p ?a }`, // a cycle: leapfrog triejoin
		`SELECT * { ?a :p ?b . ?b :type ?t . ?a :q ?n }`,
		`SELECT * { ?a :type :C1 . ?a :p ?b . ?b :type ?t }`,
		`SELECT * { ?a :p ?b OPTIONAL { ?b :q ?n FILTER(?n > 50) } }`,
		`SELECT * { { ?a :type :C1 } UNION { ?a :type :C2 } ?a :p ?b }`,
		`SELECT * { ?a :p ?b MINUS { ?a :type :C3 } }`,
		`SELECT * { ?a :p ?b FILTER EXISTS { ?b :type :C4 } FILTER NOT EXISTS { ?a :type :C0 } }`,
		`SELECT * { GRAPH ?g { ?a :q ?n } ?a :p ?b }`,
		`SELECT * { ?a :q ?n BIND(?n * 2 AS ?m) FILTER(?m > 10) }`,
		`SELECT * { VALUES ?t { :C1 :C3 } ?a :type ?t ; :p ?b }`,
		`SELECT ?t (COUNT(*) AS ?c) (SUM(?n) AS ?s) { ?a :type ?t ; :q ?n ; :p ?b } GROUP BY ?t HAVING (COUNT(*) > 1)`,
		`SELECT * { ?a :p ?b . ?b :q ?n } ORDER BY DESC(?n) ?a`,
		`SELECT DISTINCT ?n ?t { ?a :q ?n ; :type ?t . ?b :type ?t }`,
		`SELECT REDUCED ?t { ?a :type ?t . ?b :type ?t } LIMIT 300 OFFSET 10`,
		`SELECT * { :s1 :p+ ?x }`,
		`SELECT * { ?x :p* :s2 }`,
		`SELECT * { ?a :p ?b { SELECT ?b (MAX(?n) AS ?m) { ?b :q ?n } GROUP BY ?b } }`,
		`ASK { ?a :p ?b . ?b :p ?c . ?c :q 1000 }`,
		`CONSTRUCT { ?b :r ?a } { ?a :p ?b . ?b :type ?t }`,
		`DESCRIBE ?a { ?a :type :C2 }`,
		`SELECT (COUNT(*) AS ?k) { ?a :p ?b . ?b :p ?c . ?c :type ?t }`,              // counted without rows
		`SELECT ?a ?n { ?a :p ?b . ?b :q ?n } ORDER BY DESC(?n) ?a LIMIT 5 OFFSET 2`, // top-k
		`SELECT ?x (COUNT(?y) AS ?n) { ?x :p+ ?y } GROUP BY ?x ORDER BY DESC(?n) LIMIT 3`,
	}
	// Spill ORDER BY, DISTINCT and GROUP BY to files, and drop hash joins
	// to lookups, to cancel those paths too.
	for _, opts := range []sparql.Options{{}, {MaxRows: 150, TempDir: t.TempDir()}} {
		for _, src := range queries {
			q, err := sparql.Prepare(p+src, opts)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			total := &counting{Context: context.Background()}
			all, err := run(total, s, q)
			if err != nil {
				t.Fatalf("%s: uncancelled run: %v", src, err)
			}
			checks := total.n.Load()
			if checks == 0 {
				t.Fatalf("%s: the query never checks its context", src)
			}
			// Check points 1, 2, 4, 8…: every stage of the query, cheaply.
			for n := int64(1); n <= checks; n = max(n+1, n*2) {
				// Either the query stops with the context's error, or
				// the cancellation came after its last row (at a check
				// made while closing): never a cut result without error.
				rows, err := run(newCountdown(n), s, q)
				if !errors.Is(err, context.Canceled) && (err != nil || rows != all) {
					t.Fatalf("%s (max rows %d): cancelled at check %d of %d: %d rows of %d, err %v; want context.Canceled",
						src, opts.MaxRows, n, checks, rows, all, err)
				}
			}
		}
	}
	closeStore(t, s)
}

// run executes q on a snapshot of s and reads its result to the end.
func run(ctx context.Context, s *graph.Store, q *sparql.Query) (rows int, err error) {
	snap := s.Snapshot()
	defer snap.Close()
	r, err := q.Exec(ctx, snap)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	for r.Next() {
		rows++
	}
	return rows, r.Err()
}

// closeStore closes s, failing the test on an error or a panic.
func closeStore(t *testing.T, s *graph.Store) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("closing the store panicked: %v", r)
		}
	}()
	if err := s.Close(); err != nil {
		t.Fatalf("closing the store: %v", err)
	}
}
