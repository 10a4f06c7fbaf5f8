package w3c

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// Vocabulary namespaces of the W3C test manifests.
const (
	MF    = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#"
	QT    = "http://www.w3.org/2001/sw/DataAccess/tests/test-query#"
	UT    = "http://www.w3.org/2009/sparql/tests/test-update#"
	RDFT  = "http://www.w3.org/ns/rdftest#"
	DAWGT = "http://www.w3.org/2001/sw/DataAccess/tests/test-dawg#"
	RDFS  = "http://www.w3.org/2000/01/rdf-schema#"
)

// Manifest is one loaded manifest file: its own tests in mf:entries order
// and the manifests it pulls in with mf:include.
type Manifest struct {
	Node            // the manifest resource (<> in the file)
	Path     string // local file
	Label    string // rdfs:label
	Tests    []*Test
	Includes []*Manifest
	// AssumedTestBase is the IRI the suite's files are published under
	// (mf:assumedTestBase), inherited from an including manifest when the
	// file has none; "" when neither says. Eval tests resolve relative
	// IRIs against it, not against the local path.
	AssumedTestBase string
}

// Test is one manifest entry. Its Node gives every property generically;
// the fields are the common ones.
type Test struct {
	Node
	Manifest *Manifest
	Name     string // mf:name
	Comment  string // rdfs:comment
	Type     string // rdf:type IRI, e.g. RDFT+"TestTurtleEval", MF+"QueryEvaluationTest"
	// Approval is the rdft:approval or dawgt:approval IRI, "" if none.
	Approval string
	// Action and Result are mf:action and mf:result: a file IRI for the
	// RDF suites, a blank node with qt:/ut: properties for SPARQL ones.
	Action, Result Node
}

// IRI returns the test's IRI (its entry in the manifest).
func (t *Test) IRI() string { return t.Term.Value }

// TypeName returns the local name of the test type ("TestTurtleEval").
func (t *Test) TypeName() string {
	if i := strings.LastIndexAny(t.Type, "#/"); i >= 0 {
		return t.Type[i+1:]
	}
	return t.Type
}

// Approved reports whether the test is approved (rdft:Approved or
// dawgt:Approved); tests with no approval status count as approved.
func (t *Test) Approved() bool {
	return t.Approval == "" || t.Approval == RDFT+"Approved" || t.Approval == DAWGT+"Approved"
}

// Base returns the base IRI a file of the suite is parsed with: n's IRI
// moved from the local folder to the manifest's AssumedTestBase, or n's
// own (file:) IRI when the manifest assumes none.
func (m *Manifest) Base(n Node) string {
	dir := fileIRI(filepath.Dir(m.Path)) + "/"
	if m.AssumedTestBase != "" && strings.HasPrefix(n.Term.Value, dir) {
		return m.AssumedTestBase + strings.TrimPrefix(n.Term.Value, dir)
	}
	return n.Term.Value
}

// AllTests returns the tests of m and of its included manifests, depth
// first in document order.
func (m *Manifest) AllTests() []*Test {
	out := append([]*Test(nil), m.Tests...)
	for _, inc := range m.Includes {
		out = append(out, inc.AllTests()...)
	}
	return out
}

// build reads the manifest resource of g (the document IRI of path) into
// a Manifest; includes are loaded by the caller.
func build(path string, g *Graph, inheritedBase string) (*Manifest, error) {
	m := &Manifest{Node: g.Node(rdf.IRI(fileIRI(path))), Path: path}
	if m.Predicates() == nil {
		// Some SPARQL 1.0 manifests describe a blank node: [] a mf:Manifest.
		typed := g.subjects(rdf.RDFType, rdf.IRI(MF+"Manifest"))
		if len(typed) != 1 {
			return nil, fmt.Errorf("%s: no statements about the manifest <%s> and %d resources of type mf:Manifest", path, m.Term.Value, len(typed))
		}
		m.Node = typed[0]
	}
	m.Label = m.Text(RDFS + "label")
	m.AssumedTestBase = m.Text(MF + "assumedTestBase")
	if m.AssumedTestBase == "" {
		m.AssumedTestBase = inheritedBase
	}
	for _, list := range m.All(MF + "entries") {
		for _, e := range list.List() {
			t := &Test{
				Node:     e,
				Manifest: m,
				Name:     e.Text(MF + "name"),
				Comment:  e.Text(RDFS + "comment"),
				Type:     e.Text(rdf.RDFType),
				Action:   e.Get(MF + "action"),
				Result:   e.Get(MF + "result"),
			}
			t.Approval = e.Text(RDFT + "approval")
			if t.Approval == "" {
				t.Approval = e.Text(DAWGT + "approval")
			}
			if t.Type == "" {
				return nil, fmt.Errorf("%s: entry %s has no rdf:type", path, e.Term)
			}
			m.Tests = append(m.Tests, t)
		}
	}
	return m, nil
}
