package crawler

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/fetch"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/revisit"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/ontology"
)

// incremental is the revisit machinery of an incremental crawl: the
// settings, and per queue the revisit policy's state and the trust earned
// by the host's header predictions. The per-queue state is loaded from the
// frontier when a queue is first seen and written back with every
// completion (Outcome.QueueData); what grows with the URLs (their
// histories) lives only in the frontier.
type incremental struct {
	cfg    revisit.Config
	front  *frontier.Frontier
	rate   func(queueKey string) float64 // the queue's request budget per second
	mu     sync.Mutex
	queues map[string]*queueRevisit
}

// queueRevisit is one queue's revisit state.
type queueRevisit struct {
	mu   sync.Mutex
	snap queueSnapshot
}

// queueSnapshot is what is stored for a queue: fixed-size fields, so that
// encoding/binary writes it as is.
type queueSnapshot struct {
	Trust   revisit.Trust
	Poisson revisit.Poisson // used by the poisson policy only
}

func decodeQueueSnapshot(data []byte) (queueSnapshot, error) {
	var s queueSnapshot
	if len(data) != binary.Size(&s) {
		return s, fmt.Errorf("%d bytes, want %d", len(data), binary.Size(&s))
	}
	err := binary.Read(bytes.NewReader(data), binary.LittleEndian, &s)
	return s, err
}

func newIncremental(cfg revisit.Config, f *frontier.Frontier, s *spec.Spec) *incremental {
	return &incremental{cfg: cfg, front: f, queues: map[string]*queueRevisit{}, rate: func(key string) float64 {
		hp := s.Politeness.For(key)
		if hp.Off || hp.MinDelay <= 0 {
			// No politeness delay: the workers are the limit.
			return float64(s.Workers)
		}
		return float64(hp.Valence) / hp.MinDelay.Seconds()
	}}
}

// queue returns the revisit state of a queue, loading it on first use.
func (in *incremental) queue(key string) (*queueRevisit, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if q := in.queues[key]; q != nil {
		return q, nil
	}
	q := &queueRevisit{}
	data, err := in.front.QueueData(key)
	if err != nil {
		return nil, err
	}
	if data != nil {
		if q.snap, err = decodeQueueSnapshot(data); err != nil {
			return nil, fmt.Errorf("revisit state of queue %s: %w", key, err)
		}
	}
	// The budget follows the politeness settings in force. The staleness
	// horizon stays 0, so the policy takes the evaluator's initial wait: a
	// queue's URL count, which the simulator divides by the rate, is not
	// known while the crawl discovers it.
	q.snap.Poisson.Rate = in.rate(key)
	in.queues[key] = q
	return q, nil
}

// queueData encodes the current state of a queue for its next completion.
func (in *incremental) queueData(key string) []byte {
	in.mu.Lock()
	q := in.queues[key]
	in.mu.Unlock()
	if q == nil {
		return nil
	}
	var b bytes.Buffer
	q.mu.Lock()
	binary.Write(&b, binary.LittleEndian, &q.snap) // fixed-size fields: cannot fail
	q.mu.Unlock()
	return b.Bytes()
}

// history is what an incremental crawl keeps about a URL between visits.
type history struct {
	state   revisit.State
	capture string   // IRI of the URL's last capture, which the next one revises
	stored  original // the record holding the bytes of the current version
}

func (h *history) encode() ([]byte, error) {
	st, err := h.state.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b := binary.AppendUvarint(nil, uint64(len(st)))
	b = append(b, st...)
	for _, s := range []string{h.capture, h.stored.RecordID, h.stored.URL} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return binary.AppendVarint(b, h.stored.Date.UnixNano()), nil
}

func decodeHistory(b []byte) (history, error) {
	var h history
	r := bytes.NewReader(b)
	var bad string
	field := func(what string) []byte {
		n, err := binary.ReadUvarint(r)
		if err != nil || n > uint64(r.Len()) {
			if bad == "" {
				bad = what
			}
			return nil
		}
		p := make([]byte, n)
		io.ReadFull(r, p)
		return p
	}
	st := field("state")
	h.capture, h.stored.RecordID, h.stored.URL = string(field("capture")), string(field("record id")), string(field("record URL"))
	ns, err := binary.ReadVarint(r)
	switch {
	case bad != "":
		return h, fmt.Errorf("URL history: %s truncated", bad)
	case err != nil || r.Len() != 0:
		return h, fmt.Errorf("URL history: record date truncated or %d bytes after it", r.Len())
	}
	if err := h.state.UnmarshalBinary(st); err != nil {
		return h, err
	}
	if ns != 0 {
		h.stored.Date = time.Unix(0, ns).UTC()
	}
	return h, nil
}

// visit is one fetch of an incremental crawl, from claim to completion.
type visit struct {
	hist  history
	first bool // no earlier successful visit
	queue *queueRevisit
	// Filled by record: what the fetch found and the URL's new history.
	status  revisit.Status
	encoded []byte
	embeds  bool // the page changed: revisit its embedded resources now
}

// begin prepares the visit of a claimed URL.
func (in *incremental) begin(cl *frontier.Claim) (*visit, error) {
	q, err := in.queue(cl.QueueKey)
	if err != nil {
		return nil, err
	}
	v := &visit{queue: q, first: cl.History == nil}
	if !v.first {
		if v.hist, err = decodeHistory(cl.History); err != nil {
			return nil, fmt.Errorf("%s: %w", cl.URL, err)
		}
	}
	return v, nil
}

