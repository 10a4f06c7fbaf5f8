package results_test

import (
	"bytes"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/results"
	"github.com/mneme-archive/mneme/sparql/results/resultstest"
)

// sample has every kind of term, awkward characters and unbound values.
func sample() *results.Results {
	return &results.Results{
		Vars: []string{"s", "o", "n"},
		Rows: [][]rdf.Term{
			{rdf.IRI("http://example.org/a?x=1&y=<2>"), rdf.String("tab\there, \"quoted\"\nnew line"), rdf.Literal("42", rdf.XSDInteger)},
			{rdf.Blank("b0"), rdf.LangLiteral("chat", "fr-BE"), rdf.Term{}},
			{rdf.Term{}, rdf.Literal("5,5", "http://example.org/dt"), rdf.Literal("1.0e6", rdf.XSDDouble)},
			{rdf.IRI("http://example.org/é"), rdf.String("ünïcödé \u2028 <&>"), rdf.Literal("-2.5", rdf.XSDDecimal)},
			{rdf.Blank("b1"), rdf.Literal("true", rdf.XSDBoolean), rdf.Literal("01", rdf.XSDInteger)},
		},
	}
}

func roundTrip(t *testing.T, f results.Format, r *results.Results) *results.Results {
	t.Helper()
	var buf bytes.Buffer
	if err := results.Write(&buf, f, r); err != nil {
		t.Fatalf("%v write: %v", f, err)
	}
	got, err := results.Read(&buf, f, "mem."+f.String())
	if err != nil {
		t.Fatalf("%v read: %v\n%s", f, err, buf.String())
	}
	return got
}

func TestRoundTripLossless(t *testing.T) {
	for _, f := range []results.Format{results.JSON, results.XML, results.TSV} {
		want := sample()
		got := roundTrip(t, f, want)
		if err := resultstest.Equivalent(want, got, resultstest.CompareOptions{Ordered: true}); err != nil {
			t.Errorf("%v: %v", f, err)
		}
		// Exactly the same labels and terms, not only up to renaming.
		for i := range want.Rows {
			for j := range want.Rows[i] {
				if want.Rows[i][j] != got.Rows[i][j] {
					t.Errorf("%v row %d col %d: got %v, want %v", f, i, j, got.Rows[i][j], want.Rows[i][j])
				}
			}
		}
		for _, b := range []bool{true, false} {
			got := roundTrip(t, f, &results.Results{Ask: true, Boolean: b})
			if !got.Ask || got.Boolean != b {
				t.Errorf("%v: ASK %v read back as %+v", f, b, got)
			}
		}
	}
}

func TestRoundTripCSV(t *testing.T) {
	want := sample()
	got := roundTrip(t, results.CSV, want)
	if err := resultstest.Equivalent(results.CSVTerms(want), got, resultstest.CompareOptions{Ordered: true}); err != nil {
		t.Error(err)
	}
	if err := resultstest.Equivalent(want, got, resultstest.CompareOptions{}); err == nil {
		t.Error("results.CSV read back kept IRIs and datatypes, which it cannot")
	}
}
