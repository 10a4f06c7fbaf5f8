package crawler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/clock"
	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/fetch"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/robots"
	"github.com/mneme-archive/mneme/crawler/scope"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/graph"
)

// Deps are what a crawl runs with besides its specification.
type Deps struct {
	Store *graph.Store // the data folder's store; required
	// Clock is the crawl's time for politeness, retries and robots.txt
	// expiry (default the system clock). With a *clock.Virtual the crawl
	// jumps the clock to the next ready queue whenever nothing is in flight,
	// so tests run politeness schedules without sleeping.
	Clock clock.Clock
	// Analyzer, when set, reads every fetched page in place of the
	// standard HTML and CSS link extractor: the application-aware crawler
	// (package kb/aah) follows the links its knowledge base names and
	// describes the objects it extracts.
	Analyzer Analyzer
	// Focus builds the Focuser of a crawl whose spec has a focus section
	// (package analysis/focus); such a crawl cannot open without it.
	Focus FocusFunc
	// OnFetch, when set, is called after every finished URL, from the
	// worker that fetched it; it must be quick.
	OnFetch func(Fetch)
	// BeforeClose, when set, is called once when Run has stopped crawling
	// and committed its last batch, before it closes the crawl's files
	// (frontier, digest index, WARC files, crawl.log): mneme crawl
	// --memprofile writes its heap profile there, while all the crawl's
	// structures are still live.
	BeforeClose func()
	Log         io.Writer    // warnings and recovery notes; default discarded
	Version     string       // software version, for warcinfo and the crawl's agent
	Fetch       fetch.Config // fetcher settings; UserAgent comes from the spec

	// Cluster, when set, makes the crawl one node of a cluster that runs
	// it together (see Cluster): links go to the node owning their domain,
	// each URL is fetched by one node, each IP by one node at a time, and
	// the crawl ends when the whole cluster has nothing left.
	Cluster Cluster
}

// Crawl is one crawl, opened from its folder. Run it once, then it is closed.
type Crawl struct {
	id     string
	layout Layout
	spec   *spec.Spec // as opened: Edit changes only seeds and scope, kept in shown
	shown  *spec.Spec // the specification with the edits made while open
	deps   Deps
	clock  clock.Clock
	canon  *canon.Canonicalizer
	scope  atomic.Pointer[scope.Scope] // replaced by Edit
	seeds  []canon.URL
	update frontier.UpdateFunc
	token  string // robots.txt product token

	front   *frontier.Frontier
	inc     *incremental // nil unless the crawl is incremental
	fetcher *fetch.Fetcher
	warcs   *warc.Writer
	dedup   *digests
	seedw   *seedWatch
	http    *session // the spec's headers, cookies and login; nil without
	earlier *earlier // nil when the data folder holds no earlier crawl
	logFile *os.File
	log     *crawllog.Writer
	robots  *robots.Cache
	extract *extract.Standard
	focus   Focuser // nil unless the spec has a focus section
	// focusPages counts the pages whose scored links wait for the
	// frontier's next seen pass (focusApply).
	focusPages    atomic.Int64
	focusFlushing flushState

	failing failures // retriable errors in a row per queue
	// wlogs holds, per worker, the crawl.log lines of the URL it is
	// processing, which go with its items to the RDF writer and are
	// written once their records are durable and their captures committed.
	wlogs         [][]crawllog.Entry
	pending       uncommitted // captures written to WARC files, not yet committed
	committedMark string      // the committed mark last written (durable.go)

	robotsMu    sync.Mutex
	robotsCalls map[string]*robotsCall // sites whose robots.txt is being fetched

	counters counters
	st       state
	stMu     sync.Mutex
	runStart time.Time // wall time the current Run began

	claimMu  sync.Mutex // held from the pause check to counting the claim in flight
	mu       sync.Mutex
	paused   bool
	running  bool
	cancel   context.CancelCauseFunc
	closed   bool
	closeMu  sync.RWMutex // held for reading by hold, so Close waits for injections and hand-overs
	inFlight int64        // claimed, not completed
	wake     chan struct{}
}

// errStopped is the cause given to the run context by Stop; it is a
// cancellation, so the fetcher reports fetches it cuts as such.
var errStopped = fmt.Errorf("crawl stopped: %w", context.Canceled)

// seenBatch is the frontier's seen-set batch: workers schedule a page's
// links at a time, and each pass also walks the seen set's index, so the
// frontier's default of 65,536 candidates (under a thousand pages here)
// made passes twice as many as when the RDF writer scheduled a whole batch.
const seenBatch = 1 << 17

