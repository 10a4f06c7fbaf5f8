package analysis

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// TestBadTexts analyses a crawl whose texts include the bad input of the
// field — empty texts, a 10 MB one, one in two languages — among ordinary
// posts: the job goes on, each bad text is analysed or skipped with its
// reason logged and stated in the graph, and the ordinary posts are
// analysed as usual. (The store refuses literals of invalid UTF-8, so
// such text reaches the analysis only from the pages of WARC files:
// TestAnalyzePlainPages in cmd/mneme has one.)
func TestBadTexts(t *testing.T) {
	c := gencorpus.Generate(gencorpus.Config{Seed: 9, Crawls: 1, PostsPerCrawl: 6})
	st := loadCorpus(t, c)
	cr := c.Crawls[0]
	// A long page: a report, names now and then.
	para := "Maria Keller met Peter Novak in Lisbon to discuss the harbour. The cargo terminal grew again this year, " +
		"and the ferries ran late on most days of the winter. The port authority published the figures of every quarter, " +
		"which showed more containers, fewer bulk carriers and a steady number of passengers. Nobody expected the cranes " +
		"to be replaced so soon, but the old ones had worked for forty years. The dock workers asked for new shifts. "
	huge := strings.Repeat(para, 10<<20/len(para)+1)
	bad := []struct{ name, text, reason string }{
		{"empty", "", "empty text"},
		{"blank", " \n\t ", "empty text"},
		{"huge", huge, "only the first"},
		{"mixed", "Maria Keller met Peter Novak in Lisbon to discuss the harbour and its cargo. " +
			"Der Hafen von Hamburg ist der größte Hafen Deutschlands und wächst jedes Jahr weiter.", "mixed languages: de, en"},
	}
	g := rdf.IRI(CrawlIRI(cr.ID))
	b := st.NewBatch()
	for i, x := range bad {
		capt := rdf.IRI(fmt.Sprintf("urn:uuid:00000000-0000-4000-8000-%012d", i))
		o := rdf.IRI("http://blog.example/bad/" + x.name)
		b.Add(rdf.Quad{S: capt, P: rdf.IRI(rdf.RDFType), O: rdf.IRI(ontology.Capture), G: g})
		b.Add(rdf.Quad{S: o, P: rdf.IRI(ontology.ProvWasDerivedFrom), O: capt, G: g})
		b.Add(rdf.Quad{S: o, P: rdf.IRI(ontology.SIOCContent), O: rdf.String(x.text), G: g})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	rep, err := Run(context.Background(), Options{Store: st, Crawl: cr.ID, Log: &log})
	if err != nil {
		t.Fatalf("the job stopped: %v", err)
	}
	if want := len(cr.Texts) + len(bad); rep.Texts != want {
		t.Errorf("%d texts analysed, want %d", rep.Texts, want)
	}
	mentions := map[string]int{}
	for _, r := range rows(t, st, `SELECT ?o (COUNT(?m) AS ?n) WHERE { GRAPH <`+GraphIRI(cr.ID)+`> { ?m mneme:inObject ?o } } GROUP BY ?o`) {
		var n int
		fmt.Sscan(r[1], &n)
		mentions[r[0]] = n
	}
	for _, x := range bad {
		o := "http://blog.example/bad/" + x.name
		reasons := rows(t, st, `SELECT ?r WHERE { GRAPH <`+GraphIRI(cr.ID)+`> { <`+o+`> mneme:skipReason ?r } }`)
		var rs []string
		for _, r := range reasons {
			rs = append(rs, r[0])
		}
		if !strings.Contains(strings.Join(rs, "; "), x.reason) {
			t.Errorf("%s: reasons %q in the graph, want one with %q", x.name, rs, x.reason)
		}
		if !strings.Contains(log.String(), o+": "+x.reason) {
			t.Errorf("%s: no logged reason with %q in:\n%s", x.name, x.reason, log.String())
		}
		if empty := x.name == "empty" || x.name == "blank"; empty != (mentions[o] == 0) {
			t.Errorf("%s: %d mentions", x.name, mentions[o])
		}
	}
	found := 0
	for _, tx := range cr.Texts {
		if len(tx.Mentions) > 0 && mentions[tx.IRI] > 0 {
			found++
		}
	}
	if found == 0 {
		t.Error("the ordinary posts got no mentions")
	}
}
