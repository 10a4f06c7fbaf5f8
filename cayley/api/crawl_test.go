package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// crawlStore fills a fresh store with quads shaped like a few crawls of
// a few sites (docs/data-model.md): one named graph per crawl; captures
// of the same URLs over time, each a revision of the one before; links
// between pages of different sites; blog posts with authors, containers,
// titles in a language, and comments. The generator is seeded, so that a
// failure can be replayed, and sized so that the answers compared are
// not trivial.
func crawlStore(t testing.TB, seed uint64) *graph.Store {
	t.Helper()
	s, err := graph.Open(t.TempDir(), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	r := rand.New(rand.NewPCG(seed, 1))
	const sites, pages, crawls, authors = 4, 30, 3, 6
	iri := rdf.IRI
	page := func(si, p int) string { return fmt.Sprintf("http://site%d.example/p%d", si, p) }
	b := s.NewBatch()
	last := map[string]string{} // URL -> its latest capture
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n := 0
	for c := range crawls {
		crawl := fmt.Sprintf("urn:mneme:crawl:c%d", c)
		g := iri(crawl)
		add := func(s, p string, o rdf.Term) { b.Add(rdf.Quad{S: iri(s), P: iri(p), O: o, G: g}) }
		add(crawl, rdf.RDFType, iri(ontology.Crawl))
		for si := range sites {
			for p := range pages {
				if r.IntN(3) == 0 && c > 0 { // not every page in every crawl
					continue
				}
				u := page(si, p)
				n++
				capt := fmt.Sprintf("urn:uuid:00000000-0000-0000-0000-%012d", n)
				add(capt, rdf.RDFType, iri(ontology.Capture))
				add(capt, ontology.URL, iri(u))
				add(capt, ontology.ProvWasGeneratedBy, iri(crawl))
				add(capt, ontology.ProvGeneratedAtTime, rdf.Literal(start.Add(time.Duration(n)*time.Minute).Format(time.RFC3339), rdf.XSDDateTime))
				status := "200"
				if r.IntN(10) == 0 {
					status = "404"
				}
				add(capt, ontology.HTTPStatus, rdf.Literal(status, rdf.XSDInteger))
				if prev, ok := last[u]; ok {
					add(capt, ontology.ProvWasRevisionOf, iri(prev))
				}
				last[u] = capt
				for range r.IntN(4) {
					to := page(r.IntN(sites), r.IntN(pages))
					add(capt, ontology.LinksTo, iri(to))
					add(to, ontology.LinkText, rdf.String(fmt.Sprintf("page %d", r.IntN(5))))
				}
				if p%3 == 0 { // a blog post
					post := u + "#post"
					add(post, rdf.RDFType, iri(ontology.SIOCPost))
					add(post, ontology.ProvWasDerivedFrom, iri(capt))
					add(post, ontology.SIOCHasCreator, iri(fmt.Sprintf("http://site%d.example/author/%d", si, p%authors)))
					add(post, ontology.SIOCHasContainer, iri(fmt.Sprintf("http://site%d.example/blog", si)))
					add(post, ontology.DCTermsTitle, rdf.LangLiteral(fmt.Sprintf("Post %d of site %d", p, si), "en"))
					if p%2 == 0 {
						cm := u + "#comment-1"
						add(cm, rdf.RDFType, iri(ontology.SIOCTComment))
						add(cm, ontology.SIOCReplyOf, iri(post))
					}
				}
			}
		}
		for a := range authors {
			for si := range sites {
				acc := fmt.Sprintf("http://site%d.example/author/%d", si, a)
				add(acc, rdf.RDFType, iri(ontology.SIOCUserAccount))
				add(acc, ontology.SIOCName, rdf.String(fmt.Sprintf("author %d", a)))
			}
		}
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}
