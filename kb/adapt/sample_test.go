package adapt

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/synthweb"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/aah"
)

// blogCrawl is a crawl of the synthetic blog (WordPress markup) with the
// application-aware helper on k, adapting with a session that keeps its
// proposals in memory (sess nil: without adaptation).
type blogCrawl struct {
	data, id string
	sess     *Session
	log      string
	store    *graph.Store
	mu       sync.Mutex
	requests map[string]int // requests the blog server received, by URL
}

func crawlBlog(t *testing.T, k *kb.KB, adapt bool) *blogCrawl {
	t.Helper()
	ln, err := synthweb.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	blog := synthweb.NewBlog(synthweb.Bases{Blog: base, Forum: base + "/forum", Wiki: base + "/wiki"})
	bc := &blogCrawl{data: t.TempDir(), id: "blog", requests: map[string]int{}}
	srv := synthweb.ServeOn(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bc.mu.Lock()
		bc.requests[base+r.URL.RequestURI()]++
		bc.mu.Unlock()
		blog.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close() })

	bc.store = openStore(t, bc.data)
	var logBuf bytes.Buffer
	opts := aah.Options{Log: &logBuf}
	if adapt {
		bc.sess = &Session{KB: k, Log: &logBuf}
		opts.Observe = bc.sess.ObserveResult
	}
	h := aah.New(kb.NewDetector(k, nil), opts)
	s := spec.Default()
	s.ID, s.Output, s.Seeds = bc.id, bc.data, []string{base + "/"}
	s.UserAgent = "mneme-test/1.0 (+https://github.com/mneme-archive/mneme)"
	s.Politeness.Off = true
	c, err := crawler.New(s, crawler.Deps{Store: bc.store, Analyzer: h, Log: &logBuf})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.Run(ctx); err != nil {
		t.Fatalf("crawl: %v\n%s", err, logBuf.String())
	}
	bc.log = logBuf.String()
	t.Logf("crawl:\n%s", grepLines(bc.log, "aah:", "adapt:"))
	return bc
}

// learned returns what the crawl's session learned for action, or all
// it learned for "".
func (bc *blogCrawl) learned(action string) []Proposal {
	var out []Proposal
	for _, st := range bc.sess.sites {
		for _, p := range st.learned {
			if action == "" || p.Action == action {
				out = append(out, p)
			}
		}
	}
	return out
}

// crawlLog is the crawl's crawl.log.
func (bc *blogCrawl) crawlLog(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(crawler.Layout{Data: bc.data}.CrawlLog(bc.id))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withWordPress returns the built-in KB with its WordPress type changed
// by change (on a copy).
func withWordPress(t *testing.T, change func(wp *kb.Type)) *kb.KB {
	k := builtin(t)
	wp := cloneType(k.Type("wordpress"))
	change(wp)
	k = &kb.KB{Types: slices.Clone(k.Types)}
	k.Types[slices.IndexFunc(k.Types, func(x *kb.Type) bool { return x.ID == "wordpress" })] = wp
	return k
}

// mustCompile compiles a pattern of a test's KB.
func mustCompile(t *testing.T, src string) *kb.Pattern {
	p, err := compile(src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSamplesArchived crawls the synthetic blog with a KB whose post
// title pattern matches nothing there, so that adaptation fetches sample
// post pages to learn from, and checks that every request the blog
// server received is in the crawl's WARC files (a response or revisit
// record for each), the samples included: an archival crawl makes no
// request it does not record.
func TestSamplesArchived(t *testing.T) {
	k := withWordPress(t, func(wp *kb.Type) {
		wp.Level("post").Extract[0].Fields[kb.FieldTitle] = []*kb.Pattern{mustCompile(t, ".//h6[@class='no-such-title']")}
	})
	bc := crawlBlog(t, k, true)
	samples := strings.Count(bc.crawlLog(t), crawler.AnnotSample)
	if samples == 0 {
		t.Fatalf("no crawl.log line is annotated %s: adaptation fetched no sample", crawler.AnnotSample)
	}
	archived := map[string]int{}
	files, err := filepath.Glob(filepath.Join(crawler.Layout{Data: bc.data}.WARCs(bc.id), "*.warc.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no WARC files (%v)", err)
	}
	for _, f := range files {
		recs, err := warc.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if typ := r.Type(); typ == "response" || typ == "revisit" {
				archived[r.Header.Get("WARC-Target-URI")]++
			}
		}
	}
	bc.mu.Lock()
	defer bc.mu.Unlock()
	total := 0
	for u, n := range bc.requests {
		total += n
		if archived[u] != n {
			t.Errorf("%s: %d requests received, %d archived", u, n, archived[u])
		}
	}
	t.Logf("%d requests to the blog (%d sample pages), all archived", total, samples)
}
