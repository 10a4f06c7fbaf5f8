package w3c

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/internal/testenv"
)

// TestLoadTurtleSuite reads the RDF 1.1 Turtle manifest: entries, types,
// files and the assumed test base.
func TestLoadTurtleSuite(t *testing.T) {
	path := testenv.Path(t, "data", "rdf-tests", "rdf", "rdf11", "rdf-turtle", "manifest.ttl")
	m, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if m.AssumedTestBase != "https://w3c.github.io/rdf-tests/rdf/rdf11/rdf-turtle/" {
		t.Errorf("AssumedTestBase = %q", m.AssumedTestBase)
	}
	byType := map[string]int{}
	var subject *Test
	for _, tc := range m.AllTests() {
		byType[tc.TypeName()]++
		if tc.Name == "IRI_subject" {
			subject = tc
		}
	}
	// Counts of the suite at the commit in SOURCE.txt.
	want := map[string]int{"TestTurtleEval": 145, "TestTurtlePositiveSyntax": 74, "TestTurtleNegativeSyntax": 94}
	for k, n := range want {
		if byType[k] != n {
			t.Errorf("%d tests of type %s, want %d (all: %v)", byType[k], k, n, byType)
		}
	}
	if subject == nil {
		t.Fatal("test IRI_subject missing")
	}
	if !strings.HasSuffix(subject.Action.Path(), "/rdf-turtle/IRI_subject.ttl") || !strings.HasSuffix(subject.Result.Path(), "/rdf-turtle/IRI_spo.nt") {
		t.Errorf("action %q result %q", subject.Action.Path(), subject.Result.Path())
	}
	if got := m.Base(subject.Action); got != "https://w3c.github.io/rdf-tests/rdf/rdf11/rdf-turtle/IRI_subject.ttl" {
		t.Errorf("Base = %q", got)
	}
	if !subject.Approved() || subject.IRI() != fileIRI(path)+"#IRI_subject" {
		t.Errorf("approval %q, IRI %q", subject.Approval, subject.IRI())
	}
}

// TestLoadSPARQLIncludes follows mf:include through the SPARQL 1.1
// manifests and reads the structured actions of query and update tests.
func TestLoadSPARQLIncludes(t *testing.T) {
	path := testenv.Path(t, "data", "rdf-tests", "sparql", "sparql11", "manifest-sparql11-query.ttl")
	m, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Includes) < 10 {
		t.Fatalf("%d included manifests", len(m.Includes))
	}
	var agg01 *Test
	n := 0
	for _, tc := range m.AllTests() {
		n++
		if strings.HasSuffix(tc.IRI(), "aggregates/manifest#agg01") {
			agg01 = tc
		}
	}
	if agg01 == nil {
		t.Fatalf("agg01 not among %d tests", n)
	}
	if agg01.Type != MF+"QueryEvaluationTest" || !strings.HasSuffix(agg01.Action.Get(QT+"query").Path(), "aggregates/agg01.rq") ||
		!strings.HasSuffix(agg01.Action.Get(QT+"data").Path(), "aggregates/agg01.ttl") || !strings.HasSuffix(agg01.Result.Path(), "agg01.srx") {
		t.Errorf("agg01: type %s, query %v, data %v, result %v", agg01.Type, agg01.Action.Get(QT+"query").Term, agg01.Action.Get(QT+"data").Term, agg01.Result.Term)
	}

	up, err := Load(testenv.Path(t, "data", "rdf-tests", "sparql", "sparql11", "add", "manifest.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	add03 := up.Tests[2]
	gd := add03.Action.All(UT + "graphData")
	if len(gd) != 2 || gd[1].Text(RDFS+"label") != "http://example.org/g2" || !strings.HasSuffix(gd[1].Get(UT+"graph").Path(), "add-02-pre.ttl") {
		t.Errorf("add03 graphData: %d entries %v", len(gd), gd)
	}
	if add03.Approval != DAWGT+"Approved" {
		t.Errorf("add03 approval %q", add03.Approval)
	}
}

// TestLoadBlankManifest reads a SPARQL 1.0 manifest whose manifest
// resource is a blank node rather than the document.
func TestLoadBlankManifest(t *testing.T) {
	m, err := Load(testenv.Path(t, "data", "rdf-tests", "sparql", "sparql10", "construct", "manifest.ttl"))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Term.IsBlank() || len(m.Tests) == 0 {
		t.Fatalf("manifest node %v with %d tests", m.Term, len(m.Tests))
	}
	for _, tc := range m.Tests {
		if tc.Action.Get(QT+"query").Path() == "" {
			t.Errorf("%s: no qt:query file", tc.Name)
		}
	}
}
