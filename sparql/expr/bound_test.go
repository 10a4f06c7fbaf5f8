package expr

import (
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// idRow stands for a row of store IDs: Bound answers from the IDs, and
// Value counts the terms it has to decode.
type idRow struct {
	ids     []uint64
	decoded int
}

func (r *idRow) Bound(slot int) bool { return slot < len(r.ids) && r.ids[slot] != 0 }

func (r *idRow) Value(slot int) rdf.Term {
	if !r.Bound(slot) {
		return rdf.Term{}
	}
	r.decoded++
	return rdf.IRI("http://example.org/t")
}

// TestBoundDecodesNothing checks that BOUND, alone or under ! and ||,
// answers from a Bounder without producing the variable's value, and
// gives the same answer as from the value.
func TestBoundDecodesNothing(t *testing.T) {
	scope := NewScope("a", "b")
	for _, c := range []struct {
		src  string
		ids  []uint64
		want bool
	}{
		{"BOUND(?a)", []uint64{5, 0}, true},
		{"BOUND(?b)", []uint64{5, 0}, false},
		{"!BOUND(?b)", []uint64{5, 0}, true},
		{"!BOUND(?a) || BOUND(?b)", []uint64{5, 7}, true},
		{"!BOUND(?a) || BOUND(?b)", []uint64{5, 0}, false},
	} {
		e, err := Compile(parseExpr(t, c.src), scope)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		r := &idRow{ids: c.ids}
		got, err := e.EBV(newTestContext(), r)
		if err != nil || got != c.want {
			t.Errorf("%s on %v = %v, %v; want %v", c.src, c.ids, got, err, c.want)
		}
		if r.decoded != 0 {
			t.Errorf("%s decoded %d terms", c.src, r.decoded)
		}
		// The same expression over the decoded terms agrees.
		terms := make(Row, len(c.ids))
		for i := range c.ids {
			terms[i] = r.Value(i)
		}
		if got, err := e.EBV(newTestContext(), terms); err != nil || got != c.want {
			t.Errorf("%s on terms = %v, %v; want %v", c.src, got, err, c.want)
		}
	}
}
