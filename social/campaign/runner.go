package campaign

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/ratelimit"
	"github.com/mneme-archive/mneme/social/record"
	"github.com/mneme-archive/mneme/social/socialrdf"
)

// Runner runs one campaign: pass after pass, it asks each due (query,
// platform) pair's platform for its next page, and commits the page's
// posts, accounts and archived requests together with the pair's new
// checkpoint in one atomic batch (a bulk platform's pages in groups,
// bulkGroup), after the WARC records they name are durable. A run killed at any point resumes from the last committed
// checkpoints: the page being fetched is fetched again, nothing
// committed is fetched twice.
type Runner struct {
	Layout    Layout
	Spec      *Spec
	Store     *graph.Store
	Platforms map[string]platform.Platform
	Secrets   Secrets
	Agent     string            // IRI of the software, for the campaign's description; optional
	Transport http.RoundTripper // the network; nil: http.DefaultTransport
	// Links, when set, takes the links shared in each committed page, for
	// the campaign's linked crawl (options.linked-crawl); an error is
	// logged and the campaign goes on.
	Links func(ctx context.Context, crawl string, links []SharedLink) error

	mu       sync.Mutex
	pairs    []*pairState
	state    State
	pass     int64
	paused   bool
	stopping bool
	wake     chan struct{} // closed and replaced when paused or stopping changes
	errs     []string      // the last errors, newest last
	added    []Pair        // pairs added while running, for the run loop to take up
}

// maxErrs is how many of the last errors Status keeps.
const maxErrs = 10

// describedMax bounds the accounts and hashtags whose description a run
// remembers having stated (some 10 MB).
const describedMax = 1 << 16

// errStopped ends a run stopped or paused by the operator.
var errStopped = errors.New("campaign stopped")

// Pause makes the run stop after the page in flight; the campaign's
// state becomes Paused. Resume (in this process) or a new Run goes on.
func (r *Runner) Pause() { r.control(func() { r.paused = true }) }

// Resume undoes Pause.
func (r *Runner) Resume() { r.control(func() { r.paused = false }) }

// Stop ends the run after the page in flight; the campaign's state
// becomes Stopped.
func (r *Runner) Stop() { r.control(func() { r.stopping = true }) }

func (r *Runner) control(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f()
	if r.wake != nil {
		close(r.wake)
	}
	r.wake = make(chan struct{})
}

// AddPair adds a pair to the running campaign; the run takes it up in
// its current pass. The caller keeps the spec file.
func (r *Runner) AddPair(ctx context.Context, p Pair) error {
	if r.Platforms[p.Platform] == nil {
		return fmt.Errorf("platform %q is not available (have %v)", p.Platform, r.platformNames())
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.added = append(r.added, p)
	return nil
}

// Status is a campaign's progress.
type Status struct {
	ID       string       `json:"id"`
	State    string       `json:"state"`
	Reason   string       `json:"reason,omitempty"`
	Pass     int64        `json:"pass"`
	Posts    int64        `json:"posts"`
	Requests int64        `json:"requests"`
	Pairs    []PairStatus `json:"pairs"`
	// LastErrors are the run's last errors, newest last.
	LastErrors []string `json:"last-errors,omitempty"`
}

// Status reports the run's progress.
func (r *Runner) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Status{ID: r.Spec.ID, State: r.state.State, Reason: r.state.Reason, Pass: r.pass, LastErrors: slices.Clone(r.errs)}
	if r.paused && s.State == Running {
		s.State = Paused
	}
	for _, p := range r.pairs {
		ps := p.status()
		s.Posts += ps.Posts
		s.Requests += ps.Requests
		s.Pairs = append(s.Pairs, ps)
	}
	return s
}

// hold waits while the run is paused; it returns errStopped when the run
// is to stop, and ctx's error when ctx ends. Before it waits or stops it
// commits the run's group of bulk pages.
func (r *Runner) hold(ctx context.Context, ru *run) error {
	for {
		r.mu.Lock()
		paused, stopping, wake := r.paused, r.stopping, r.wake
		if wake == nil {
			r.wake = make(chan struct{})
			wake = r.wake
		}
		r.mu.Unlock()
		if !paused && !stopping {
			return ctx.Err()
		}
		if err := r.flush(ctx, ru); err != nil {
			return err
		}
		if stopping {
			return errStopped
		}
		if err := r.setState(State{State: Paused}); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
		}
		if err := r.setState(State{State: Running}); err != nil {
			return err
		}
	}
}

