package crawler

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/fetch"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// annotDuplicate marks a crawl.log line whose payload was stored as a
// revisit; annotNotModified one whose 304 was, annotHeaders one whose
// download the headers stopped.
const (
	annotDuplicate   = "duplicate:digest"
	annotNotModified = "unchanged:304"
	annotHeaders     = "unchanged:headers"
)

// item is a finished URL on its way to the RDF writer, which commits its
// capture, schedules its links and completes it in the frontier, in that
// order.
type item struct {
	capture *crawlrdf.Capture // nil when nothing was fetched
	rdf     *graph.Batch      // the capture's statements, but mneme:via
	objects []rdf.Quad        // what the Analyzer found in the page
	viaURL  string            // the page the URL was found on, for mneme:via
	cands   []frontier.Candidate
	url     string           // frontier URL to complete; "" for a prerequisite
	logs    []crawllog.Entry // crawl.log lines, written once committed
	outcome frontier.Outcome
	// Incremental crawls: the queue whose revisit state goes with the
	// completion, and embedded resources to revisit now.
	queue  string
	embeds []string
	// scheduled, on the last item a worker hands over when any has
	// links, is done once they are scheduled (Crawl.hand).
	scheduled *scheduling
}

// process fetches one claimed URL and returns what the RDF writer must do
// with it. Every item but the last is a robots.txt prerequisite or a page
// the Analyzer fetched (Page.Fetch).
func (c *Crawl) process(ctx context.Context, worker int, cl *frontier.Claim) ([]item, error) {
	hp := c.spec.Politeness.For(cl.QueueKey)
	ev := Fetch{URL: cl.URL, Queue: cl.QueueKey, Hops: cl.Hops, Via: cl.Via, Worker: worker, Claimed: c.clock.Now()}
	done := item{url: cl.URL}
	u, err := c.canon.Parse(cl.URL)
	if err != nil || !u.Hierarchical() {
		return []item{c.skip(worker, cl, ev, fetch.StatusUnfetchable, frontier.Failed, fmt.Sprint(err))}, nil
	}
	if cl.History != nil {
		// A revisit: the scope may have been edited since the URL was found.
		if d := c.scope.Load().Decide(u, cl.Hops); !d.Accept {
			return []item{c.skip(worker, cl, ev, fetch.StatusOutOfScope, frontier.Disregarded, d.String())}, nil
		}
	}
	var items []item
	var crawlDelay time.Duration
	var ipWait time.Duration // in a cluster, how long the host's IP stays claimed after this URL
	if c.deps.Cluster != nil {
		by, ok, err := c.deps.Cluster.Begin(ctx, cl.URL)
		if err != nil {
			return nil, err
		}
		if !ok {
			return []item{c.elsewhere(worker, cl, ev, by)}, nil
		}
		release, err := c.gate(ctx, u.Host)
		if err != nil {
			return nil, err
		}
		// The IP stays claimed for the politeness wait after the last
		// request of this URL (robots.txt and the Analyzer's included).
		if !hp.Off {
			ipWait = hp.MinDelay
		}
		defer func() { release(ipWait) }()
	}
	if c.spec.Robots == "obey" {
		agent, pre, err := c.robotsFor(ctx, worker, u, cl)
		if err != nil {
			return nil, err
		}
		items = append(items, pre...)
		d := agent.Check(pathQuery(u))
		if !d.Allowed {
			if strings.HasPrefix(d.Rule, "robots.txt unreachable") {
				return append(items, c.retry(worker, cl, ev, hp, fetch.StatusRobotsPrereq, 0, d.Rule)), nil
			}
			return append(items, c.skip(worker, cl, ev, fetch.StatusRobotsPrecluded, frontier.Disregarded, d.Rule)), nil
		}
		crawlDelay, _ = agent.CrawlDelay(hp.MaxCrawlDelay)
	}

	req := c.http.request(u, cl.Via)
	var vis *visit
	if c.inc != nil {
		if vis, err = c.inc.begin(cl); err != nil {
			return nil, err
		}
		c.inc.request(vis, &req)
	}
	start := c.clock.Now()
	res := c.fetcher.Fetch(ctx, req)
	defer res.Close()
	// The capture's time (WARC-Date, prov:generatedAtTime) is the crawl
	// clock's, as its schedule is: on a virtual clock, revisits days apart
	// are archived days apart.
	res.Start = start
	if abandoned(ctx, res) {
		return nil, ctx.Err() // stopped mid-fetch: the URL stays in flight and is fetched on resume
	}
	var smp *sampler // only an Analyzer fetches more pages
	if c.deps.Analyzer != nil {
		smp = &sampler{c: c, ctx: ctx, worker: worker, cl: cl, hp: hp, crawlDelay: crawlDelay, last: res.Duration}
	}
	an, scores := c.analyze(res, cl.Hops, smp)
	if smp != nil {
		items = append(items, smp.items...)
	}
	annotations := retryAnnotations(cl.Retries)
	if an.Annotation != "" {
		annotations = append(annotations, an.Annotation)
	}
	capt, revisit, err := c.record(worker, res, cl.Hops, cl.Via, an.Links, annotations, vis)
	if err != nil {
		return nil, err
	}
	ev.Status, ev.Duration, ev.Size, ev.MimeType, ev.Revisit, ev.Links = res.Status, res.Duration, res.ContentLength, res.MediaType, revisit, len(an.Links)
	if res.Err != nil && res.Status < 0 {
		ev.Error = res.Err.Error()
	}
	done.capture, done.viaURL = capt, cl.Via
	if an.Quads != nil {
		done.objects = an.Quads(rdf.IRI(capt.IRI), rdf.IRI(crawlrdf.CrawlIRI(c.id)))
	}

	if retriable(res.Status) {
		after := time.Duration(0)
		if res.HasRetryAfter {
			after = res.RetryAfter
		}
		c.failing.failed(cl.QueueKey)
		it := c.retry(worker, cl, ev, hp, res.Status, after, "")
		it.capture, it.viaURL = capt, cl.Via
		return append(items, it), nil
	}
	if res.Status < 0 {
		done.outcome = frontier.Outcome{Status: frontier.Failed, FetchDuration: res.Duration}
		ev.Outcome = "failed"
		c.finish(ev)
		return append(items, done), nil
	}
	c.failing.answered(cl.QueueKey)
	now := c.clock.Now()
	wait := time.Duration(0)
	if !hp.Off {
		wait = hp.Wait(res.Duration, crawlDelay)
		ipWait = max(ipWait, wait)
	}
	done.outcome = frontier.Outcome{Status: frontier.Succeeded, FetchDuration: res.Duration, SnoozeUntil: now.Add(wait)}
	done.cands = c.candidates(an.Follow, scores, cl, u)
	if vis != nil {
		done.outcome.Due, done.outcome.History, done.queue = vis.due(now), vis.encoded, cl.QueueKey
		if vis.embeds {
			done.embeds = embeds(done.cands)
		}
	}
	ev.Outcome, ev.Wait = "succeeded", wait
	c.finish(ev)
	return append(items, done), nil
}

