package focus

import (
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// Crawl is the focus analysis of one crawl: a crawler.Focuser whose
// scorer keeps its explanations in the crawl's folder (focus/) and whose
// topic is stored in the crawl's graph.
type Crawl struct {
	*Scorer
	c     *crawler.Crawl
	store *graph.Store

	topicMu   sync.Mutex
	storedGen int        // the topic generation in the store
	stored    []rdf.Quad // what storeTopic wrote last

	analysed pageSet // pages analysed: links to them are not
}

// Open is a crawler.FocusFunc: the focus analysis of crawl c, whose spec
// has a focus section. Example files are read relative to the working
// folder.
func Open(c *crawler.Crawl, store *graph.Store) (crawler.Focuser, error) {
	s := c.Spec()
	sc, err := New(Options{Focus: s.Focus, Store: filepath.Join(c.Dir(), "focus"), Update: s.UpdateFunc()})
	if err != nil {
		return nil, err
	}
	fc := &Crawl{Scorer: sc, c: c, store: store}
	if err := fc.storeTopic(); err != nil {
		sc.Close()
		return nil, err
	}
	return fc, nil
}

// Focus implements crawler.Focuser.
func (fc *Crawl) Focus(p crawler.Page, an *crawler.Analysis) []float64 {
	var content string
	switch {
	case len(an.Content) > 0:
		content = strings.Join(an.Content, "\n")
	case extract.IsHTML(p.MediaType):
		content = extract.ContentText(p.Body)
	case strings.HasPrefix(p.MediaType, "text/plain"):
		content = string(p.Body[:min(len(p.Body), extract.MaxContent)])
	}
	fc.analysed.add(p.URL.Canonical)
	links, at := fc.toAnalyse(an.Follow)
	res, scores, err := fc.Score(p.URL, content, links)
	if err != nil {
		// The explanations could not be kept: the scores stand all the same.
		fmt.Fprintf(fc.c.Log(), "focus: %s: %v\n", p.URL.Href, err)
	}
	if err := fc.storeTopic(); err != nil {
		fmt.Fprintf(fc.c.Log(), "focus: storing the topic: %v\n", err)
	}
	follow := make([]extract.Outlink, 0, len(scores))
	kept := make([]float64, 0, len(scores))
	for i, s := range scores {
		if !math.IsNaN(s) {
			follow = append(follow, an.Follow[at[i]])
			kept = append(kept, s)
		}
	}
	an.Follow = follow
	if res.Analyzed {
		inner := an.Quads
		an.Quads = func(capture, g rdf.Term) []rdf.Quad {
			var qs []rdf.Quad
			if inner != nil {
				qs = inner(capture, g)
			}
			return append(qs, relevanceQuads(capture, g, res)...)
		}
	}
	return kept
}

// toAnalyse returns the links of follow to analyse, and the index in
// follow of each. A page analysed was fetched: its URL's state in the
// frontier is final (a sighting changes only queued URLs' scores), so the
// links to it are decided before any analysis, and dropped: a page's
// links to itself, and on most pages of a site its navigation's. Links
// of other kinds than Link (embeds, redirects) are kept as they are.
func (fc *Crawl) toAnalyse(follow []extract.Outlink) ([]Link, []int) {
	links := make([]Link, 0, len(follow))
	at := make([]int, 0, len(follow))
	set := &fc.analysed
	set.mu.RLock() // once a page: the workers share it
	defer set.mu.RUnlock()
	for i, l := range follow {
		if l.Hop == extract.Link {
			if set.holds(l.URL.Canonical) {
				continue
			}
		}
		links = append(links, Link{URL: l.URL, Hop: l.Hop, Text: l.Text, Paragraph: l.Paragraph})
		at = append(at, i)
	}
	return links, at
}

// SetWeights changes the weights live and rescores the queued URLs.
func (fc *Crawl) SetWeights(m map[string]float64) (Weights, error) {
	w, err := fc.Scorer.SetWeights(m)
	if err != nil {
		return w, err
	}
	return w, fc.Rescores(4096, func(rs []frontier.Rescore) error { return fc.c.Rescore(rs) })
}

func double(x float64) rdf.Term {
	return rdf.Literal(strconv.FormatFloat(x, 'g', 6, 64), rdf.XSDDouble)
}

// relevanceQuads describe a capture's relevance to the topic.
func relevanceQuads(capture, g rdf.Term, res PageResult) []rdf.Quad {
	qs := []rdf.Quad{
		{S: capture, P: rdf.IRI(ontology.Relevance), O: double(res.Relevance), G: g},
		{S: capture, P: rdf.IRI(ontology.TopicSimilarity), O: double(res.Cosine), G: g},
	}
	for _, t := range res.Terms {
		qs = append(qs, rdf.Quad{S: capture, P: rdf.IRI(ontology.MatchedTerm), O: rdf.String(t), G: g})
	}
	for _, e := range res.Entities {
		qs = append(qs, rdf.Quad{S: capture, P: rdf.IRI(ontology.MatchedEntity), O: rdf.String(e.Name), G: g})
		if e.IRI != "" {
			qs = append(qs, rdf.Quad{S: capture, P: rdf.IRI(ontology.SchemaMentions), O: rdf.IRI(e.IRI), G: g})
		}
	}
	return qs
}

// TopicIRI names the topic of crawl id.
func TopicIRI(id string) string { return crawlrdf.CrawlIRI(id) + ":topic" }

// topicTerms is how many of the topic's terms are stored.
const topicTerms = 50

// storeTopic writes the topic, its heaviest terms and its entities into
// the crawl's graph when it changed since it was last written (the first
// time, and after example pages or accepted terms changed it), in place
// of what was written before.
func (fc *Crawl) storeTopic() error {
	fc.topicMu.Lock()
	defer fc.topicMu.Unlock()
	gen := fc.topic.Generation()
	if fc.stored != nil && gen == fc.storedGen {
		return nil
	}
	id := fc.c.ID()
	g := rdf.IRI(crawlrdf.CrawlIRI(id))
	topic := rdf.IRI(TopicIRI(id))
	qs := []rdf.Quad{
		{S: g, P: rdf.IRI(ontology.FocusTopic), O: topic, G: g},
		{S: topic, P: rdf.IRI(rdf.RDFType), O: rdf.IRI(ontology.Topic), G: g},
	}
	for _, t := range fc.topic.Terms(topicTerms) {
		node := rdf.IRI(TopicIRI(id) + ":term:" + url.PathEscape(t.Term))
		qs = append(qs,
			rdf.Quad{S: topic, P: rdf.IRI(ontology.HasTerm), O: node, G: g},
			rdf.Quad{S: node, P: rdf.IRI(rdf.RDFType), O: rdf.IRI(ontology.TopicTerm), G: g},
			rdf.Quad{S: node, P: rdf.IRI(ontology.Term), O: rdf.String(t.Term), G: g},
			rdf.Quad{S: node, P: rdf.IRI(ontology.TermWeight), O: double(t.Weight), G: g})
	}
	if fc.entities != nil {
		for _, e := range fc.entities.entities {
			qs = append(qs, rdf.Quad{S: topic, P: rdf.IRI(ontology.EntityName), O: rdf.String(e.Name), G: g})
			if e.IRI != "" {
				qs = append(qs, rdf.Quad{S: topic, P: rdf.IRI(ontology.FocusEntity), O: rdf.IRI(e.IRI), G: g})
			}
		}
	}
	b := fc.store.NewBatch()
	keep := map[rdf.Quad]bool{}
	for _, q := range qs {
		keep[q] = true
		b.Add(q)
	}
	for _, q := range fc.stored {
		if !keep[q] {
			b.Delete(q)
		}
	}
	if _, err := b.Commit(context.Background()); err != nil {
		return err
	}
	fc.stored, fc.storedGen = qs, gen
	return nil
}

// pageSet is a set of URLs, by a 128-bit hash of each (its first half
// maps to its second), bounded: emptied when it holds pageSetMax (a URL
// it forgot is only analysed again).
type pageSet struct {
	mu sync.RWMutex
	m  map[uint64]uint64
}

const pageSetMax = 1 << 18

// keySeeds hash the strings the package's bounded caches and sets keep
// by a 128-bit hash instead of their text (key128).
var keySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// key128 is s's 128-bit hash, in two halves: a map keyed by the first
// holds the second, so that no string is kept or compared.
func key128(s string) (uint64, uint64) {
	return maphash.String(keySeeds[0], s), maphash.String(keySeeds[1], s)
}

func (s *pageSet) add(url string) {
	h1, h2 := key128(url)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil || len(s.m) >= pageSetMax {
		s.m = map[uint64]uint64{}
	}
	s.m[h1] = h2
}

func (s *pageSet) has(url string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.holds(url)
}

// holds is has for a caller holding the read lock.
func (s *pageSet) holds(url string) bool {
	h1, h2 := key128(url)
	h, ok := s.m[h1]
	return ok && h == h2
}