// sleep waits d, or less when the run is paused, stopped or cancelled.
func (r *Runner) sleep(ctx context.Context, ru *run, d time.Duration) error {
	r.mu.Lock()
	if r.wake == nil {
		r.wake = make(chan struct{})
	}
	wake := r.wake
	r.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-wake:
		return r.hold(ctx, ru)
	case <-t.C:
		return nil
	}
}

func (r *Runner) setState(s State) error {
	r.mu.Lock()
	r.state = s
	r.mu.Unlock()
	return r.Layout.WriteState(r.Spec.ID, s)
}

// limiters hands out the rate limiter of each (platform, credential),
// shared by every campaign of the process that uses the credential, as
// the platform counts its requests.
var limiters ratelimit.Registry

// limit is where each platform's requests pass its credential's rate
// limiter (package social/ratelimit: the platform's rate-limit headers,
// 429 and 5xx waited out, a request budget) on their way to the
// recorder, which so archives every attempt, a refused one included.
func limit(next http.RoundTripper, platformName string, credentials map[string]string) http.RoundTripper {
	return limiters.For(platformName, credentials).Transport(next)
}

// run is one run's open files and clients.
type run struct {
	log     *slog.Logger
	red     *record.Redactor
	rec     *record.Recorder
	warcs   *warc.Writer
	rdf     *socialrdf.Writer
	clients map[string]*http.Client
	ua      string
	quads   []rdf.Quad // a page's statements, the slice reused
	bulk    *bulkGroup // pages of bulk platforms not yet committed
}

