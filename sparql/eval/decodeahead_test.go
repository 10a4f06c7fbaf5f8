package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// TestDecodeAheadAgrees checks filters and ORDER BY over more rows than
// minAheadEst, whose terms are decoded ahead in batches, against the
// answers computed here from the data: string functions and casts in a
// filter (of two variables: one of one variable remembers its results
// per ID and decodes nothing ahead), a top-k on a variable and on an expression (with OFFSET), a
// full sort, and a filter under a top-k (two batches read in turn).
func TestDecodeAheadAgrees(t *testing.T) {
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{CacheBytes: 8 << 20, TermCacheBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	const n = 6000
	b := s.NewBatch()
	names := make([]string, n) // names[i] is x_i's name
	for i := range n {
		names[i] = fmt.Sprintf("n%d", i*7919%n)
		x := rdf.IRI(fmt.Sprintf("%sx%05d", ex, i))
		b.Add(rdf.Quad{S: x, P: rdf.IRI(ex + "name"), O: rdf.Literal(names[i], rdf.XSDString)})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	x := func(i int) string { return fmt.Sprintf("<%sx%05d> ", ex, i) }
	lit := func(v string) string { return fmt.Sprintf("%q ", v) }
	byName := make([]int, n)
	for i := range byName {
		byName[i] = i
	}
	// Names are distinct: the order of the subjects by name is total.
	slices.SortFunc(byName, func(a, b int) int { return strings.Compare(names[a], names[b]) })
	var small, desc7, lenTop, startsN1 []string
	p := 0
	for i := range n {
		var v int
		fmt.Sscanf(names[i][1:], "%d", &v)
		if v < 40 {
			small = append(small, x(i))
		}
		if len(names[i]) == 4 {
			p++
		}
	}
	for _, i := range slices.Backward(byName) {
		if len(desc7) < 7 {
			desc7 = append(desc7, x(i)+lit(names[i]))
		}
		if strings.HasPrefix(names[i], "n1") && len(startsN1) < 3 {
			startsN1 = append(startsN1, lit(names[i]))
		}
	}
	// ORDER BY STRLEN(?n) ?x: the subjects in order, by name length.
	byLen := make([]int, n)
	for i := range byLen {
		byLen[i] = i
	}
	slices.SortStableFunc(byLen, func(a, b int) int { return len(names[a]) - len(names[b]) })
	for _, i := range byLen[10:15] {
		lenTop = append(lenTop, x(i))
	}
	var all []string
	for _, i := range byName {
		all = append(all, x(i))
	}
	for _, c := range []struct {
		q      string
		want   []string
		sorted bool // compare as sets
		// ahead: terms are decoded ahead (not by a filter whose
		// expressions are remembered per ID of their one variable)
		ahead bool
	}{
		{`SELECT ?x WHERE { ?x :name ?n FILTER(xsd:integer(STRAFTER(?n, "n")) < 40 && ?x != ?n) }`, small, true, true},
		{`SELECT ?x WHERE { ?x :name ?n FILTER(xsd:integer(STRAFTER(?n, "n")) < 40) }`, small, true, false},
		{`SELECT ?c WHERE { { SELECT (COUNT(*) AS ?c) WHERE { ?x :name ?n FILTER(STRLEN(?n) = 4 && ?x != ?n) } } }`,
			[]string{fmt.Sprintf("\"%d\"^^<http://www.w3.org/2001/XMLSchema#integer> ", p)}, false, true},
		{`SELECT ?x ?n WHERE { ?x :name ?n } ORDER BY DESC(?n) LIMIT 7`, desc7, false, true},
		{`SELECT ?x WHERE { ?x :name ?n } ORDER BY STRLEN(?n) ?x LIMIT 5 OFFSET 10`, lenTop, false, true},
		{`SELECT ?x WHERE { ?x :name ?n } ORDER BY ?n`, all, false, true},
		{`SELECT ?n WHERE { ?x :name ?n FILTER(STRSTARTS(?n, "n1") && ?x != ?n) } ORDER BY DESC(?n) LIMIT 3`, startsN1, false, true},
	} {
		pl, aq := compileQuery(t, s.View, "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"+c.q, 0)
		got := rows(t, pl, aq.Vars)
		want := c.want
		if c.sorted {
			slices.Sort(got)
			want = slices.Sorted(slices.Values(want))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s\ngot  %d rows %.300q\nwant %d rows %.300q", c.q, len(got), got, len(want), want)
		}
		if ahead := pl.ex.Dict.decodedAhead > 0; ahead != c.ahead {
			t.Errorf("%s: decoded ahead %v, want %v\n%s", c.q, ahead, c.ahead, pl.Explain())
		}
	}
}
