package crawler

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/clock"
	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/sparql"
	"github.com/nlnwa/gowarc"
)

// changingSite serves pages whose content changes on a known schedule of
// the crawl's virtual clock: page path changes every period (0: never), and
// its version at time t is the number of periods since start. Pages with
// validators send ETag and Last-Modified and answer conditional requests
// with 304 when nothing changed.
type changingSite struct {
	clock *clock.Virtual
	start time.Time
	srv   *httptest.Server
	pages map[string]changingPage

	mu          sync.Mutex
	conditional int              // requests with If-None-Match or If-Modified-Since
	notModified int              // 304s sent
	served      map[string][]int // versions served with a body, by path
}

type changingPage struct {
	period     time.Duration
	mime       string
	validators bool
	body       func(version int) string
}

func newChangingSite(t *testing.T, vc *clock.Virtual) *changingSite {
	s := &changingSite{clock: vc, start: vc.Now(), served: map[string][]int{}}
	html := func(name string, links string) func(int) string {
		return func(v int) string {
			return fmt.Sprintf("<html><head><title>%s</title></head><body><p>%s version %d</p>%s</body></html>", name, name, v, links)
		}
	}
	s.pages = map[string]changingPage{
		"/": {period: 6 * time.Hour, mime: "text/html", validators: true,
			body: html("home", `<img src="/logo.png"><a href="/hourly">h</a> <a href="/daily">d</a> <a href="/static">s</a> <a href="/plain">p</a>`)},
		"/hourly":   {period: time.Hour, mime: "text/html", validators: true, body: html("hourly", "")},
		"/daily":    {period: 24 * time.Hour, mime: "text/html", validators: true, body: html("daily", "")},
		"/static":   {mime: "text/html", validators: true, body: html("static", "")},
		"/plain":    {mime: "text/html", body: html("plain", "")}, // no validators: revisits download
		"/logo.png": {mime: "image/png", body: func(int) string { return "\x89PNG a logo that never changes" }},
	}
	s.srv = httptest.NewServer(s) // on 127.0.0.1
	t.Cleanup(s.srv.Close)
	return s
}

func (s *changingSite) version(p changingPage) (int, time.Time) {
	if p.period == 0 {
		return 0, s.start
	}
	v := int(s.clock.Now().Sub(s.start) / p.period)
	return v, s.start.Add(time.Duration(v) * p.period)
}

func (s *changingSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, ok := s.pages[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	v, since := s.version(p)
	s.mu.Lock()
	defer s.mu.Unlock()
	inm, ims := r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since")
	if inm != "" || ims != "" {
		s.conditional++
	}
	if p.validators {
		etag := fmt.Sprintf(`"v%d"`, v)
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", since.UTC().Format(http.TimeFormat))
		if inm == etag {
			s.notModified++
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	s.served[r.URL.Path] = append(s.served[r.URL.Path], v)
	w.Header().Set("Content-Type", p.mime)
	fmt.Fprint(w, p.body(v))
}

func (s *changingSite) counts() (conditional, notModified int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conditional, s.notModified
}

// incrementalSpec is a spec for an incremental crawl of site with short
// waits, so that three days hold many revisits.
func incrementalSpec(t *testing.T, site *changingSite, policy string) *spec.Spec {
	s := testSpec(t, site.srv.URL+"/")
	s.Robots = "ignore"
	s.Workers = 2
	hour := spec.Duration(time.Hour)
	s.Incremental = &spec.Incremental{
		Policy: policy,
		Waits: []spec.WaitEvaluator{
			{Name: "image", ContentType: "^image/", Initial: 7 * 24 * hour, Min: hour, Max: 28 * 24 * hour, Default: 24 * hour, ChangedFactor: 1.5, UnchangedFactor: 1.5},
			{Name: "default", Initial: 2 * hour, Min: hour / 2, Max: 24 * hour, Default: 3 * hour, ChangedFactor: 1.5, UnchangedFactor: 1.5},
		},
	}
	return s
}

// runUntil runs a crawl until the virtual clock passes end, then pauses
// it and stops it once the fetches under way are committed.
func runUntil(t *testing.T, c *Crawl, vc *clock.Virtual, end time.Time) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Run(context.Background()) }()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return
		case <-tick.C:
			if vc.Now().After(end) {
				c.Pause()
				if c.Status().InFlight == 0 {
					c.Stop()
				}
			}
		}
	}
}