// Run runs the campaign until its passes are done or its budget spent
// (state Done), the operator pauses or stops it (Paused, Stopped), or ctx
// ends (state left Running: the next Run resumes). It returns nil in the
// first two cases.
func (r *Runner) Run(ctx context.Context) (err error) {
	id := r.Spec.ID
	if err := r.Spec.Check(); err != nil {
		return err
	}
	for _, p := range r.Spec.Pairs {
		if r.Platforms[p.Platform] == nil {
			return fmt.Errorf("campaign %s: platform %q is not available (have %v)", id, p.Platform, r.platformNames())
		}
	}
	warcDir := r.Layout.WARCs(id)
	if err := os.MkdirAll(warcDir, 0o755); err != nil {
		return err
	}
	if _, err := warc.Recover(warcDir); err != nil {
		return fmt.Errorf("campaign %s: readying its WARC files: %w", id, err)
	}
	logFile, err := os.OpenFile(r.Layout.Log(id), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	ru := &run{red: record.NewRedactor(r.Secrets.Values()...), clients: map[string]*http.Client{}}
	ru.log = slog.New(slog.NewJSONHandler(redactingWriter{logFile, ru.red}, nil)).With("campaign", id)
	ru.rdf = socialrdf.NewWriter(id, ru.red.String)
	// Every page's statements are committed in order, or the run ends.
	ru.rdf.Remember(describedMax)
	ua := r.Spec.UserAgent
	if ua == "" {
		ua = DefaultUserAgent
	}
	ru.warcs, err = warc.NewWriter(warc.Config{Dir: warcDir, Prefix: "MNEME-SOCIAL", CrawlID: id, GroupSync: true,
		Info: warc.Info{Software: "mneme", UserAgent: ua, Description: "social campaign " + id}})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := ru.warcs.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	next := r.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	ru.rec = record.NewRecorder(next, ru.warcs, ru.red)
	ru.ua = ua
	defer ru.abandon() // what a failed or cancelled run did not commit

	pairs, err := loadPairs(ctx, r.Store, r.Spec)
	if err != nil {
		return fmt.Errorf("campaign %s: reading its state: %w", id, err)
	}
	r.mu.Lock()
	r.pairs = pairs
	r.mu.Unlock()
	if err := r.begin(ctx, ru); err != nil {
		return err
	}
	if err := r.setState(State{State: Running}); err != nil {
		return err
	}
	ru.log.Info("campaign started", "pairs", len(pairs))
	err = r.passes(ctx, ru)
	switch {
	case errors.Is(err, errStopped):
		r.mu.Lock()
		paused := r.paused && !r.stopping
		r.mu.Unlock()
		if paused {
			ru.log.Info("campaign paused")
			return r.setState(State{State: Paused})
		}
		ru.log.Info("campaign stopped")
		return r.end(ctx, ru, State{State: Stopped, Reason: "stopped by the operator"})
	case err != nil:
		if ctx.Err() == nil {
			ru.log.Error("campaign failed", "error", ru.red.String(err.Error()))
		}
		return err
	}
	return nil
}

func (r *Runner) platformNames() []string {
	var out []string
	for n := range r.Platforms {
		out = append(out, n)
	}
	return out
}

// begin writes the campaign's description and its spec's pairs, once.
func (r *Runner) begin(ctx context.Context, ru *run) error {
	b := r.Store.NewBatch()
	var keywords []string
	for _, p := range r.pairs {
		if p.Parent == "" {
			keywords = append(keywords, p.Query.Text)
		}
	}
	started := time.Now()
	resumed := r.hasStart(ctx)
	for _, q := range socialrdf.Campaign(r.Spec.ID, r.Agent, started, keywords) {
		// The start time of a resumed campaign is its first one.
		if q.P.Value == ontology.ProvStartedAtTime && resumed {
			continue
		}
		b.Add(q)
	}
	for _, p := range r.pairs {
		for _, q := range socialrdf.PairQuads(r.Spec.ID, p.Pair) {
			b.Add(q)
		}
	}
	_, err := b.Commit(ctx)
	return err
}

// hasStart reports whether the campaign's start is recorded.
func (r *Runner) hasStart(ctx context.Context) bool {
	rows, err := selectRows(ctx, r.Store, fmt.Sprintf(`SELECT ?t WHERE { GRAPH <%[1]s> { <%[1]s> <%[2]s> ?t } }`, socialrdf.CampaignIRI(r.Spec.ID), ontology.ProvStartedAtTime))
	return err == nil && len(rows) > 0
}

// end records the campaign's end and final state.
func (r *Runner) end(ctx context.Context, ru *run, s State) error {
	if err := r.flush(ctx, ru); err != nil {
		return err
	}
	b := r.Store.NewBatch()
	b.Add(socialrdf.Ended(r.Spec.ID, time.Now()))
	if _, err := b.Commit(ctx); err != nil {
		return err
	}
	ru.log.Info("campaign ended", "state", s.State, "reason", s.Reason)
	return r.setState(s)
}

// passes runs passes until the campaign is done.
func (r *Runner) passes(ctx context.Context, ru *run) error {
	r.mu.Lock()
	pass := int64(1)
	for _, p := range r.pairs {
		pass = max(pass, p.cp.Pass)
	}
	r.pass = pass
	r.mu.Unlock()
	passStart := time.Now()
	for {
		if err := r.hold(ctx, ru); err != nil {
			return err
		}
		if err := r.takeAdded(ctx, ru); err != nil {
			return err
		}
		if reason := r.spent(); reason != "" {
			return r.end(ctx, ru, State{State: Done, Reason: reason})
		}
		var due []*pairState
		r.mu.Lock()
		for _, p := range r.pairs {
			if p.due(pass) {
				due = append(due, p)
			}
		}
		r.mu.Unlock()
		if len(due) == 0 {
			every := time.Duration(r.Spec.Schedule.Every)
			if every == 0 || (r.Spec.Schedule.Passes > 0 && pass >= r.Spec.Schedule.Passes) {
				return r.end(ctx, ru, State{State: Done, Reason: fmt.Sprintf("%d pass(es) run", pass)})
			}
			ru.log.Info("pass done", "pass", pass, "next", passStart.Add(every).UTC().Format(time.RFC3339))
			if err := r.flush(ctx, ru); err != nil {
				return err
			}
			if err := r.sleep(ctx, ru, time.Until(passStart.Add(every))); err != nil {
				return err
			}
			pass++
			passStart = time.Now()
			r.mu.Lock()
			r.pass = pass
			r.mu.Unlock()
			continue
		}
		for _, p := range due {
			if err := r.hold(ctx, ru); err != nil {
				return err
			}
			if r.spent() != "" {
				break
			}
			if err := r.page(ctx, ru, p, pass); err != nil {
				return err
			}
		}
	}
}

// takeAdded takes up the pairs AddPair added.
func (r *Runner) takeAdded(ctx context.Context, ru *run) error {
	r.mu.Lock()
	added := r.added
	r.added = nil
	r.mu.Unlock()
	if len(added) == 0 {
		return nil
	}
	if err := r.flush(ctx, ru); err != nil {
		return err
	}
	have := map[string]bool{}
	for _, p := range r.pairs {
		have[p.IRI] = true
	}
	b := r.Store.NewBatch()
	var fresh []*pairState
	for _, a := range added {
		if r.Platforms[a.Platform] == nil {
			ru.log.Error("query not added: no such platform", "platform", a.Platform)
			continue
		}
		spec := &Spec{Window: r.Spec.Window, Platforms: r.Spec.Platforms, Pairs: []Pair{a}}
		q := spec.Query(0)
		p := &pairState{Pair: socialrdf.Pair{IRI: socialrdf.PairIRI(r.Spec.ID, a.Platform, q.Kind, q.Text), Platform: a.Platform, Query: q, Base: spec.Base(0)}}
		if have[p.IRI] {
			continue
		}
		have[p.IRI] = true
		for _, q := range socialrdf.PairQuads(r.Spec.ID, p.Pair) {
			b.Add(q)
		}
		fresh = append(fresh, p)
		ru.log.Info("query added by the operator", "platform", a.Platform, "kind", a.Kind, "query", a.Query)
	}
	if _, err := b.Commit(ctx); err != nil {
		return err
	}
	r.mu.Lock()
	r.pairs = append(r.pairs, fresh...)
	r.mu.Unlock()
	return nil
}

// spent says why the budget is spent, or "".
func (r *Runner) spent() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var reqs, posts int64
	for _, p := range r.pairs {
		reqs += p.cp.Requests
		posts += p.cp.Posts
	}
	b := r.Spec.Budget
	switch {
	case b.Requests > 0 && reqs >= b.Requests:
		return fmt.Sprintf("request budget spent (%d requests)", reqs)
	case b.Posts > 0 && posts >= b.Posts:
		return fmt.Sprintf("post budget spent (%d posts)", posts)
	}
	return ""
}