// abandoned reports whether Stop cut a fetch short; a fetch that ended
// whole before is kept.
func abandoned(ctx context.Context, res *fetch.Result) bool {
	return res.Status == fetch.StatusThreadKilled || ctx.Err() != nil && res.Err != nil
}

// finish counts a finished URL and reports it.
func (c *Crawl) finish(ev Fetch) {
	c.counters.record(ev, fetchErrorKind(ev.URL, ev.Status))
	c.seedw.observe(ev, c.clock.Now())
	if c.deps.OnFetch != nil {
		c.deps.OnFetch(ev)
	}
}

// skip ends a URL without fetching it: logged, counted, completed.
func (c *Crawl) skip(worker int, cl *frontier.Claim, ev Fetch, status int, st frontier.Status, why string) item {
	c.logLine(worker, crawllog.Entry{Status: status, Size: -1, URI: cl.URL, HopPath: cl.Hops, Via: cl.Via, Annotations: []string{why}})
	ev.Status = status
	ev.Outcome = map[frontier.Status]string{frontier.Failed: "failed", frontier.Disregarded: "disregarded"}[st]
	c.finish(ev)
	return item{url: cl.URL, outcome: frontier.Outcome{Status: st}}
}

// retry sends a URL back to its queue after a retriable failure, or gives
// it up when its retries are spent. A fetch that happened was already
// logged. Only the URL waits for its retry, unless its host is failing
// (hostFailing): then the whole queue does.
func (c *Crawl) retry(worker int, cl *frontier.Claim, ev Fetch, hp spec.HostPoliteness, status int, after time.Duration, why string) item {
	now := c.clock.Now()
	ev.Status = status
	at, ok := hp.Retry(now, cl.Retries+1, after)
	if why != "" {
		c.logLine(worker, crawllog.Entry{Status: status, Size: -1, URI: cl.URL, HopPath: cl.Hops, Via: cl.Via,
			Annotations: append(retryAnnotations(cl.Retries), why)})
	}
	if !ok {
		ev.Outcome = "failed"
		c.finish(ev)
		return item{url: cl.URL, outcome: frontier.Outcome{Status: frontier.Failed, FetchDuration: ev.Duration}}
	}
	ev.Outcome, ev.Wait = "retry", at.Sub(now)
	c.finish(ev)
	o := frontier.Outcome{Status: frontier.RetryLater, FetchDuration: ev.Duration}
	if c.hostFailing(cl.QueueKey, status) {
		o.RetryAt = at
	} else {
		o.RetryURLAt = at
		if !hp.Off {
			o.SnoozeUntil = now.Add(hp.Wait(ev.Duration, 0))
		}
	}
	return item{url: cl.URL, outcome: o}
}

