package eval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// randomValue draws an object for the range tests: numbers of every
// numeric type (with INF and NaN), dates and dateTimes with and without
// time zones, ill-formed lexical forms, strings and IRIs.
func randomValue(r *rand.Rand) rdf.Term {
	tz := []string{"", "Z", "+05:00", "-09:30", "+14:00", "-14:00"}[r.IntN(6)]
	day := fmt.Sprintf("2008-%02d-%02d", 1+r.IntN(4), 1+r.IntN(28))
	switch r.IntN(12) {
	case 0:
		return rdf.Literal(fmt.Sprint(r.IntN(200)-100), rdf.XSDInteger)
	case 1:
		return rdf.Literal(fmt.Sprintf("%d.%d", r.IntN(200)-100, r.IntN(100)), rdf.XSDDecimal)
	case 2:
		return rdf.Literal(fmt.Sprintf("%.4g", (r.Float64()-0.5)*200), rdf.XSDDouble)
	case 3:
		return rdf.Literal([]string{"INF", "-INF", "NaN", "0.1", "-0", "3.4028236e38", fmt.Sprintf("%.3f", (r.Float64()-0.5)*200)}[r.IntN(7)], rdf.XSDNS+"float")
	case 4:
		return rdf.Literal(fmt.Sprint(r.IntN(300)), rdf.XSDNS+[]string{"unsignedByte", "int", "nonNegativeInteger"}[r.IntN(3)])
	case 5:
		return rdf.Literal(day+tz, rdf.XSDDate)
	case 6, 7:
		return rdf.Literal(fmt.Sprintf("%sT%02d:%02d:%02d%s%s", day, r.IntN(25), r.IntN(60), r.IntN(60),
			[]string{"", ".5", ".000"}[r.IntN(3)], tz), rdf.XSDDateTime)
	case 8:
		return rdf.Literal([]string{"12x", "", "1.2.3", "2008-13-45", "2008-02-30", "2008-02-01T25:00:00", "+-1", "1e5"}[r.IntN(8)],
			[]string{rdf.XSDInteger, rdf.XSDDecimal, rdf.XSDDate, rdf.XSDDateTime, rdf.XSDDouble}[r.IntN(5)])
	case 9:
		return rdf.String(day)
	case 10:
		// Numbers on which float rounding decides a comparison with
		// the xsd:float bounds of randomBound.
		switch k := r.IntN(4); k {
		case 0:
			return rdf.Literal([]string{"0.1", "-0.1", "0.1000000001", "0.0999999999"}[r.IntN(4)], rdf.XSDDecimal)
		case 1:
			return rdf.Literal([]string{"16777217", "16777215", "-16777217"}[r.IntN(3)], rdf.XSDInteger)
		case 2:
			return rdf.Literal([]string{"1e-50", "-1e-50", "1e39", "-1e39"}[r.IntN(4)], rdf.XSDDouble)
		}
		return rdf.Literal("1"+strings.Repeat("0", 40), rdf.XSDInteger)
	}
	return rdf.IRI(fmt.Sprintf("%sv%d", ex, r.IntN(50)))
}

// randomRange draws the two bounds of a range near the data's values:
// numbers (some xsd:float, on which rounding decides), dates or
// dateTimes with and without time zones, sometimes ill-formed.
func randomRange(r *rand.Rand) (lo, hi string) {
	month, d := 1+r.IntN(4), 1+r.IntN(27)
	tz := func() string { return []string{"", "Z", "+02:00", "-14:00"}[r.IntN(4)] }
	switch r.IntN(6) {
	case 0:
		x := r.IntN(200) - 100
		return fmt.Sprint(x), fmt.Sprintf("%d.%d", x+r.IntN(20), r.IntN(10))
	case 1:
		f := []string{"INF", "-INF", "0.1", "-0.1", "NaN", "1e-50", "0", "16777216", "-16777216"}
		return fmt.Sprintf(`"%s"^^xsd:float`, f[r.IntN(len(f))]), fmt.Sprintf(`"%s"^^xsd:float`, f[r.IntN(len(f))])
	case 2:
		return fmt.Sprintf(`"2008-%02d-%02d%s"^^xsd:date`, month, d, tz()), fmt.Sprintf(`"2008-%02d-%02d%s"^^xsd:date`, month, d+1, tz())
	case 3:
		return `"2008-02-31"^^xsd:date`, fmt.Sprintf(`"2008-%02d-%02d"^^xsd:date`, month, d)
	}
	h := r.IntN(24)
	return fmt.Sprintf(`"2008-%02d-%02dT%02d:00:00%s"^^xsd:dateTime`, month, d, h, tz()),
		fmt.Sprintf(`"2008-%02d-%02dT%02d:30:00%s"^^xsd:dateTime`, month, d+1, h, tz())
}

// TestRangeScanAgreesWithFilter runs random range filters over random
// values, with the range scan (when the planner takes it) and with the
// filter alone (rangeScans off), and expects the same solutions; the
// range scan must have been taken for most of them.
func TestRangeScanAgreesWithFilter(t *testing.T) {
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{CacheBytes: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	r := rand.New(rand.NewPCG(20, 3))
	b := s.NewBatch()
	for i := range 3000 {
		x := rdf.IRI(fmt.Sprintf("%sx%d", ex, i))
		b.Add(rdf.Quad{S: x, P: rdf.IRI(ex + "val"), O: randomValue(r)})
		if i%3 == 0 {
			b.Add(rdf.Quad{S: x, P: rdf.IRI(ex + "val"), O: randomValue(r)})
		}
		b.Add(rdf.Quad{S: x, P: rdf.IRI(ex + "tag"), O: rdf.String(fmt.Sprint(i % 10))})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	ops := []string{"<", "<=", ">", ">=", "="}
	shapes := []string{
		`SELECT ?x ?v WHERE { ?x :val ?v FILTER(%s) }`,
		`SELECT ?x ?v WHERE { ?x :val ?v ; :tag "3" FILTER(%s) }`,
		`SELECT ?x ?v ?t WHERE { ?x :tag ?t OPTIONAL { ?x :val ?v FILTER(%s) } }`,
		`SELECT ?v (COUNT(*) AS ?n) WHERE { ?x ?p ?v FILTER(%s) } GROUP BY ?v`,
	}
	used := 0
	const queries = 120
	for i := range queries {
		lo, hi := randomRange(r)
		conds := []string{
			fmt.Sprintf("?v %s %s", []string{">", ">=", "="}[r.IntN(3)], lo),
			fmt.Sprintf("%s %s ?v", hi, []string{">", ">="}[r.IntN(2)]),
		}
		if r.IntN(3) == 0 {
			conds = conds[:1]
		}
		if r.IntN(3) == 0 {
			other, _ := randomRange(r)
			conds = append(conds, fmt.Sprintf("?v %s %s", ops[r.IntN(len(ops))], other))
		}
		q := "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n" +
			fmt.Sprintf(shapes[i%len(shapes)], strings.Join(conds, " && "))
		p, aq := compileQuery(t, s.View, q, 0)
		got := sorted(rows(t, p, aq.Vars))
		if strings.Contains(p.Explain(), "value index range") {
			used++
		}
		rangeScans = false
		p, aq = compileQuery(t, s.View, q, 0)
		want := sorted(rows(t, p, aq.Vars))
		rangeScans = true
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\n with the range scan %d rows %v\nfilter alone %d rows %v", q, len(got), got, len(want), want)
		}
	}
	t.Logf("range scan taken for %d of %d", used, queries)
	if used < queries/3 {
		t.Errorf("the range scan was taken for %d of %d queries", used, queries)
	}
}