func (r *Runner) client(ru *run, name string) *http.Client {
	c := ru.clients[name]
	if c == nil {
		// The timeout covers the limiter's waits too: longer than the
		// longest of them (16 min, for Twitter's 15 min windows).
		c = &http.Client{Transport: limit(userAgent{ru.rec, ru.ua}, name, r.Secrets[name]), Timeout: 20 * time.Minute}
		ru.clients[name] = c
	}
	return c
}

// page fetches and commits the next page of pair p in pass.
func (r *Runner) page(ctx context.Context, ru *run, p *pairState, pass int64) error {
	plat := r.Platforms[p.Platform]
	if plat == nil {
		return fmt.Errorf("platform %q of pair %s is not available", p.Platform, p.IRI)
	}
	log := ru.log.With("pair", p.Platform+" "+string(p.Query.Kind)+" "+p.Query.Text)
	env := platform.Env{HTTP: r.client(ru, p.Platform), Record: ru.rec.Resource, Credentials: r.Secrets[p.Platform],
		Base: p.Base, Log: log}
	cursor := p.cp.Cursor
	page, ferr := plat.Fetch(ctx, env, p.Query, cursor)
	exs := ru.rec.Take()
	for _, ex := range exs {
		attrs := []any{"method", ex.Method, "url", ex.URL, "status", ex.Status, "bytes", ex.Bytes,
			"ms", ex.Duration.Milliseconds(), "record", ex.RecordID}
		if ex.Err != "" || ex.Status >= 400 {
			log.Warn("request", append(attrs, "error", ex.Err)...)
		} else {
			log.Info("request", attrs...)
		}
	}
	if ferr != nil && ctx.Err() != nil {
		return ctx.Err() // cut short: fetched again on resume
	}
	cp := p.cp
	cp.Seq++
	cp.Requests += int64(len(exs))
	cp.At = time.Now()
	if cp.Pass < pass {
		cp.Pass, cp.Done = pass, false
	}
	quads := ru.quads[:0]
	defer func() { ru.quads = quads[:0] }()
	for _, ex := range exs {
		if ex.RecordID != "" {
			quads = ru.rdf.Capture(quads, r.Spec.ID, socialrdf.Capture{Record: ex.RecordID, URL: ex.URL, Status: ex.Status, At: ex.Date, File: ex.File, Offset: ex.Offset})
		}
	}
	var wait time.Duration
	var links []string
	kept := int64(-1) // posts of a page fetched; -1 for a failed fetch
	if ferr != nil {
		msg := ru.red.String(ferr.Error())
		r.mu.Lock()
		p.errors++
		p.allErrors++
		p.lastErr = msg
		errs := p.errors
		r.errs = append(r.errs, p.Platform+" "+string(p.Query.Kind)+" "+p.Query.Text+": "+msg)
		if len(r.errs) > maxErrs {
			r.errs = r.errs[len(r.errs)-maxErrs:]
		}
		r.mu.Unlock()
		retries := r.Spec.Options.RetryErrors
		if retries == 0 {
			retries = 2
		}
		if errors.Is(ferr, platform.ErrUnsupported) || errs > retries {
			log.Error("page failed; pair left for this pass", "error", msg, "attempts", errs)
			cp.Done = true
		} else {
			log.Error("page failed; will retry", "error", msg, "attempt", errs)
			delay := time.Duration(r.Spec.Options.RetryDelay)
			if delay == 0 {
				delay = 2 * time.Second
			}
			wait = delay << (errs - 1)
		}
	} else {
		r.mu.Lock()
		p.errors = 0
		r.mu.Unlock()
		cp.Cursor, cp.Done = page.Cursor, page.Done
		if page.Cursor == nil && !page.Done {
			log.Warn("platform returned no cursor for a page that is not the last; pair left for this pass")
			cp.Done = true
		}
		var n int64
		var feed func([]rdf.Quad, bool) []rdf.Quad // a bulk page's statements go on in chunks
		if bulkPosts(plat) > 0 {
			feed = func(q []rdf.Quad, accounts bool) []rdf.Quad { return r.feed(ctx, ru, p, q, accounts, log) }
		}
		quads, n, links = r.pageQuads(quads, ru, p, &page, exs, feed)
		cp.Posts += n
		quads = r.derive(quads, ru, p, page.More, log)
		kept = n
	}
	quads = append(quads, socialrdf.CheckpointQuads(r.Spec.ID, p.IRI, cp)...)
	if limit := bulkPosts(plat); limit > 0 && ferr == nil {
		var err error
		quads, err = r.addBulk(ctx, ru, p, quads, cp, kept, links, limit, log)
		return err
	}
	if err := r.flush(ctx, ru); err != nil {
		return err
	}
	if err := ru.warcs.Sync(); err != nil {
		return fmt.Errorf("making the WARC records durable: %w", err)
	}
	b := r.Store.NewBatch()
	for _, q := range quads {
		if err := b.TryAdd(q); err != nil {
			log.Warn("statement left out", "error", ru.red.String(err.Error()))
		}
	}
	if _, err := b.Commit(ctx); err != nil {
		ru.rdf.Forget()
		return fmt.Errorf("committing a page of %s: %w", p.IRI, err)
	}
	r.mu.Lock()
	p.cp = cp
	r.mu.Unlock()
	if kept >= 0 {
		log.Info("page", "posts", kept, "done", cp.Done, "pass", cp.Pass) // committed
	}
	r.passLinks(ctx, log, links, ru)
	if wait > 0 {
		return r.sleep(ctx, ru, wait)
	}
	return nil
}

