package ontology

import (
	"errors"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/mneme-archive/mneme/rdf"
)

// constsByDir keeps what stringConsts found, since type-checking from
// source (standard library included) takes a few seconds.
var constsByDir = map[string]map[string]string{}

// stringConsts type-checks the non-test Go files of dir and returns the
// value of every package-level string constant by name. Reading the
// source, rather than a hand-kept table, is what keeps a newly added
// constant from escaping the checks below.
func stringConsts(t *testing.T, dir string) map[string]string {
	t.Helper()
	if consts, ok := constsByDir[dir]; ok {
		return consts
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(dir, fset, files, nil)
	if err != nil {
		t.Fatalf("type-checking %s: %v", dir, err)
	}
	consts := map[string]string{}
	for _, name := range pkg.Scope().Names() {
		c, ok := pkg.Scope().Lookup(name).(*types.Const)
		if !ok || c.Val().Kind() != constant.String {
			continue
		}
		consts[name] = constant.StringVal(c.Val())
	}
	constsByDir[dir] = consts
	return consts
}

// namespace is one vocabulary whose namespace constant is declared in Go.
type namespace struct {
	prefix string // Go name of the namespace constant without "NS"
	iri    string
	reused bool // a vocabulary whose terms mneme writes into its data
}

// term is a Go constant naming one term of a vocabulary.
type term struct {
	name  string
	iri   string
	local string
	ns    namespace
}

// vocabulary sorts the package's string constants into namespaces and
// terms; any constant that is neither fails the test.
type vocabulary struct {
	namespaces []namespace
	terms      []term
	byIRI      map[string]term
}

func loadVocabulary(t *testing.T) vocabulary {
	t.Helper()
	consts := stringConsts(t, ".")
	var v vocabulary
	for name, val := range consts {
		if p, ok := strings.CutSuffix(name, "NS"); ok {
			if !strings.HasSuffix(val, "#") && !strings.HasSuffix(val, "/") {
				t.Errorf("namespace %s = %q ends neither in # nor in /", name, val)
			}
			reused := val != MnemeNS && val != RDFSNS && val != OWLNS
			v.namespaces = append(v.namespaces, namespace{prefix: p, iri: val, reused: reused})
		}
	}
	v.byIRI = map[string]term{}
	for name, val := range consts {
		if strings.HasSuffix(name, "NS") || name == "OntologyIRI" || name == "Version" {
			continue
		}
		var ns namespace
		for _, n := range v.namespaces {
			if strings.HasPrefix(val, n.iri) && len(n.iri) > len(ns.iri) {
				ns = n
			}
		}
		if ns.iri == "" {
			t.Errorf("constant %s = %q lies in no namespace declared in Go", name, val)
			continue
		}
		tm := term{name: name, iri: val, local: strings.TrimPrefix(val, ns.iri), ns: ns}
		if prev, dup := v.byIRI[val]; dup {
			t.Errorf("constants %s and %s both name %s", prev.name, name, val)
			continue
		}
		// The Go name is the namespace's Go prefix (none for mneme) and the
		// local name, underscores dropped, so that a term's constant can be
		// found from its IRI and no constant hides a different term.
		prefix := ns.prefix
		if ns.iri == MnemeNS {
			prefix = ""
		}
		want := strings.ReplaceAll(tm.local, "_", "")
		got, ok := strings.CutPrefix(name, prefix)
		if !ok || !strings.EqualFold(got, want) {
			t.Errorf("constant %s names %s: want a name like %s%s", name, val, prefix, want)
		}
		v.byIRI[val] = tm
		v.terms = append(v.terms, tm)
	}
	sort.Slice(v.terms, func(i, j int) bool { return v.terms[i].iri < v.terms[j].iri })
	return v
}

// graph indexes the triples of mneme.ttl by subject and predicate.
type graph map[string]map[string][]rdf.Term

func loadGraph(t *testing.T) graph {
	t.Helper()
	r := Reader()
	g := graph{}
	for {
		q, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		q = q.Clone()
		if !q.S.IsIRI() {
			t.Errorf("mneme.ttl: blank-node subject in %s", q)
			continue
		}
		if g[q.S.Value] == nil {
			g[q.S.Value] = map[string][]rdf.Term{}
		}
		g[q.S.Value][q.P.Value] = append(g[q.S.Value][q.P.Value], q.O)
	}
	if len(g) == 0 {
		t.Fatal("mneme.ttl holds no triples")
	}
	return g
}

func (g graph) has(s, p, o string) bool {
	for _, t := range g[s][p] {
		if t.IsIRI() && t.Value == o {
			return true
		}
	}
	return false
}

// iris returns every IRI of the graph, in any position.
func (g graph) iris() map[string]bool {
	seen := map[string]bool{}
	for s, props := range g {
		seen[s] = true
		for p, objs := range props {
			seen[p] = true
			for _, o := range objs {
				if o.IsIRI() {
					seen[o.Value] = true
				}
			}
		}
	}
	return seen
}

func TestOntologyHeader(t *testing.T) {
	g := loadGraph(t)
	if !g.has(OntologyIRI, rdf.RDFType, OWLOntology) {
		t.Errorf("mneme.ttl does not declare <%s> a owl:Ontology", OntologyIRI)
	}
	versions := g[OntologyIRI][OWLVersionInfo]
	if len(versions) != 1 || versions[0].Value != Version {
		t.Errorf("owl:versionInfo of <%s> is %v, want exactly %q (ontology.Version)", OntologyIRI, versions, Version)
	}
}

// TestMnemeTermsDefined: every mneme: constant is defined in mneme.ttl with
// a type, an English label and comment, and rdfs:isDefinedBy the ontology.
func TestMnemeTermsDefined(t *testing.T) {
	v := loadVocabulary(t)
	g := loadGraph(t)
	n := 0
	for _, tm := range v.terms {
		if tm.ns.iri != MnemeNS {
			continue
		}
		n++
		props := g[tm.iri]
		if props == nil {
			t.Errorf("%s (mneme:%s) is not defined in mneme.ttl", tm.name, tm.local)
			continue
		}
		property := unicode.IsLower([]rune(tm.local)[0])
		switch {
		case property && !g.has(tm.iri, rdf.RDFType, OWLObjectProperty) && !g.has(tm.iri, rdf.RDFType, OWLDatatypeProperty):
			t.Errorf("mneme:%s starts in lower case but is not typed owl:ObjectProperty or owl:DatatypeProperty", tm.local)
		case !property && !g.has(tm.iri, rdf.RDFType, OWLClass) && !g.has(tm.iri, rdf.RDFType, OWLNamedIndividual):
			t.Errorf("mneme:%s starts in upper case but is not typed owl:Class or owl:NamedIndividual", tm.local)
		}
		for _, p := range []string{RDFSLabel, RDFSComment} {
			if !hasEnglish(props[p]) {
				t.Errorf("mneme:%s has no non-empty English %s", tm.local, p)
			}
		}
		if !g.has(tm.iri, RDFSIsDefinedBy, OntologyIRI) {
			t.Errorf("mneme:%s lacks rdfs:isDefinedBy <%s>", tm.local, OntologyIRI)
		}
	}
	if n == 0 {
		t.Fatal("no mneme: constants found in the package source")
	}
}

func hasEnglish(objs []rdf.Term) bool {
	for _, o := range objs {
		if o.IsLiteral() && o.Lang == "en" && strings.TrimSpace(o.Value) != "" {
			return true
		}
	}
	return false
}

// TestTurtleTermsHaveConstants: every IRI mneme.ttl mentions, in any
// position, has a Go constant: mneme: and reused terms in this package,
// RDF and XSD terms in package rdf. Together with TestMnemeTermsDefined
// this makes Go and Turtle name the same mneme: terms.
func TestTurtleTermsHaveConstants(t *testing.T) {
	v := loadVocabulary(t)
	g := loadGraph(t)
	known := map[string]bool{OntologyIRI: true}
	for _, n := range v.namespaces {
		known[n.iri] = true
	}
	for iri := range v.byIRI {
		known[iri] = true
	}
	for _, val := range stringConsts(t, filepath.Join("..", "rdf")) {
		known[val] = true
	}
	var missing []string
	for iri := range g.iris() {
		if !known[iri] {
			missing = append(missing, iri)
		}
	}
	sort.Strings(missing)
	for _, iri := range missing {
		t.Errorf("mneme.ttl mentions <%s>, which has no Go constant", iri)
	}
}

// TestReusedTermsDeclared: every constant of a reused vocabulary is listed
// in mneme.ttl with rdfs:isDefinedBy its namespace, and every RDFS or OWL
// constant is used there; an unused constant would be a term mneme claims
// to write without the vocabulary file saying so.
func TestReusedTermsDeclared(t *testing.T) {
	v := loadVocabulary(t)
	g := loadGraph(t)
	used := g.iris()
	for _, tm := range v.terms {
		switch {
		case tm.ns.iri == MnemeNS:
		case tm.ns.reused:
			if !g.has(tm.iri, RDFSIsDefinedBy, tm.ns.iri) {
				t.Errorf("%s: mneme.ttl lacks <%s> rdfs:isDefinedBy <%s>", tm.name, tm.iri, tm.ns.iri)
			}
		case !used[tm.iri]:
			t.Errorf("%s: <%s> is not used in mneme.ttl", tm.name, tm.iri)
		}
	}
}

// TestDefinedByMatchesNamespace: rdfs:isDefinedBy points each term to the
// vocabulary its IRI lies in, so a term filed under the wrong vocabulary
// (or a misspelt namespace) is caught.
func TestDefinedByMatchesNamespace(t *testing.T) {
	g := loadGraph(t)
	for s, props := range g {
		for _, o := range props[RDFSIsDefinedBy] {
			want := o.Value
			if want == OntologyIRI {
				want = MnemeNS
			}
			if !strings.HasPrefix(s, want) || s == want {
				t.Errorf("<%s> rdfs:isDefinedBy <%s>: the term does not lie in that vocabulary", s, o.Value)
			}
		}
	}
}

// TestHopCodes: the hop kinds carry distinct one-letter codes, the letters
// hop paths are made of.
func TestHopCodes(t *testing.T) {
	g := loadGraph(t)
	seen := map[string]string{}
	for s := range g {
		if !g.has(s, rdf.RDFType, HopKind) {
			continue
		}
		codes := g[s][HopCode]
		if len(codes) != 1 || !codes[0].IsLiteral() || len([]rune(codes[0].Value)) != 1 {
			t.Errorf("<%s> needs exactly one one-letter mneme:hopCode, has %v", s, codes)
			continue
		}
		c := codes[0].Value
		if prev, dup := seen[c]; dup {
			t.Errorf("hop code %q used by both <%s> and <%s>", c, prev, s)
		}
		seen[c] = s
	}
	for _, kind := range []string{HopLink, HopEmbed, HopRedirect, HopPrerequisite, HopSpeculative, HopInferred} {
		if _, ok := g[kind]; !ok || !g.has(kind, rdf.RDFType, HopKind) {
			t.Errorf("<%s> is not typed mneme:HopKind", kind)
		}
	}
}
