package crawler

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/rdf"
)

// Analyzer reads every fetched page in place of the standard link
// extractor: it chooses the links to follow and may describe what the
// page holds (the application-aware crawler's posts, comments, wiki
// pages). It is called concurrently by the workers.
type Analyzer interface {
	Analyze(p Page) (Analysis, error)
}

// Page is a fetched document with a 2xx status and a body.
type Page struct {
	URL       canon.URL
	MediaType string // lowercase type/subtype
	Header    http.Header
	Body      []byte // the content as UTF-8 text
	// Fetch, set on the pages given to Analyze, gets another page of the
	// same host through the crawl while this one is analyzed (an
	// adapting analyzer's sample pages): within the scope and robots.txt,
	// after the host's politeness delay, archived in WARC and crawl.log
	// (annotated AnnotSample) and described in the store like any
	// capture. An archival crawl makes no request it does not record.
	// The page's own links are not followed; the crawl fetches it again
	// if they lead to it (a revisit record, the payload being stored).
	Fetch func(url string) (Page, error)
}

// AnnotSample marks the crawl.log line of a page an Analyzer fetched
// through Page.Fetch.
const AnnotSample = "analyzer:sample"

// Analysis is what an Analyzer found in a page.
type Analysis struct {
	// Links are the references found in the page, described with its
	// capture (mneme:Link) and in its WARC metadata record.
	Links []extract.Outlink
	// Follow are the links to schedule (still subject to the scope).
	Follow []extract.Outlink
	// Quads, when set, describes the page's content; it is called once the
	// capture is recorded, with the capture's IRI and the crawl's graph.
	Quads func(capture, graph rdf.Term) []rdf.Quad
	// Annotation, when set, is added to the page's crawl.log line (for
	// instance "app:wordpress/post").
	Annotation string
	// Content, when set, is the text of the page's content parts (the
	// posts, comments and wiki text an application-aware analyzer
	// extracted), without the navigation around them: a focused crawl
	// analyses it in place of the whole page. Without an Analyzer, a
	// focused crawl sets it to an HTML page's extract.ContentText.
	Content []string
}

// errSampleHost refuses a Page.Fetch of another host than the page's: the
// worker holds the politeness of the page's host only.
var errSampleHost = errors.New("not on the analyzed page's host")

// sampler fetches the pages an Analyzer asks for while it analyzes the
// page of claim cl, which the worker fetched in last: each request waits
// the host's politeness delay after the one before (in real time: the
// worker holds the host's claim meanwhile).
type sampler struct {
	c          *Crawl
	ctx        context.Context
	worker     int
	cl         *frontier.Claim
	hp         spec.HostPoliteness
	crawlDelay time.Duration
	last       time.Duration // the last fetch's duration
	items      []item        // captures for the RDF writer
}

// fetch implements Page.Fetch.
func (s *sampler) fetch(raw string) (Page, error) {
	c := s.c
	u, err := c.canon.Parse(raw)
	if err != nil {
		return Page{}, err
	}
	if u.HostKey() != s.cl.QueueKey {
		return Page{}, fmt.Errorf("%s: %w %s", raw, errSampleHost, s.cl.QueueKey)
	}
	hops := s.cl.Hops + string(rune(extract.Link))
	if d := c.scope.Load().Decide(u, hops); !d.Accept {
		return Page{}, fmt.Errorf("%s: out of scope: %s", raw, d)
	}
	if c.spec.Robots == "obey" {
		agent, pre, err := c.robotsFor(s.ctx, s.worker, u, s.cl)
		if err != nil {
			return Page{}, err
		}
		s.items = append(s.items, pre...)
		if d := agent.Check(pathQuery(u)); !d.Allowed {
			return Page{}, fmt.Errorf("%s: robots.txt: %s", raw, d.Rule)
		}
	}
	if !s.hp.Off {
		t := time.NewTimer(s.hp.Wait(s.last, s.crawlDelay))
		select {
		case <-t.C:
		case <-s.ctx.Done():
			t.Stop()
			return Page{}, s.ctx.Err()
		}
	}
	start := c.clock.Now()
	res := c.fetcher.Fetch(s.ctx, c.http.request(u, s.cl.URL))
	defer res.Close()
	res.Start = start
	if abandoned(s.ctx, res) {
		return Page{}, s.ctx.Err()
	}
	s.last = res.Duration
	capt, revisit, err := c.record(s.worker, res, hops, s.cl.URL, nil, []string{AnnotSample}, nil)
	if err != nil {
		return Page{}, err
	}
	s.items = append(s.items, item{capture: capt, viaURL: s.cl.URL})
	c.finish(Fetch{URL: u.Href, Queue: s.cl.QueueKey, Hops: hops, Via: s.cl.URL, Worker: s.worker, Claimed: start,
		Status: res.Status, Duration: res.Duration, Size: res.ContentLength, MimeType: res.MediaType, Revisit: revisit, Outcome: "sample"})
	if res.Status < 0 {
		return Page{}, fmt.Errorf("%s: %w", raw, statusError(res.Status))
	}
	if res.Status < 200 || res.Status >= 300 || res.Body == nil {
		return Page{}, fmt.Errorf("%s: HTTP status %d", raw, res.Status)
	}
	body, err := res.TextBytes()
	if err != nil {
		return Page{}, fmt.Errorf("reading %s: %w", raw, err)
	}
	return Page{URL: res.URL, MediaType: res.MediaType, Header: res.Header, Body: body}, nil
}