// passLinks hands the links of committed posts to the campaign's linked
// crawl, if it has one.
func (r *Runner) passLinks(ctx context.Context, log *slog.Logger, links []string, ru *run) {
	if !r.linksWanted() || len(links) == 0 {
		return
	}
	crawl := r.Spec.Options.LinkedCrawl
	shared, err := r.sharedLinks(ctx, links)
	if err == nil {
		err = r.Links(ctx, crawl, shared)
	}
	if err != nil {
		log.Warn("links not passed to the linked crawl", "crawl", crawl, "error", ru.red.String(err.Error()))
	} else {
		log.Info("links passed to the linked crawl", "crawl", crawl, "links", len(shared))
	}
}

// linksWanted reports whether the links shared in the campaign's posts
// are passed on, to its linked crawl: only then are they gathered.
func (r *Runner) linksWanted() bool { return r.Spec.Options.LinkedCrawl != "" && r.Links != nil }

// pageQuads appends the statements of a page's posts and accounts, and
// returns how many posts it kept (those in the pair's window) and the
// links they share, when the campaign passes them on. With feed, it
// hands its statements on to feed in chunks of about chunkQuads (saying
// whether they are the accounts'), going on with the buffer feed returns.
func (r *Runner) pageQuads(dst []rdf.Quad, ru *run, p *pairState, page *platform.Page, exs []record.Exchange, feed func([]rdf.Quad, bool) []rdf.Quad) ([]rdf.Quad, int64, []string) {
	if feed == nil {
		// A post makes some 20 to 25 statements: room for them at
		// once, not by doubling (a page may hold tens of thousands).
		dst = slices.Grow(dst, 24*len(page.Posts))
	}
	chunk := func(accounts bool) {
		if feed != nil && len(dst) >= chunkQuads {
			dst = feed(dst, accounts)
		}
	}
	// The record a post came from: the exchange its Source names, else
	// the page's last successful one.
	fallback := ""
	for _, ex := range exs {
		if ex.RecordID != "" && ex.Status < 300 {
			fallback = ex.RecordID
		}
	}
	recordOf := func(src string) string {
		if src == "" {
			return fallback
		}
		for i := len(exs) - 1; i >= 0; i-- {
			if exs[i].Sent(src) && exs[i].RecordID != "" {
				return exs[i].RecordID
			}
		}
		if strings.HasPrefix(src, "urn:uuid:") {
			return src // a record id from Env.Record
		}
		return fallback
	}
	query := ""
	if p.Query.Kind == platform.ByKeyword || p.Query.Kind == platform.ByHashtag {
		query = p.Query.Text
	}
	now := time.Now()
	var kept int64
	// met holds, by IRI, the index in accs of each account the page
	// names: one lookup finds whether it was described as an author (and
	// from which record) and whether it was observed.
	met := make(map[string]int, len(page.Accounts))
	accs := make([]metAccount, 0, len(page.Accounts))
	wantLinks := r.linksWanted()
	linked := map[string]bool{}
	var links []string
	for i := range page.Posts {
		post := &page.Posts[i]
		if post.Platform == "" {
			post.Platform = p.Platform
		}
		if !post.Created.IsZero() && ((!p.Query.Since.IsZero() && post.Created.Before(p.Query.Since)) ||
			(!p.Query.Until.IsZero() && !post.Created.Before(p.Query.Until))) {
			continue
		}
		rec := recordOf(post.Source)
		dst = ru.rdf.Post(dst, post, socialrdf.Sighting{Record: rec, At: now, Query: query})
		kept++
		for _, l := range post.Links {
			if wantLinks && !linked[l] && webURL(l) {
				linked[l] = true
				links = append(links, ru.red.String(l))
			}
		}
		a := post.Author
		if a.Platform == "" {
			a.Platform = post.Platform
		}
		if iri := socialrdf.AccountIRI(&a); iri != "" && !hasKey(met, iri) {
			met[iri] = len(accs)
			// As an author the account is named, not observed: its
			// counts come with Page.Accounts.
			a.Followers, a.Following, a.Posts = -1, -1, -1
			var stated socialrdf.Stated
			dst, stated = ru.rdf.AccountStated(dst, &a, socialrdf.Sighting{Record: rec, At: now}, socialrdf.Stated{})
			accs = append(accs, metAccount{rec: rec, stated: stated})
		}
		chunk(false)
	}
	for i := range page.Accounts {
		a := page.Accounts[i]
		if a.Platform == "" {
			a.Platform = p.Platform
		}
		iri := socialrdf.AccountIRI(&a)
		if iri == "" {
			continue
		}
		var m metAccount
		if k, ok := met[iri]; !ok {
			met[iri] = len(accs)
			accs = append(accs, metAccount{observed: true})
		} else if accs[k].observed {
			continue
		} else {
			accs[k].observed = true
			m = accs[k]
		}
		rec := m.rec
		if rec == "" {
			rec = fallback
		}
		dst, _ = ru.rdf.AccountStated(dst, &a, socialrdf.Sighting{Record: rec, At: now}, m.stated)
		chunk(true)
	}
	return dst, kept, links
}

