// Package resultstest compares SPARQL results for tests: Equivalent
// tells whether two result tables are the same up to blank node labels,
// row order (unless ordered) and, optionally, literal values.
package resultstest

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/expr"
	"github.com/mneme-archive/mneme/sparql/results"
)

// CompareOptions tune Equivalent.
type CompareOptions struct {
	// Ordered requires the rows in the same sequence (for queries with
	// ORDER BY whose sort keys leave no ties); otherwise rows are a bag.
	Ordered bool
	// ValueLiterals matches well-formed numeric and boolean literals of
	// the same datatype by value ("1.0E0" and "1"^^xsd:double), as the
	// W3C expected results are not all in canonical form.
	ValueLiterals bool
}

// maxSearchSteps bounds the blank node matching search; result sets
// needing more are reported as undecided rather than searched forever.
const maxSearchSteps = 1_000_000

// Equivalent returns nil when got is the same result set as want: the
// same variables (in any order), and rows that match one to one under a
// single bijection between their blank nodes. The error describes the
// first difference found. Language tags match case-insensitively.
func Equivalent(want, got *results.Results, opts CompareOptions) error {
	if want.Ask || got.Ask {
		if want.Ask != got.Ask {
			return fmt.Errorf("want an ASK result: %v, got a SELECT result: %v", want.Ask, got.Ask)
		}
		if want.Boolean != got.Boolean {
			return fmt.Errorf("want %v, got %v", want.Boolean, got.Boolean)
		}
		return nil
	}
	wv, gv := slices.Sorted(slices.Values(want.Vars)), slices.Sorted(slices.Values(got.Vars))
	if !slices.Equal(wv, gv) {
		return fmt.Errorf("want variables %v, got %v", want.Vars, got.Vars)
	}
	if len(want.Rows) != len(got.Rows) {
		return fmt.Errorf("want %d rows, got %d", len(want.Rows), len(got.Rows))
	}
	perm := make([]int, len(want.Vars))
	for i, v := range want.Vars {
		perm[i] = slices.Index(got.Vars, v)
	}
	norm := func(t rdf.Term) rdf.Term {
		// Language tags are case-insensitive (RDF 1.1 §3.3).
		t.Lang = strings.ToLower(t.Lang)
		if opts.ValueLiterals {
			return expr.Canonical(t)
		}
		return t
	}
	w := make([][]rdf.Term, len(want.Rows))
	g := make([][]rdf.Term, len(got.Rows))
	for i := range want.Rows {
		w[i] = make([]rdf.Term, len(want.Vars))
		g[i] = make([]rdf.Term, len(want.Vars))
		for j := range want.Vars {
			w[i][j] = norm(cell(want.Rows[i], j))
			g[i][j] = norm(cell(got.Rows[i], perm[j]))
		}
	}
	m := newMatcher(want.Vars)
	if opts.Ordered {
		for i := range w {
			if !m.unify(w[i], g[i]) {
				return fmt.Errorf("row %d: want %s, got %s", i+1, m.show(w[i]), m.show(g[i]))
			}
		}
		return nil
	}
	return m.bag(w, g)
}

func cell(row []rdf.Term, i int) rdf.Term {
	if i < len(row) {
		return row[i]
	}
	return rdf.Term{}
}

// matcher holds the blank node bijection being built.
type matcher struct {
	vars  []string
	w2g   map[string]string
	g2w   map[string]string
	trail []string // want labels added, for undo
	steps int
}

func newMatcher(vars []string) *matcher {
	return &matcher{vars: vars, w2g: map[string]string{}, g2w: map[string]string{}}
}

// unify extends the bijection so that the rows match, or leaves it as
// it was and returns false.
func (m *matcher) unify(w, g []rdf.Term) bool {
	mark := len(m.trail)
	for i := range w {
		a, b := w[i], g[i]
		if a.Kind != rdf.KindBlank || b.Kind != rdf.KindBlank {
			if a != b {
				m.undo(mark)
				return false
			}
			continue
		}
		mg, okW := m.w2g[a.Value]
		mw, okG := m.g2w[b.Value]
		switch {
		case okW && mg == b.Value:
		case okW || okG && mw != a.Value:
			m.undo(mark)
			return false
		default:
			m.w2g[a.Value], m.g2w[b.Value] = b.Value, a.Value
			m.trail = append(m.trail, a.Value)
		}
	}
	return true
}

func (m *matcher) undo(mark int) {
	for _, a := range m.trail[mark:] {
		delete(m.g2w, m.w2g[a])
		delete(m.w2g, a)
	}
	m.trail = m.trail[:mark]
}

// shape is a row's key with blank node labels erased: rows can only
// match rows of the same shape.
func shape(row []rdf.Term) string {
	var b strings.Builder
	for _, t := range row {
		if t.Kind == rdf.KindBlank {
			b.WriteString("_:")
		} else {
			b.WriteString(t.String())
		}
		b.WriteByte(0)
	}
	return b.String()
}

func hasBlank(row []rdf.Term) bool {
	return slices.ContainsFunc(row, func(t rdf.Term) bool { return t.Kind == rdf.KindBlank })
}

// bag matches the rows as multisets: by shape counts first, then a
// backtracking search for the blank node bijection.
func (m *matcher) bag(w, g [][]rdf.Term) error {
	byShape := map[string][]int{}
	for i, row := range g {
		k := shape(row)
		byShape[k] = append(byShape[k], i)
	}
	counts := map[string]int{}
	var pending []int // want rows with blank nodes
	for i, row := range w {
		k := shape(row)
		counts[k]++
		if counts[k] > len(byShape[k]) {
			return fmt.Errorf("want row %s, not found among the results (or found fewer times)", m.show(row))
		}
		if hasBlank(row) {
			pending = append(pending, i)
		}
	}
	for k, idx := range byShape {
		if counts[k] < len(idx) {
			return fmt.Errorf("unexpected row %s", m.show(g[idx[0]]))
		}
	}
	// Rows with fewer candidates first prune the search soonest.
	sort.SliceStable(pending, func(a, b int) bool {
		return len(byShape[shape(w[pending[a]])]) < len(byShape[shape(w[pending[b]])])
	})
	used := make([]bool, len(g))
	var search func(k int) bool
	search = func(k int) bool {
		if k == len(pending) {
			return true
		}
		m.steps++
		if m.steps > maxSearchSteps {
			return false
		}
		row := w[pending[k]]
		for _, j := range byShape[shape(row)] {
			if used[j] {
				continue
			}
			mark := len(m.trail)
			if m.unify(row, g[j]) {
				used[j] = true
				if search(k + 1) {
					return true
				}
				used[j] = false
				m.undo(mark)
			}
		}
		return false
	}
	if !search(0) {
		if m.steps > maxSearchSteps {
			return fmt.Errorf("undecided: blank node matching gave up after %d steps", maxSearchSteps)
		}
		return fmt.Errorf("no mapping between the blank nodes makes the rows match")
	}
	return nil
}

// show prints a row as ?var=term pairs.
func (m *matcher) show(row []rdf.Term) string {
	parts := make([]string, 0, len(row))
	for i, t := range row {
		if !t.IsZero() {
			parts = append(parts, "?"+m.vars[i]+"="+t.String())
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}