// hostFailures is how many retriable errors in a row from a host, with no
// answer between, make it failing.
const hostFailures = 3

// hostFailing says whether a retriable error with status means the host
// itself is failing rather than one of its URLs: nothing answers there,
// its robots.txt cannot be had, or the last hostFailures fetches from it
// all failed.
func (c *Crawl) hostFailing(queue string, status int) bool {
	switch status {
	case fetch.StatusDomainUnresolved, fetch.StatusConnectFailed, fetch.StatusRobotsPrereq:
		return true
	}
	return c.failing.count(queue) >= hostFailures
}

// failures counts the retriable errors in a row of the hosts that have
// some; it forgets them all when it holds failuresMax hosts (a crawl
// failing on that many hosts at once has bigger troubles than retry
// delays).
type failures struct {
	mu sync.Mutex
	n  map[string]int
}

const failuresMax = 1 << 14

func (f *failures) failed(queue string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == nil || len(f.n) >= failuresMax {
		f.n = map[string]int{}
	}
	f.n[queue]++
}

func (f *failures) answered(queue string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.n, queue)
}

func (f *failures) count(queue string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n[queue]
}

func retryAnnotations(retries int) []string {
	if retries == 0 {
		return nil
	}
	return []string{strconv.Itoa(retries) + "t"}
}

// pathQuery is what robots.txt rules are matched against.
func pathQuery(u canon.URL) string {
	if u.HasQuery {
		return u.Path + "?" + u.Query
	}
	return u.Path
}

// analyze finds the links of a fetched page, the redirect target
// included, with the Analyzer when the crawl has one, which may fetch
// more pages through smp (nil without an Analyzer). In a focused crawl it
// returns the scores of the links to follow (else nil).
func (c *Crawl) analyze(res *fetch.Result, hops string, smp *sampler) (Analysis, []float64) {
	var an Analysis
	if res.Status >= 300 && res.Status < 400 && res.Location.Href != "" {
		an.Links = append(an.Links, extract.Outlink{URL: res.Location, Hop: extract.Redirect, Context: "location"})
	}
	an.Follow = an.Links
	if res.Status < 200 || res.Status >= 300 || res.Body == nil || res.Body.Size() == 0 {
		return an, nil
	}
	if strings.HasSuffix(hops, string(extract.Inferred)) {
		if links, ok := c.sitemapLinks(res); ok {
			an.Links, an.Follow = links, links
			return an, nil
		}
	}
	if c.deps.Analyzer == nil && c.focus == nil {
		found, err := c.extract.Extract(extract.Document{URL: res.URL, MediaType: res.MediaType, Body: res.Text()})
		if err != nil {
			fmt.Fprintf(c.deps.Log, "extracting links of %s: %v\n", res.URL.Href, err)
		}
		an.Links, an.Follow = found, found // a 2xx response: no redirect target to put first
		return an, nil
	}
	body, err := res.TextBytes()
	if err != nil {
		fmt.Fprintf(c.deps.Log, "reading %s: %v\n", res.URL.Href, err)
		return an, nil
	}
	p := Page{URL: res.URL, MediaType: res.MediaType, Header: res.Header, Body: body}
	if c.deps.Analyzer == nil {
		// The focus analysis reads the page's content text, taken in the
		// extractor's pass rather than by parsing the page again.
		found, text, err := c.extract.ExtractContent(extract.Document{URL: res.URL, MediaType: res.MediaType, Text: body})
		if err != nil {
			fmt.Fprintf(c.deps.Log, "extracting links of %s: %v\n", res.URL.Href, err)
		}
		an.Links, an.Follow = found, found
		if extract.IsHTML(res.MediaType) {
			an.Content = []string{text}
		}
	} else {
		p.Fetch = smp.fetch
		an, err = c.deps.Analyzer.Analyze(p) // a 2xx response: no redirect target to put first
		if err != nil {
			fmt.Fprintf(c.deps.Log, "analyzing %s: %v\n", res.URL.Href, err)
		}
		p.Fetch = nil
	}
	return an, c.focusLinks(p, &an)
}