// metAccount is an account a page names: the record of the first of its
// posts and its description as stated then, if it wrote one, and whether
// its observation was given.
type metAccount struct {
	rec      string
	stated   socialrdf.Stated
	observed bool
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// webURL reports whether s is an http(s) URL that an IRI can name: the
// common shapes at sight (plainWebURL), the others parsed.
func webURL(s string) bool { return plainWebURL(s) || parsedWebURL(s) }

// parsedWebURL is webURL by parsing s.
func parsedWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !strings.ContainsAny(s, notInIRI)
}

// notInIRI are the printable ASCII bytes that an IRI does not hold.
const notInIRI = " <>\"{}|^`"

// plainWebURL reports whether s has the shape of most shared links, for
// which parsedWebURL is true: "http://" or "https://" (the scheme in any
// case), a host of ASCII letters, digits, '.', '-', '_' and '~' with an
// optional port of digits, then nothing or '/', '?' or '#' and bytes that
// are neither controls nor in notInIRI, each '%' followed by two hex
// digits. url.Parse takes such an s with its scheme and host (the path,
// query and fragment cannot fail to unescape). For any other s it is
// false, and parsing decides.
func plainWebURL(s string) bool {
	i := 0
	switch {
	case hasPrefixFold(s, "http://"):
		i = 7
	case hasPrefixFold(s, "https://"):
		i = 8
	default:
		return false
	}
	host := i
	for i < len(s) && hostByte(s[i]) {
		i++
	}
	if i == host {
		return false
	}
	if i < len(s) && s[i] == ':' {
		for i++; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		}
	}
	if i < len(s) && s[i] != '/' && s[i] != '?' && s[i] != '#' {
		return false
	}
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			if i+2 >= len(s) || !hexByte(s[i+1]) || !hexByte(s[i+2]) {
				return false
			}
			i += 2
		case c <= ' ' || c == 0x7f || strings.IndexByte(notInIRI, c) >= 0:
			return false
		}
	}
	return true
}