// request makes the fetch conditional on the last capture's validators,
// and lets the response head stop the download when scheme 4 says
// "unchanged" and the host's headers have earned the trust to act on it.
func (in *incremental) request(v *visit, req *fetch.Request) {
	if v.hist.stored.RecordID == "" {
		return // nothing archived to refer to
	}
	if in.cfg.ConditionalRequests {
		if h := revisit.ConditionalHeaders(&v.hist.state); h != nil {
			req.IfNoneMatch, req.IfModifiedSince = h.Get("If-None-Match"), h.Get("If-Modified-Since")
		}
	}
	if in.cfg.AbortOnHeaders {
		req.SkipBody = func(status int, h http.Header) bool {
			if status != http.StatusOK {
				return false
			}
			p := revisit.Scheme4(&v.hist.state, status, h)
			v.queue.mu.Lock()
			defer v.queue.mu.Unlock()
			return in.cfg.MayAbort(p, v.queue.snap.Trust)
		}
	}
}

// notModified reports whether res confirms the last capture without a
// body: a 304, or a response whose download the headers stopped. It is
// archived as a server-not-modified revisit of that capture.
func (v *visit) notModified(res *fetch.Result) bool {
	return (res.Status == http.StatusNotModified || res.BodySkipped) && v.hist.stored.RecordID != "" && res.Response != nil
}

// observe compares what the fetch brought with the last capture, records
// the visit and schedules the next one; it returns the crawl.log
// annotation of the schedule. now is the crawl clock's time.
func (in *incremental) observe(v *visit, res *fetch.Result, now time.Time) (string, error) {
	st := &v.hist.state
	var vis revisit.Visit
	pred := revisit.Scheme4(st, res.Status, res.Header)
	switch {
	case v.notModified(res):
		vis.Status = revisit.Unchanged
	case res.Response != nil && res.Status > 0:
		body, err := bodyBytes(res)
		if err != nil {
			return "", err
		}
		vis = in.cfg.Detector.Compare(st, res.URL.Href, body)
	}
	if res.Header != nil {
		vis.ETag, vis.LastModified = res.Header.Get("ETag"), res.Header.Get("Last-Modified")
	}
	vis.At = now
	ev := in.cfg.Waits.For(res.URL.Host, res.MediaType)
	v.queue.mu.Lock()
	if vis.HasDigest && st.HasDigest {
		v.queue.snap.Trust.Record(pred, vis.Status)
	}
	var policy revisit.Policy = revisit.Adaptive{}
	if in.cfg.Policy == revisit.PolicyPoisson {
		policy = &v.queue.snap.Poisson
	}
	st.Record(vis, policy, ev)
	v.queue.mu.Unlock()
	v.status = vis.Status
	v.embeds = in.cfg.RevisitEmbeds(vis.Status)
	return revisit.Annotation(st), nil
}

// bodyBytes is the decoded body of a response, read into memory when it
// was spilled (it is bounded by the fetcher's MaxDecodedSize).
func bodyBytes(res *fetch.Result) ([]byte, error) {
	if res.Body == nil {
		return nil, nil
	}
	if b, ok := res.Body.Bytes(); ok {
		return b, nil
	}
	return io.ReadAll(res.Body.Reader())
}

// changeIRI is the mneme:changeStatus of a capture made by visit v.
func (v *visit) changeIRI() string {
	switch {
	case v.first && v.status != revisit.Unknown:
		return ontology.StatusNew
	case v.status == revisit.Changed:
		return ontology.StatusChanged
	case v.status == revisit.Unchanged:
		return ontology.StatusUnchanged
	}
	return ontology.StatusUnknown
}

// due is the time of the URL's next visit, not before now.
func (v *visit) due(now time.Time) time.Time {
	if d := v.hist.state.Due; d.After(now) {
		return d
	}
	return now
}

// revisited records a visit of an incremental crawl in its capture (change
// status, previous capture, the new schedule) and crawl.log annotations
// (the same schedule), and encodes the URL's new history for the frontier.
func (c *Crawl) revisited(v *visit, res *fetch.Result, capt *crawlrdf.Capture, annotations *[]string) error {
	note, err := c.inc.observe(v, res, c.clock.Now())
	if err != nil {
		return err
	}
	st := &v.hist.state
	capt.Change, capt.Previous = v.changeIRI(), v.hist.capture
	capt.Schedule = &crawlrdf.Schedule{Visits: int64(st.Visits), Versions: int64(st.Versions), Wait: st.Wait, Overdue: st.Overdue, Next: st.Due}
	v.hist.capture = capt.IRI
	// Heritrix writes the four parts as annotations of their own, so the
	// crawl.log field reads "wt:45s0ms,3vis,1ver,ov:3ms".
	*annotations = append(*annotations, strings.Split(note, ",")...)
	v.encoded, err = v.hist.encode()
	return err
}

// embeds returns the embedded resources (hop E) among a page's candidates.
func embeds(cands []frontier.Candidate) []string {
	var urls []string
	for _, cd := range cands {
		if strings.HasSuffix(cd.Hops, "E") {
			urls = append(urls, cd.URL)
		}
	}
	return urls
}

// parked takes a visited URL that is parked (failed or disregarded) out of
// its queue's revisit statistics, which go with its completion it.
func (in *incremental) parked(cl *frontier.Claim, it *item) error {
	if cl.History == nil || it.outcome.Status != frontier.Failed && it.outcome.Status != frontier.Disregarded {
		return nil
	}
	h, err := decodeHistory(cl.History)
	if err != nil {
		return err
	}
	q, err := in.queue(cl.QueueKey)
	if err != nil {
		return err
	}
	if in.cfg.Policy == revisit.PolicyPoisson {
		q.mu.Lock()
		q.snap.Poisson.Forget(&h.state)
		q.mu.Unlock()
	}
	it.queue = cl.QueueKey
	return nil
}