// New creates the crawl described by s in its data folder s.Output and
// schedules its seeds. It fails with ErrExists if the crawl's folder
// exists.
func New(s *spec.Spec, d Deps) (*Crawl, error) {
	if s.Output == "" {
		return nil, errors.New("crawl: no data folder (spec output)")
	}
	now := time.Now()
	if d.Clock != nil {
		now = d.Clock.Now()
	}
	if s.ID == "" {
		s.ID = spec.NewID(time.Now())
	}
	if _, err := s.Check(canon.New(canon.Options{})); err != nil {
		return nil, err
	}
	l := Layout{Data: s.Output}
	if err := os.MkdirAll(l.Crawls(), 0o755); err != nil {
		return nil, err
	}
	if err := os.Mkdir(l.Crawl(s.ID), 0o755); err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("crawl %s: %w", s.ID, ErrExists)
		}
		return nil, err
	}
	data, err := s.Marshal()
	if err != nil {
		return nil, err
	}
	if err := replaceFile(l.Spec(s.ID), data, true); err != nil {
		return nil, err
	}
	c, err := open(s, d, state{ID: s.ID, State: StateStopped, Started: now})
	if err != nil {
		return nil, err
	}
	if err := c.start(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// start schedules the seeds and writes the crawl's description.
func (c *Crawl) start() error {
	cands := make([]frontier.Candidate, len(c.seeds))
	for i, u := range c.seeds {
		cands[i] = frontier.Candidate{URL: u.Canonical, QueueKey: u.HostKey(), Score: 1}
	}
	sites := map[string]bool{}
	for _, u := range c.seeds {
		if site := siteOf(u); !sites[site] {
			sites[site] = true
			cands = append(cands, c.sitemapCandidates(site, nil, u.Href)...)
		}
	}
	cands, sent, err := c.route(cands)
	if err != nil {
		return err
	}
	if err := c.front.Schedule(cands); err != nil {
		return err
	}
	if err := c.front.Sync(); err != nil {
		return err
	}
	if err := sent(); err != nil {
		return err
	}
	cr := crawlrdf.Crawl{
		ID: c.id, Seeds: c.spec.Seeds, UserAgent: c.spec.UserAgent, Scope: scopeSummary(c.spec),
		MaxHops: c.spec.Scope.MaxHops, MaxPages: c.spec.Limits.Pages, Version: c.deps.Version, Started: c.st.Started,
	}
	b := c.deps.Store.NewBatch()
	for _, q := range cr.Quads() {
		b.Add(q)
	}
	if _, err := b.Commit(context.Background()); err != nil {
		return fmt.Errorf("writing the crawl's description: %w", err)
	}
	if pub, ok := c.deps.Cluster.(RDFSink); ok {
		if err := pub.PublishRDF(cr.Quads()); err != nil {
			return fmt.Errorf("sending the crawl's description to the cluster's store: %w", err)
		}
	}
	return writeState(c.layout.State(c.id), c.st)
}

// scopeSummary is the mneme:scope text of a crawl.
func scopeSummary(s *spec.Spec) string {
	var parts []string
	sc := s.Scope
	for _, r := range []struct {
		on   bool
		name string
	}{{sc.SeedSURTs, "seed SURT prefixes"}, {sc.SeedHosts, "seed hosts"}, {sc.SeedDomains, "seed domains"}} {
		if r.on {
			parts = append(parts, r.name)
		}
	}
	for _, p := range sc.SURTPrefixes {
		parts = append(parts, "prefix "+p)
	}
	for _, p := range sc.Include {
		parts = append(parts, "include "+p)
	}
	for _, p := range sc.Exclude {
		parts = append(parts, "exclude "+p)
	}
	return strings.Join(parts, "; ")
}

// Open reopens crawl id of data folder data to resume it: WARC files left
// open by a crash are repaired, captures pointing into their cut-off parts
// are dropped from the store, a half-written crawl.log line is cut, and the
// URLs that were in flight go back to their queues.
func Open(data, id string, d Deps) (*Crawl, error) {
	l := Layout{Data: data}
	st, err := readState(l.State(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no crawl %q in %s", id, data)
	}
	if err != nil {
		return nil, err
	}
	if st.State == StateFinished {
		return nil, fmt.Errorf("crawl %s: %w (%s)", id, ErrFinished, st.Reason)
	}
	s, err := spec.Load(l.Spec(id))
	if err != nil {
		return nil, err
	}
	s.Output, s.ID = data, id
	// A run that ended cleanly committed every record it wrote; one that
	// died (its state still says running) or failed may not have.
	crashed := st.State == StateRunning || st.State == StatePaused || strings.HasPrefix(st.Reason, "failed")
	orphans, err := recoverFiles(l, id, d, crashed)
	if err != nil {
		return nil, err
	}
	c, err := open(s, d, st)
	if err != nil {
		return nil, err
	}
	if len(orphans) > 0 {
		if err := c.abandon(orphans); err != nil {
			c.Close()
			return nil, fmt.Errorf("marking the WARC records a crash left uncommitted: %w", err)
		}
	}
	return c, nil
}

// recoverFiles readies the crawl's files after a crash and, when the last
// run crashed, returns the WARC records no capture names (durable.go).
func recoverFiles(l Layout, id string, d Deps, crashed bool) ([]orphan, error) {
	logw := d.Log
	if logw == nil {
		logw = io.Discard
	}
	if err := os.MkdirAll(l.WARCs(id), 0o755); err != nil {
		return nil, err
	}
	repaired, err := warc.Recover(l.WARCs(id))
	if err != nil {
		return nil, fmt.Errorf("repairing WARC files: %w", err)
	}
	var cuts []crawlrdf.Cut
	for _, r := range repaired {
		if r.Cut > 0 || r.Removed {
			fmt.Fprintf(logw, "repaired %s: %d records kept, %d bytes cut (%v)\n", r.Path, r.Records, r.Cut, r.Reason)
			size := int64(0)
			if fi, err := os.Stat(r.Path); err == nil {
				size = fi.Size()
			}
			cuts = append(cuts, crawlrdf.Cut{File: baseName(r.Path), Size: size, Removed: r.Removed})
		}
	}
	n, err := crawlrdf.Reconcile(context.Background(), d.Store, id, cuts)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		fmt.Fprintf(logw, "dropped %d captures whose WARC records were cut off\n", n)
	}
	if err := cutPartialLine(l.CrawlLog(id)); err != nil {
		return nil, err
	}
	if !crashed {
		return nil, nil
	}
	return findOrphans(context.Background(), l, id, d.Store)
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// cutPartialLine truncates a file after its last newline: a crash may leave
// half a crawl.log line.
func cutPartialLine(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	buf := make([]byte, 4096)
	end := size
	for end > 0 {
		n := min(int64(len(buf)), end)
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			end = end - n + int64(i) + 1
			break
		}
		end -= n
	}
	if end == size {
		return nil
	}
	return f.Truncate(end)
}

// open sets up the parts of a crawl whose folder and spec exist.
func open(s *spec.Spec, d Deps, st state) (c *Crawl, err error) {
	if d.Store == nil {
		return nil, errors.New("crawl: no store")
	}
	if d.Clock == nil {
		d.Clock = clock.System{}
	}
	if d.Log == nil {
		d.Log = io.Discard
	}
	if d.Version == "" {
		d.Version = "dev"
	}
	cn := canon.New(canon.Options{})
	seeds, err := s.Check(cn)
	if err != nil {
		return nil, err
	}
	sc, err := scope.New(s.ScopeConfig(), seeds, cn)
	if err != nil {
		return nil, err
	}
	l := Layout{Data: s.Output}
	c = &Crawl{
		id: s.ID, layout: l, spec: s, shown: s, deps: d, clock: d.Clock, canon: cn, seeds: seeds,
		update: s.UpdateFunc(), token: spec.ProductToken(s.UserAgent), st: st,
		extract:     extract.New(extract.Options{Canonicalizer: cn, MaxParagraph: -1}), // nothing reads paragraphs
		robotsCalls: map[string]*robotsCall{}, wake: make(chan struct{}, 1),
		seedw: newSeedWatch(seeds, d.Log),
		wlogs: make([][]crawllog.Entry, s.Workers+1),
	}
	c.scope.Store(sc)
	defer func() {
		if err != nil {
			c.Close()
		}
	}()
	if err := c.loadCounters(); err != nil {
		return nil, err
	}
	rc, incremental, err := s.RevisitConfig()
	if err != nil {
		return nil, err
	}
	c.front, err = frontier.Open(l.Frontier(s.ID), frontier.Options{
		Clock: d.Clock, NoSyncCompletions: true, QueuePolicy: c.queuePolicy, Incremental: incremental,
		SeenBatch: seenBatch,
	})
	if err != nil {
		return nil, err
	}
	if incremental {
		c.inc = newIncremental(rc, c.front, s)
	}
	if c.dedup, err = openDigests(l.Digests(s.ID), d.Log); err != nil {
		return nil, err
	}
	if c.earlier, err = newEarlier(l, s.ID, d.Store); err != nil {
		return nil, err
	}
	if c.http, err = newSession(s.HTTP); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(l.WARCs(s.ID), 0o755); err != nil {
		return nil, err
	}
	c.warcs, err = warc.NewWriter(warc.Config{
		Dir: l.WARCs(s.ID), Prefix: s.WARC.Prefix, CrawlID: s.ID, MaxSize: s.WARC.MaxSize,
		GroupSync: true, // the RDF writer syncs before each commit (sink.commit)
		Info: warc.Info{
			Software: "mneme/" + d.Version, Operator: s.UserAgent, RobotsPolicy: s.Robots,
			UserAgent: s.UserAgent, Description: "crawl " + s.ID + " of " + strings.Join(s.Seeds, " "),
		},
	})
	if err != nil {
		return nil, err
	}
	c.logFile, err = os.OpenFile(l.CrawlLog(s.ID), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	c.log = crawllog.NewWriter(c.logFile)
	fc := d.Fetch
	fc.UserAgent = s.UserAgent
	// The spec's fetch bounds, unless the program set its own.
	if fc.TotalTimeout == 0 {
		fc.TotalTimeout = time.Duration(s.Fetch.TotalTimeout)
	}
	if fc.MinRate == 0 {
		fc.MinRate, fc.MinRateWindow = s.Fetch.MinRate, time.Duration(s.Fetch.MinRateWindow)
	}
	if fc.MaxIdleConnsPerHost == 0 {
		// Without politeness every worker may fetch from one host at once:
		// keep a connection for each rather than dial anew.
		fc.MaxIdleConnsPerHost = max(fetch.DefaultMaxIdleConnsPerHost, s.Workers)
	}
	if c.fetcher, err = fetch.New(fc); err != nil {
		return nil, err
	}
	robotsRetry := time.Duration(s.Politeness.RetryDelay)
	if s.Politeness.Off {
		robotsRetry = min(robotsRetry, spec.OffRetryDelay) // loopback servers: retry soon
	}
	c.robots = robots.NewCache(c.token, robots.CacheConfig{RetryAfter: robotsRetry}, d.Clock)
	if s.Focus != nil {
		if d.Focus == nil {
			return nil, errors.New("crawl: the spec has a focus section, and this program offers no focus analysis")
		}
		c.extract = focusExtract(extract.Options{Canonicalizer: cn})
		if c.focus, err = d.Focus(c, d.Store); err != nil {
			return nil, fmt.Errorf("focus: %w", err)
		}
	}
	return c, nil
}

// queuePolicy gives a new queue its valence and budget.
func (c *Crawl) queuePolicy(key string) frontier.QueuePolicy {
	hp := c.spec.Politeness.For(key)
	v := int64(hp.Valence)
	if hp.Off {
		// A URL stays in flight until its RDF batch commits: let a queue
		// fill the workers and the batch, or it would wait for every commit.
		v = c.maxInFlight()
	}
	return frontier.QueuePolicy{Valence: v, Budget: c.spec.Limits.HostPages}
}

// loadCounters recomputes the fetch counters of earlier runs from crawl.log,
// which holds a line for every fetch whose WARC records were written.
func (c *Crawl) loadCounters() error { return c.counters.loadLog(c.layout.CrawlLog(c.id)) }

func hasAnnotation(as []string, a string) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}

// ID is the crawl's id.
func (c *Crawl) ID() string { return c.id }

// Spec is the crawl's specification, with the edits made while it is open
// (do not modify it).
func (c *Crawl) Spec() *spec.Spec {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.shown
}

// Dir is the crawl's folder.
func (c *Crawl) Dir() string { return c.layout.Crawl(c.id) }

// hold keeps Close waiting until release is called, so that the crawl's
// files stay open for an injection, a rescore or a hand-over under way;
// ok is false when the crawl is closed already (nothing to release).
func (c *Crawl) hold() (release func(), ok bool) {
	c.closeMu.RLock()
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		c.closeMu.RUnlock()
		return nil, false
	}
	return c.closeMu.RUnlock, true
}

// Close releases the crawl's files. Run closes them itself; Close is for a
// crawl that is not run after all.
func (c *Crawl) Close() error {
	c.closeMu.Lock() // waits for injections under way
	c.mu.Lock()
	done := c.closed
	c.closed = true
	c.mu.Unlock()
	c.closeMu.Unlock()
	if done {
		return nil
	}
	var errs []error
	if c.fetcher != nil {
		c.fetcher.Close()
	}
	if c.warcs != nil {
		errs = append(errs, c.warcs.Close())
	}
	if c.logFile != nil {
		errs = append(errs, c.logFile.Close())
	}
	if c.dedup != nil {
		errs = append(errs, c.dedup.close())
	}
	if c.front != nil {
		errs = append(errs, c.front.Close())
	}
	if c.focus != nil {
		errs = append(errs, c.focus.Close())
	}
	return errors.Join(errs...)
}