// hasPrefixFold reports whether s begins with prefix, which is in lower
// case, its ASCII letters in either case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := range len(prefix) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

func hostByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_' || c == '~'
}

func hexByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// derive adds the queries a platform's strategy proposes, as its budget
// (options.follow) allows.
func (r *Runner) derive(dst []rdf.Quad, ru *run, parent *pairState, more []platform.Query, log *slog.Logger) []rdf.Quad {
	r.mu.Lock()
	defer r.mu.Unlock()
	have := map[string]bool{}
	for _, p := range r.pairs {
		have[p.IRI] = true
	}
	for _, q := range more {
		if countDerived(r.pairs) >= r.Spec.Options.Follow {
			break
		}
		iri := socialrdf.PairIRI(r.Spec.ID, parent.Platform, q.Kind, q.Text)
		if have[iri] {
			continue
		}
		have[iri] = true
		if q.Since.IsZero() && q.Until.IsZero() {
			q.Since, q.Until = parent.Query.Since, parent.Query.Until
		}
		np := &pairState{Pair: socialrdf.Pair{IRI: iri, Platform: parent.Platform, Query: q, Base: parent.Base, Parent: parent.IRI}}
		dst = append(dst, socialrdf.PairQuads(r.Spec.ID, np.Pair)...)
		r.pairs = append(r.pairs, np)
		log.Info("query added", "kind", string(q.Kind), "query", ru.red.String(q.Text))
	}
	return dst
}

func countDerived(pairs []*pairState) int {
	n := 0
	for _, p := range pairs {
		if p.Parent != "" {
			n++
		}
	}
	return n
}

// userAgent sets the campaign's User-Agent on requests that have none of
// their own.
type userAgent struct {
	next http.RoundTripper
	ua   string
}

func (u userAgent) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("User-Agent") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("User-Agent", u.ua)
	}
	return u.next.RoundTrip(req)
}

// redactingWriter removes secrets from each log line.
type redactingWriter struct {
	w   io.Writer
	red *record.Redactor
}

func (rw redactingWriter) Write(p []byte) (int, error) {
	if _, err := rw.w.Write(rw.red.Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
