package crawlrdf

import (
	"errors"
	"io"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// definedTerms returns every IRI that mneme.ttl declares with rdfs:isDefinedBy.
func definedTerms(t *testing.T) map[string]bool {
	t.Helper()
	defined := map[string]bool{}
	r := ontology.Reader()
	for {
		q, err := r.Next()
		if errors.Is(err, io.EOF) {
			return defined
		}
		if err != nil {
			t.Fatal(err)
		}
		if q.P.Value == ontology.RDFSIsDefinedBy {
			defined[q.S.Value] = true
		}
	}
}

// TestTermsAreInTheOntology: every predicate and class the crawl writes is
// declared in mneme.ttl, every quad is valid and lies in the crawl's graph.
func TestTermsAreInTheOntology(t *testing.T) {
	defined := definedTerms(t)
	start := time.Date(2026, 3, 14, 15, 9, 26, 535e6, time.UTC)
	cr := Crawl{ID: "c1", Seeds: []string{"http://example.org/"}, UserAgent: "mneme/0.1 (+https://example.org/)",
		Scope: "seed hosts", MaxHops: 3, MaxPages: 100, Version: "0.1", Started: start}
	capt := &Capture{IRI: "urn:uuid:5c003209-b442-4fce-b0fb-906d5e275c95", URL: "http://example.org/a", Time: start,
		Status: 200, MimeType: "text/html", Length: 512, Digest: "sha1:AAAA", WARCFile: "x.warc.gz", Offset: 1234,
		RecordID: "urn:uuid:5c003209-b442-4fce-b0fb-906d5e275c95", HopPath: "LE", Via: "urn:uuid:1",
		Duplicate: "urn:uuid:2", Links: []Link{{Target: "http://example.org/b", Text: "b", Hop: 'L'},
			{Target: "http://example.org/s.css", Hop: 'E'}, {Target: "http://example.org/x", Text: "x", Hop: 'X'}}}
	failed := &Capture{IRI: "urn:uuid:3", URL: "http://example.org/c", Time: start, Status: -2, Error: "connection refused", Length: -1}
	quads := append(cr.Quads(), Ended("c1", start))
	quads = capt.Quads("c1", quads)
	quads = failed.Quads("c1", quads)
	revisit := &Capture{IRI: "urn:uuid:4", URL: capt.URL, Time: start.Add(time.Hour), Status: 304, Length: -1,
		Change: ontology.StatusUnchanged, Previous: capt.IRI, Duplicate: capt.IRI,
		Schedule: &Schedule{Visits: 2, Versions: 1, Wait: 90*time.Minute + 1500*time.Microsecond, Overdue: 3 * time.Millisecond, Next: start.Add(150 * time.Minute)}}
	quads = revisit.Quads("c1", quads)
	kinds := map[string]bool{}
	for k := range HopKinds {
		kinds[HopKinds[k]] = true
	}
	for _, q := range quads {
		if err := q.Validate(); err != nil {
			t.Errorf("%v: %v", q, err)
		}
		if q.G != rdf.IRI(CrawlIRI("c1")) {
			t.Errorf("%v is not in the crawl's graph", q)
		}
		if !defined[q.P.Value] && q.P.Value != rdf.RDFType {
			t.Errorf("predicate %s is not in mneme.ttl", q.P.Value)
		}
		if q.P.Value == rdf.RDFType && !defined[q.O.Value] {
			t.Errorf("class %s is not in mneme.ttl", q.O.Value)
		}
		if q.P.Value == ontology.HopType && !kinds[q.O.Value] {
			t.Errorf("hop type %s is not a hop kind", q.O.Value)
		}
	}
	want := map[rdf.Quad]bool{
		{S: rdf.IRI(capt.IRI), P: rdf.IRI(ontology.HopType), O: rdf.IRI(ontology.HopEmbed), G: cr.Graph()}:                                           true,
		{S: rdf.IRI(capt.IRI), P: rdf.IRI(ontology.WARCOffset), O: rdf.Literal("1234", rdf.XSDInteger), G: cr.Graph()}:                               true,
		{S: rdf.IRI(capt.IRI), P: rdf.IRI(ontology.ProvGeneratedAtTime), O: rdf.Literal("2026-03-14T15:09:26.535Z", rdf.XSDDateTime), G: cr.Graph()}: true,
		{S: rdf.IRI(failed.IRI), P: rdf.IRI(ontology.ChangeStatus), O: rdf.IRI(ontology.StatusUnknown), G: cr.Graph()}:                               true,
		{S: rdf.IRI(capt.IRI), P: rdf.IRI(ontology.ChangeStatus), O: rdf.IRI(ontology.StatusNew), G: cr.Graph()}:                                     true,
		{S: rdf.IRI(revisit.IRI), P: rdf.IRI(ontology.ChangeStatus), O: rdf.IRI(ontology.StatusUnchanged), G: cr.Graph()}:                            true,
		{S: rdf.IRI(revisit.IRI), P: rdf.IRI(ontology.ProvWasRevisionOf), O: rdf.IRI(capt.IRI), G: cr.Graph()}:                                       true,
		{S: rdf.IRI(revisit.IRI), P: rdf.IRI(ontology.VisitCount), O: rdf.Literal("2", rdf.XSDInteger), G: cr.Graph()}:                               true,
		{S: rdf.IRI(revisit.IRI), P: rdf.IRI(ontology.VersionCount), O: rdf.Literal("1", rdf.XSDInteger), G: cr.Graph()}:                             true,
		{S: rdf.IRI(revisit.IRI), P: rdf.IRI(ontology.RevisitWait), O: rdf.Literal("5400.001", rdf.XSDDecimal), G: cr.Graph()}:                       true,
		{S: rdf.IRI(revisit.IRI), P: rdf.IRI(ontology.Overdue), O: rdf.Literal("0.003", rdf.XSDDecimal), G: cr.Graph()}:                              true,
		{S: rdf.IRI(revisit.IRI), P: rdf.IRI(ontology.NextVisit), O: rdf.Literal("2026-03-14T17:39:26.535Z", rdf.XSDDateTime), G: cr.Graph()}:        true,
		{S: rdf.IRI(capt.IRI), P: rdf.IRI(ontology.LinksTo), O: rdf.IRI("http://example.org/b"), G: cr.Graph()}:                                      true,
		{S: rdf.IRI("http://example.org/b"), P: rdf.IRI(ontology.LinkText), O: rdf.String("b"), G: cr.Graph()}:                                       true,
		{S: rdf.IRI(capt.IRI), P: rdf.IRI(ontology.Embeds), O: rdf.IRI("http://example.org/s.css"), G: cr.Graph()}:                                   true,
		{S: rdf.IRI(LinkIRI(capt.IRI, 2)), P: rdf.IRI(ontology.LinkSource), O: rdf.IRI(capt.IRI), G: cr.Graph()}:                                     true,
		{S: rdf.IRI(LinkIRI(capt.IRI, 2)), P: rdf.IRI(ontology.AnchorText), O: rdf.String("x"), G: cr.Graph()}:                                       true,
		{S: rdf.IRI(LinkIRI(capt.IRI, 2)), P: rdf.IRI(ontology.HopType), O: rdf.IRI(ontology.HopSpeculative), G: cr.Graph()}:                         true,
		{S: rdf.IRI(SpecIRI("c1")), P: rdf.IRI(ontology.MaxCaptures), O: rdf.Literal("100", rdf.XSDInteger), G: cr.Graph()}:                          true,
	}
	for _, q := range quads {
		delete(want, q)
	}
	for q := range want {
		t.Errorf("missing %v", q)
	}
	for _, q := range quads {
		if q.S.Value == LinkIRI(capt.IRI, 0) || q.S.Value == LinkIRI(capt.IRI, 1) {
			t.Errorf("a plain link or embed written as a node: %v", q)
		}
		if q.S.Value == failed.IRI && (q.P.Value == ontology.HTTPStatus || q.P.Value == ontology.ContentLength || q.P.Value == ontology.WARCFile) {
			t.Errorf("failed fetch described with %v", q)
		}
	}
}