// warcCapture is a response or revisit record of the crawl's WARC files.
type warcCapture struct {
	id, kind, profile, refersTo string
	date                        time.Time
}

// warcCaptures reads the response and revisit records by target URL, in
// file order.
func warcCaptures(t *testing.T, data, id string) map[string][]warcCapture {
	t.Helper()
	out := map[string][]warcCapture{}
	for _, path := range warcFiles(t, data, id) {
		recs, err := warc.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if k := r.Type(); k == "response" || k == "revisit" {
				d, err := time.Parse(time.RFC3339Nano, r.Header.Get("WARC-Date"))
				if err != nil {
					t.Fatal(err)
				}
				out[r.Header.Get("WARC-Target-URI")] = append(out[r.Header.Get("WARC-Target-URI")], warcCapture{
					id: recordIRI(r.Header.Get("WARC-Record-ID")), kind: k, profile: r.Header.Get("WARC-Profile"),
					refersTo: recordIRI(r.Header.Get("WARC-Refers-To")), date: d,
				})
			}
		}
	}
	return out
}

// historyQuery is the query of docs/incremental.md for url.
func historyQuery(t *testing.T, url string) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/incremental.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- history-query -->\n```sparql\n")
	q, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/incremental.md: no history query")
	}
	return strings.Replace(q, "<http://example.org/>", "<"+url+">", 1)
}

type versionRow struct {
	capture, time, change, previous, record string
	visits, versions, wait, next            string // the schedule after the capture
}

func urlHistory(t *testing.T, st *graph.Store, url string) []versionRow {
	t.Helper()
	q, err := sparql.Prepare(historyQuery(t, url), sparql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := q.Exec(context.Background(), st.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows []versionRow
	for r.Next() {
		row := r.Row()
		v := versionRow{capture: row[0].Value, time: row[1].Value, change: row[2].Value}
		v.previous, v.record = row[3].Value, row[4].Value
		v.visits, v.versions, v.wait, v.next = row[5].Value, row[6].Value, row[7].Value, row[8].Value
		rows = append(rows, v)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

var scheduleNote = regexp.MustCompile(`(?:^|,)wt:([0-9dhms]+ms),([0-9]+)vis,([0-9]+)ver,ov:[0-9dhms]+ms$`)

// conventionalMS reads a duration written as Heritrix does ("1d2h3m4s5ms")
// as milliseconds.
func conventionalMS(t *testing.T, s string) int64 {
	t.Helper()
	units := map[string]int64{"d": 86400000, "h": 3600000, "m": 60000, "s": 1000, "ms": 1}
	var ms int64
	for _, m := range regexp.MustCompile(`([0-9]+)(ms|[dhms])`).FindAllStringSubmatch(s, -1) {
		var n int64
		fmt.Sscan(m[1], &n)
		ms += n * units[m[2]]
	}
	return ms
}

// checkSchedules checks that the schedule in RDF of each capture (the rows
// of its URL's history) is the one its crawl.log line annotates (the
// URL's lines with a status, in order), and that the next visit is due
// the wait after the capture.
func checkSchedules(t *testing.T, url string, rows []versionRow, lines []crawllog.Entry) {
	t.Helper()
	if len(lines) != len(rows) {
		t.Fatalf("%s: %d captures in RDF, %d crawl.log lines", url, len(rows), len(lines))
	}
	for i, row := range rows {
		m := scheduleNote.FindStringSubmatch(strings.Join(lines[i].Annotations, ","))
		if m == nil {
			t.Fatalf("%s visit %d: crawl.log annotations %v", url, i+1, lines[i].Annotations)
		}
		wantWait := conventionalMS(t, m[1])
		if row.visits != m[2] || row.versions != m[3] || row.wait != fmt.Sprintf("%d.%03d", wantWait/1000, wantWait%1000) {
			t.Errorf("%s visit %d: RDF %s visits, %s versions, wait %ss; crawl.log %v", url, i+1, row.visits, row.versions, row.wait, lines[i].Annotations)
		}
		at, err1 := time.Parse(time.RFC3339Nano, row.time)
		next, err2 := time.Parse(time.RFC3339Nano, row.next)
		// All three are written to the millisecond, truncated: they may
		// disagree by one.
		if d := next.Sub(at).Milliseconds() - wantWait; err1 != nil || err2 != nil || d < -1 || d > 1 {
			t.Errorf("%s visit %d: captured %s, next visit %s, wait %dms", url, i+1, row.time, row.next, wantWait)
		}
	}
}

// Three virtual days of an incremental crawl of a site whose pages change
// on a known schedule: changes are captured as response records, unchanged
// visits as revisit records (304s as server-not-modified, identical bodies
// as identical-payload-digest), conditional requests get 304s, the history
// query agrees with the WARC files and its schedule figures with the
// crawl.log, and a restart keeps every schedule.
func TestIncrementalCrawl(t *testing.T) {
	for _, policy := range []string{"ar", "poisson"} {
		t.Run(policy, func(t *testing.T) { incrementalCrawl(t, policy) })
	}
}

func incrementalCrawl(t *testing.T, policy string) {
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	vc := clock.NewVirtual(start)
	site := newChangingSite(t, vc)
	s := incrementalSpec(t, site, policy)
	st := openStore(t, s.Output)
	c, err := New(s, Deps{Store: st, Clock: vc})
	if err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, vc, start.Add(72*time.Hour))

	conditional, notModified := site.counts()
	if conditional == 0 || notModified == 0 {
		t.Fatalf("conditional requests %d, 304s %d", conditional, notModified)
	}
	t.Logf("conditional requests %d, 304 %d, bodies served %v", conditional, notModified, site.served)
	verifyWARCs(t, s.Output, s.ID)
	records := warcCaptures(t, s.Output, s.ID)
	byID := map[string]warcCapture{}
	for _, rs := range records {
		for _, r := range rs {
			byID[r.id] = r
		}
	}
	lines := map[string][]crawllog.Entry{}
	for _, e := range readLog(t, s.Output, s.ID) {
		if e.Status > 0 {
			lines[e.URI] = append(lines[e.URI], e)
		}
	}
	profiles := map[string]int{}
	for path := range site.pages {
		url := site.srv.URL + path
		rows := urlHistory(t, st, url)
		recs := records[url]
		if len(rows) != len(recs) || len(rows) < 2 {
			t.Fatalf("%s: %d captures in RDF, %d records in the WARC files", path, len(rows), len(recs))
		}
		checkSchedules(t, url, rows, lines[url])
		for i, row := range rows {
			rec := recs[i]
			if row.record != rec.id || row.capture != rec.id {
				t.Fatalf("%s capture %d: RDF %s (record %s), WARC %s", path, i, row.capture, row.record, rec.id)
			}
			// WARC-Date is written to the second.
			if tm, err := time.Parse(time.RFC3339Nano, row.time); err != nil || !tm.Truncate(time.Second).Equal(rec.date) {
				t.Errorf("%s capture %d: RDF time %s, WARC-Date %v", path, i, row.time, rec.date)
			}
			want := map[string]string{"response": ontology.StatusChanged, "revisit": ontology.StatusUnchanged}[rec.kind]
			if i == 0 {
				want = ontology.StatusNew
			}
			if row.change != want {
				t.Errorf("%s capture %d: %s record but change status %s", path, i, rec.kind, row.change)
			}
			if i > 0 && row.previous != rows[i-1].capture || i == 0 && row.previous != "" {
				t.Errorf("%s capture %d revises %q, want the capture before", path, i, row.previous)
			}
			if rec.kind == "revisit" {
				profiles[rec.profile]++
				orig, ok := byID[rec.refersTo]
				if !ok || orig.kind != "response" {
					t.Errorf("%s capture %d: revisit refers to %q, not a response record", path, i, rec.refersTo)
				}
			}
		}
		// Every body the site served is a version the archive has: a
		// changed version is a response, the same version again a revisit.
		responses := 0
		for _, r := range recs {
			if r.kind == "response" {
				responses++
			}
		}
		if distinct := len(slices.Compact(slices.Clone(site.served[path]))); responses != distinct {
			t.Errorf("%s: %d response records for %d distinct versions served (%v)", path, responses, distinct, site.served[path])
		}
	}
	if profiles[gowarc.ProfileServerNotModifiedV1_1] == 0 || profiles[gowarc.ProfileIdenticalPayloadDigestV1_1] == 0 {
		t.Errorf("revisit profiles %v", profiles)
	}
	if got := profiles[gowarc.ProfileServerNotModifiedV1_1]; got != notModified {
		t.Errorf("%d server-not-modified records for %d 304s", got, notModified)
	}
	// The hourly page is revisited far more often than the static one.
	if h, st := len(records[site.srv.URL+"/hourly"]), len(records[site.srv.URL+"/static"]); h < 2*st {
		t.Errorf("hourly page visited %d times, static page %d", h, st)
	}
	// The logo's own wait is a week: every revisit of it follows a change
	// of the home page that embeds it.
	if n := len(records[site.srv.URL+"/logo.png"]); n < 3 {
		t.Errorf("logo captured %d times in three days", n)
	}
	for _, e := range readLog(t, s.Output, s.ID) {
		if e.Status <= 0 {
			continue
		}
		if !scheduleNote.MatchString(strings.Join(e.Annotations, ",")) {
			t.Errorf("crawl.log line of %s has no schedule annotation: %v", e.URI, e.Annotations)
		}
	}

	// Reopened, the crawl has every URL waiting for its revisit.
	c, err = Open(s.Output, s.ID, Deps{Store: st, Clock: vc})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if tot := c.front.Totals(); tot.Waiting != int64(len(site.pages)) || tot.Queued != 0 || tot.InFlight != 0 {
		t.Errorf("after reopening: %+v", tot)
	}
}

// With conditional requests off and aborting on, the headers stop the
// download of unchanged pages once the host's predictions have been right
// often enough (scheme 4); every version is still captured, and a stopped
// download is a server-not-modified revisit record of a 200's head.
func TestIncrementalAbortOnHeaders(t *testing.T) {
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	vc := clock.NewVirtual(start)
	site := newChangingSite(t, vc)
	s := incrementalSpec(t, site, "ar")
	off := false
	s.Incremental.ConditionalRequests = &off
	s.Incremental.AbortOnHeaders, s.Incremental.TrustMinChecked, s.Incremental.TrustMinRatio = true, 3, 0.9
	st := openStore(t, s.Output)
	c, err := New(s, Deps{Store: st, Clock: vc})
	if err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, vc, start.Add(48*time.Hour))
	if conditional, _ := site.counts(); conditional != 0 {
		t.Fatalf("%d conditional requests with conditional requests off", conditional)
	}
	verifyWARCs(t, s.Output, s.ID)
	records := warcCaptures(t, s.Output, s.ID)
	stopped := 0
	for _, path := range []string{"/", "/hourly", "/daily", "/static"} {
		url := site.srv.URL + path
		rows := urlHistory(t, st, url)
		versions := map[int]bool{}
		for _, v := range site.served[path] {
			versions[v] = true
		}
		responses := 0
		for _, r := range records[url] {
			if r.kind == "response" {
				responses++
			}
		}
		if responses != len(versions) {
			t.Errorf("%s: %d response records for %d versions served", path, responses, len(versions))
		}
		if len(rows) != len(records[url]) {
			t.Errorf("%s: %d captures in RDF, %d records", path, len(rows), len(records[url]))
		}
	}
	// Trust is the host's: the first stopped download comes after three
	// predictions were checked against downloads (revisits of the pages
	// with validators).
	visits := map[string]int{}
	checks, checksBeforeFirst := 0, -1
	for _, e := range readLog(t, s.Output, s.ID) {
		path := strings.TrimPrefix(e.URI, site.srv.URL)
		switch {
		case hasAnnotation(e.Annotations, annotHeaders):
			if stopped == 0 {
				checksBeforeFirst = checks
			}
			stopped++
		case visits[e.URI] > 0 && site.pages[path].validators:
			checks++
		}
		visits[e.URI]++
	}
	if stopped == 0 {
		t.Fatal("no download was stopped by its headers")
	}
	if checksBeforeFirst < 3 {
		t.Errorf("the first download was stopped after %d checked predictions, before the host earned trust", checksBeforeFirst)
	}
	t.Logf("%d downloads stopped on headers, the first after %d checked predictions", stopped, checksBeforeFirst)
}

// A scope edited during an incremental crawl parks the URLs it now
// rejects at their next revisit; the others keep being revisited.
func TestIncrementalScopeEditParks(t *testing.T) {
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	vc := clock.NewVirtual(start)
	site := newChangingSite(t, vc)
	s := incrementalSpec(t, site, "poisson")
	st := openStore(t, s.Output)
	c, err := New(s, Deps{Store: st, Clock: vc})
	if err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, vc, start.Add(6*time.Hour))
	c, err = Open(s.Output, s.ID, Deps{Store: st, Clock: vc})
	if err != nil {
		t.Fatal(err)
	}
	sc := s.Scope
	sc.Exclude = []string{`/plain$`}
	if err := c.Edit(s.Seeds, sc); err != nil {
		t.Fatal(err)
	}
	edited := vc.Now()
	runUntil(t, c, vc, start.Add(48*time.Hour))
	plain := site.srv.URL + "/plain"
	parked := 0
	for _, e := range readLog(t, s.Output, s.ID) {
		if e.URI != plain {
			continue
		}
		switch {
		case e.Status == -5000:
			parked++
		case e.FetchBegin.After(edited):
			t.Errorf("%s fetched at %v, after the scope excluded it", plain, e.FetchBegin)
		}
	}
	if parked != 1 {
		t.Errorf("%s parked %d times, want once", plain, parked)
	}
	c, err = Open(s.Output, s.ID, Deps{Store: st, Clock: vc})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if tot := c.front.Totals(); tot.Disregarded != 1 || tot.Waiting != int64(len(site.pages)-1) {
		t.Errorf("frontier %+v: want the excluded URL disregarded, the others waiting", tot)
	}
	// The poisson policy's statistics came back from the frontier: its
	// demand (visits per second asked of the queue) is that of the URLs
	// still revisited, at most one visit each per the shortest wait.
	q, err := c.inc.queue(site.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if d := q.snap.Poisson.Demand * 1800; d <= 0 || d > float64(len(site.pages)-1) {
		t.Errorf("poisson demand %g visits per half hour for %d URLs revisited", d, len(site.pages)-1)
	}
}

// A URL's history survives encoding; cut short or padded, it is an error.
func TestHistoryEncoding(t *testing.T) {
	h := history{capture: "urn:uuid:2", stored: original{RecordID: "<urn:uuid:1>", URL: "http://a/", Date: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}}
	h.state.Visits, h.state.Versions, h.state.HasDigest, h.state.ETag = 3, 2, true, `"v2"`
	b, err := h.encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeHistory(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.capture != h.capture || got.stored != h.stored || got.state.Visits != 3 || got.state.ETag != `"v2"` {
		t.Errorf("decoded %+v, want %+v", got, h)
	}
	for n := range len(b) {
		if _, err := decodeHistory(b[:n]); err == nil {
			t.Errorf("cut to %d bytes: accepted", n)
		}
	}
	if _, err := decodeHistory(append(b, 0)); err == nil {
		t.Error("a trailing byte accepted")
	}
}
