package expr

import (
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// Typical filters over integers and strings must not allocate per row.
func TestFilterAllocs(t *testing.T) {
	scope := NewScope("x", "s")
	e, err := Compile(parseExpr(t, `?x + 1 > 5 && STRSTARTS(?s, "a") && ?x * 2 != 7 && ?x IN (1, 2, 9) && REGEX(?s, "^A", "i")`), scope)
	if err != nil {
		t.Fatal(err)
	}
	c := newTestContext()
	// Converted once: a slice stored in an interface is boxed.
	var row Binding = Row{rdf.Literal("9", rdf.XSDInteger), rdf.String("abc")}
	allocs := testing.AllocsPerRun(100, func() {
		if ok, err := e.EBV(c, row); !ok || err != nil {
			t.Fatalf("EBV = %v, %v", ok, err)
		}
	})
	if allocs != 0 {
		t.Errorf("filter allocates %.1f times per row", allocs)
	}
}

func BenchmarkFilter(b *testing.B) {
	scope := NewScope("x", "s")
	e, err := Compile(parseExpr(b, `?x + 1 > 5 && STRSTARTS(?s, "a")`), scope)
	if err != nil {
		b.Fatal(err)
	}
	c := newTestContext()
	var row Binding = Row{rdf.Literal("9", rdf.XSDInteger), rdf.String("abc")}
	for b.Loop() {
		_, _ = e.EBV(c, row)
	}
}
