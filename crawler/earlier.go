package crawler

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// earlier finds, for a URL a crawl captures, the latest capture of the same
// URL made by an earlier crawl of the data folder, so that the new capture
// revises it (prov:wasRevisionOf, a change status) and an unchanged payload
// becomes a revisit record of the earlier one, as Heritrix and Browsertrix
// deduplicate across crawls. It reads the store, where every crawl's
// captures are: nothing about them is kept in memory.
type earlier struct {
	store *graph.Store
	graph rdf.Term // this crawl's graph, whose captures are not earlier
}

// previous is an earlier capture of a URL.
type previous struct {
	IRI    string
	Digest string
	// Stored is the record holding the payload: the capture's own response
	// record, or the one it was itself a revisit of.
	Stored original
}

// newEarlier returns the lookup of earlier captures for crawl id, or nil
// when the data folder holds no other crawl (nothing to look up).
func newEarlier(l Layout, id string, st *graph.Store) (*earlier, error) {
	ents, err := os.ReadDir(l.Crawls())
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		if e.IsDir() && e.Name() != id {
			return &earlier{store: st, graph: rdf.IRI(crawlrdf.CrawlIRI(id))}, nil
		}
	}
	return nil, nil
}

// find returns the latest capture of url with a payload in another crawl's
// graph; ok is false when there is none.
func (e *earlier) find(ctx context.Context, url string) (p previous, ok bool, err error) {
	ids, err := e.store.LookupTerms([]rdf.Term{
		rdf.IRI(url), rdf.IRI(ontology.URL), rdf.IRI(ontology.ProvGeneratedAtTime),
		rdf.IRI(ontology.PayloadDigest), rdf.IRI(ontology.DuplicateOf), e.graph,
	})
	if err != nil {
		return p, false, err
	}
	urlID, urlP, timeP, digestP, dupP, own := ids[0], ids[1], ids[2], ids[3], ids[4], ids[5]
	if urlID == graph.Any || urlP == graph.Any || timeP == graph.Any || digestP == graph.Any {
		return p, false, nil
	}
	it, err := e.store.Scan(ctx, graph.Pattern{P: urlP, O: urlID}, graph.ScanOptions{})
	if err != nil {
		return p, false, err
	}
	type cand struct{ s, g graph.ID }
	var cands []cand // one per earlier capture of the URL: a few
	for it.Next() {
		if q := it.Quad(); q.G != own {
			cands = append(cands, cand{q.S, q.G})
		}
	}
	if err := it.Close(); err != nil {
		return p, false, err
	}
	var best cand
	var bestTime time.Time
	var bestDigest string
	for _, c := range cands {
		digest, err := e.value(ctx, c.s, digestP, c.g)
		if err != nil {
			return p, false, err
		}
		if digest == "" {
			continue // a failed fetch: nothing to compare with
		}
		at, err := e.time(ctx, c.s, timeP, c.g)
		if err != nil {
			return p, false, err
		}
		if at.After(bestTime) {
			best, bestTime, bestDigest = c, at, digest
		}
	}
	if bestTime.IsZero() {
		return p, false, nil
	}
	iri, err := e.store.Term(best.s)
	if err != nil {
		return p, false, err
	}
	p = previous{IRI: iri.Value, Digest: bestDigest, Stored: original{RecordID: "<" + iri.Value + ">", URL: url, Date: bestTime}}
	if dupP == graph.Any {
		return p, true, nil
	}
	// A revisit's payload is in the record it refers to.
	dups, err := e.objects(ctx, graph.Pattern{S: best.s, P: dupP, G: best.g})
	if err != nil || len(dups) == 0 {
		return p, err == nil, err
	}
	orig, err := e.store.Term(dups[0])
	if err != nil {
		return p, false, err
	}
	ourl, err := e.objects(ctx, graph.Pattern{S: dups[0], P: urlP})
	if err != nil || len(ourl) == 0 {
		return p, false, err // the original is gone: store the payload anew
	}
	u, err := e.store.Term(ourl[0])
	if err != nil {
		return p, false, err
	}
	at, err := e.time(ctx, dups[0], timeP, graph.Any)
	if err != nil {
		return p, false, err
	}
	p.Stored = original{RecordID: "<" + orig.Value + ">", URL: u.Value, Date: at}
	return p, true, nil
}

func (e *earlier) objects(ctx context.Context, pat graph.Pattern) ([]graph.ID, error) {
	it, err := e.store.Scan(ctx, pat, graph.ScanOptions{})
	if err != nil {
		return nil, err
	}
	var out []graph.ID
	for it.Next() {
		out = append(out, it.Quad().O)
	}
	return out, it.Close()
}

// value is the lexical form of the object of (s, p, ?, g), "" when none.
func (e *earlier) value(ctx context.Context, s, p, g graph.ID) (string, error) {
	objs, err := e.objects(ctx, graph.Pattern{S: s, P: p, G: g})
	if err != nil || len(objs) == 0 {
		return "", err
	}
	t, err := e.store.Term(objs[0])
	return t.Value, err
}

func (e *earlier) time(ctx context.Context, s, p, g graph.ID) (time.Time, error) {
	v, err := e.value(ctx, s, p, g)
	if err != nil || v == "" {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return t, fmt.Errorf("capture time %q: %w", v, err)
	}
	return t, nil
}