// candidates turns the in-scope outlinks of a page into frontier candidates.
// A page's links share a few hop paths and mostly one host: each hop path
// and queue key is built once per page, not once per link.
func (c *Crawl) candidates(links []extract.Outlink, scores []float64, cl *frontier.Claim, from canon.URL) []frontier.Candidate {
	cands := make([]frontier.Candidate, 0, len(links))
	sc := c.scope.Load()
	var hopPaths [4]struct {
		hop  extract.Hop
		path string
	}
	known := 0
	var host, port, key string
	for i, l := range links {
		hops := ""
		for i := range known {
			if hopPaths[i].hop == l.Hop {
				hops = hopPaths[i].path
				break
			}
		}
		if hops == "" {
			hops = cl.Hops + string(rune(l.Hop))
			if known < len(hopPaths) {
				hopPaths[known].hop, hopPaths[known].path = l.Hop, hops
				known++
			}
		}
		if !sc.Accepts(l.URL, hops) {
			continue
		}
		if key == "" || l.URL.Host != host || l.URL.Port != port {
			host, port, key = l.URL.Host, l.URL.Port, l.URL.HostKey()
		}
		score := 0.0
		if i < len(scores) {
			score = scores[i]
		}
		cands = append(cands, frontier.Candidate{
			URL: l.URL.Canonical, QueueKey: key, Hops: hops, Via: from.Href, Score: score, Update: c.update,
		})
	}
	return cands
}

