package gencorpus

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// Write commits the crawls' quads (Quads) into st, one batch a crawl,
// in order, as the crawler would have stored them.
func (c *Corpus) Write(ctx context.Context, st *graph.Store) error {
	for k := range c.Crawls {
		b := st.NewBatch()
		for _, q := range c.Quads(k) {
			b.Add(q)
		}
		if _, err := b.Commit(ctx); err != nil {
			return fmt.Errorf("crawl %s: %w", c.Crawls[k].ID, err)
		}
	}
	return nil
}

// Quads describes crawl k as the crawler and the application-aware helper
// would: the crawl with its start, a capture per post page, and each post
// and comment derived from its capture with its text.
func (c *Corpus) Quads(k int) []rdf.Quad { return crawlQuads(c.Crawls[k]) }

// Captures returns the captures of crawl k in the order of its texts.
func (c *Corpus) Captures(k int) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range c.Crawls[k].Texts {
		if !seen[t.Capture] {
			seen[t.Capture] = true
			out = append(out, t.Capture)
		}
	}
	return out
}

// CaptureQuads describes the captures [from, to) of crawl k (as Captures
// lists them) as Quads does: the crawl's quads in parts, as an
// incremental crawl stores its captures over time.
func (c *Corpus) CaptureQuads(k, from, to int) []rdf.Quad {
	in := map[string]bool{}
	for _, capt := range c.Captures(k)[from:to] {
		in[capt] = true
	}
	cr := c.Crawls[k]
	texts := cr.Texts
	cr.Texts = nil
	for _, t := range texts {
		if in[t.Capture] {
			cr.Texts = append(cr.Texts, t)
		}
	}
	return crawlQuads(cr)
}

// crawlQuads describes crawl cr (see Quads).
func crawlQuads(cr Crawl) []rdf.Quad {
	g := rdf.IRI("urn:mneme:crawl:" + cr.ID)
	var out []rdf.Quad
	add := func(s rdf.Term, p string, o rdf.Term) { out = append(out, rdf.Quad{S: s, P: rdf.IRI(p), O: o, G: g}) }
	add(g, rdf.RDFType, rdf.IRI(ontology.Crawl))
	add(g, ontology.ProvStartedAtTime, rdf.Literal(cr.Start.Format(time.RFC3339), rdf.XSDDateTime))
	caps := map[string]bool{}
	for _, t := range cr.Texts {
		capt := rdf.IRI(t.Capture)
		if !caps[t.Capture] {
			caps[t.Capture] = true
			add(capt, rdf.RDFType, rdf.IRI(ontology.Capture))
			add(capt, ontology.ProvWasGeneratedBy, g)
		}
		o := rdf.IRI(t.IRI)
		add(o, rdf.RDFType, rdf.IRI(ontology.SIOCPost))
		if t.ReplyTo != "" {
			add(o, rdf.RDFType, rdf.IRI(ontology.SIOCTComment))
			add(o, ontology.SIOCReplyOf, rdf.IRI(t.ReplyTo))
		} else {
			add(o, rdf.RDFType, rdf.IRI(ontology.SIOCTBlogPost))
			add(capt, ontology.URL, o)
		}
		add(o, ontology.ProvWasDerivedFrom, capt)
		if t.Author != "" {
			acc := rdf.IRI("http://blog.example/author/" + strings.ReplaceAll(strings.ToLower(t.Author), " ", "-"))
			add(o, ontology.SIOCHasCreator, acc)
			add(acc, rdf.RDFType, rdf.IRI(ontology.SIOCUserAccount))
			add(acc, ontology.SIOCName, rdf.String(t.Author))
		}
		add(o, ontology.SIOCContent, rdf.String(t.Content))
	}
	return out
}