// record archives a fetch: its WARC records (a revisit when the payload was
// stored before, or when a revisit v got 304 Not Modified), its crawl.log
// line and the capture to describe in RDF. For a revisit it also records
// what changed and schedules the next visit.
func (c *Crawl) record(worker int, res *fetch.Result, hops, via string, links []extract.Outlink, annotations []string, v *visit) (*crawlrdf.Capture, bool, error) {
	capt := &crawlrdf.Capture{
		URL: res.URL.Href, Time: res.Start, Status: res.Status, MimeType: res.MediaType,
		Length: -1, HopPath: hops,
	}
	if res.Err != nil {
		capt.Error = res.Err.Error()
	}
	revisit := false
	if res.Response != nil {
		capt.Length = res.ContentLength
		meta := &warc.Metadata{Via: via, HopPath: hops, FetchTime: res.Duration, Outlinks: make([]warc.Outlink, 0, len(links))}
		for _, l := range links {
			meta.Outlinks = append(meta.Outlinks, warc.Outlink{URL: l.URL.Href, Hop: string(rune(l.Hop)), Context: l.Context})
		}
		var req warc.Content
		if res.Request != nil {
			var err error
			if req, err = c.http.archived(res.Request); err != nil {
				return nil, false, fmt.Errorf("%s: %w", res.URL.Href, err)
			}
		}
		dedupable := res.Status >= 200 && res.Status < 300 && res.Truncated == "" && res.Digest != "" && res.ContentLength > 0
		var orig original
		var err error
		var prev previous
		hasPrev := false
		if v == nil && c.earlier != nil && res.Status > 0 {
			// An incremental crawl's URL history does this within the crawl.
			if prev, hasPrev, err = c.earlier.find(context.Background(), res.URL.Href); err != nil {
				return nil, false, fmt.Errorf("earlier captures of %s: %w", res.URL.Href, err)
			}
		}
		switch {
		case dedupable && hasPrev && prev.Digest == res.Digest:
			orig, revisit = prev.Stored, true
		case dedupable:
			if orig, revisit, err = c.dedup.get(res.Digest); err != nil {
				return nil, false, err
			}
		}
		if hasPrev {
			capt.Previous, capt.Change = prev.IRI, changeStatus(prev.Digest, res.Digest)
		}
		var w warc.Capture
		switch {
		case v != nil && v.notModified(res):
			st := v.hist.stored
			w, err = c.warcs.WriteRevisit(warc.Revisit{
				Profile: warc.ServerNotModified, URL: res.URL.Href, Date: res.Start, IP: res.IP,
				Request: req, Response: res.Response, RefersToURI: st.URL, RefersToDate: st.Date,
				RefersToID: st.RecordID, Metadata: meta,
			})
			capt.Duplicate = recordIRI(st.RecordID)
			if res.BodySkipped {
				annotations = append(annotations, annotHeaders)
			} else {
				annotations = append(annotations, annotNotModified)
			}
			revisit = true
		case revisit:
			if orig.URL == res.URL.Href {
				// The same bytes at the same URL have the same outlinks,
				// which the metadata record of the capture referred to
				// lists (and the store holds for this one): a revisit of
				// an unchanged page costs headers only.
				meta.Outlinks = nil
			}
			w, err = c.warcs.WriteRevisit(warc.Revisit{
				Profile: warc.IdenticalPayloadDigest, URL: res.URL.Href, Date: res.Start, IP: res.IP,
				Request: req, Response: res.Response, RefersToURI: orig.URL, RefersToDate: orig.Date,
				RefersToID: orig.RecordID, Metadata: meta,
			})
			capt.Duplicate = recordIRI(orig.RecordID)
			annotations = append(annotations, annotDuplicate)
			if v != nil {
				v.hist.stored = orig
			}
		default:
			w, err = c.warcs.WriteExchange(warc.Exchange{
				URL: res.URL.Href, Date: res.Start, IP: res.IP, Request: req, Response: res.Response,
				Truncated: res.Truncated, Metadata: meta, PayloadDigest: res.Digest, // digested while read
			})
			if v != nil {
				v.hist.stored = original{RecordID: w.Response.RecordID, URL: res.URL.Href, Date: res.Start}
			}
		}
		if err != nil {
			return nil, false, err
		}
		c.pending.add(w.Response.File)
		if dedupable && !revisit && w.PayloadDigest == res.Digest {
			c.dedup.put(res.Digest, original{RecordID: w.Response.RecordID, URL: res.URL.Href, Date: res.Start})
		}
		capt.IRI = recordIRI(w.Response.RecordID)
		capt.RecordID = capt.IRI
		capt.WARCFile, capt.Offset, capt.Digest = w.Response.File, w.Response.Offset, w.PayloadDigest
	} else {
		capt.IRI = "urn:uuid:" + uuid.NewString()
	}
	capt.Links = make([]crawlrdf.Link, 0, len(links))
	for _, l := range links {
		capt.Links = append(capt.Links, crawlrdf.Link{Target: l.URL.Href, Text: l.Text, Hop: byte(l.Hop)})
	}
	if v != nil && res.Status > 0 && !retriable(res.Status) {
		if err := c.revisited(v, res, capt, &annotations); err != nil {
			return nil, false, err
		}
	}
	size := int64(-1)
	if res.Response != nil {
		size = res.ContentLength
	}
	c.logLine(worker, crawllog.Entry{
		Status: res.Status, Size: size, URI: res.URL.Href, HopPath: hops, Via: via, MimeType: res.MediaType,
		FetchBegin: res.Start, FetchDuration: res.Duration, Digest: res.Digest,
		Annotations: append(annotations, res.Annotations()...),
	})
	return capt, revisit, nil
}

// changeStatus is the mneme:changeStatus of a capture whose payload digest
// is now against its previous capture's was.
func changeStatus(was, now string) string {
	switch {
	case now == "":
		return ontology.StatusUnknown
	case now == was:
		return ontology.StatusUnchanged
	}
	return ontology.StatusChanged
}

// recordIRI is the IRI in a WARC-Record-ID ("<urn:uuid:…>").
func recordIRI(id string) string { return strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">") }

// logLine keeps a crawl.log line of the URL worker is processing; the RDF
// writer writes it once the URL's records are durable and its capture
// committed (sink.commit), so that every line has its WARC record.
func (c *Crawl) logLine(worker int, e crawllog.Entry) {
	e.Thread = worker
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	c.wlogs[worker] = append(c.wlogs[worker], e)
}
