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
	"github.com/mneme-archive/mneme/internal/synthweb"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/aah"
)

// TestSamplesArchived crawls the synthetic blog with a KB whose post
// title pattern matches nothing there, so that adaptation fetches sample
// post pages to learn from, and checks that every request the blog
// server received is in the crawl's WARC files (a response or revisit
// record for each), the samples included: an archival crawl makes no
// request it does not record.
func TestSamplesArchived(t *testing.T) {
	ln, err := synthweb.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	blog := synthweb.NewBlog(synthweb.Bases{Blog: base, Forum: base + "/forum", Wiki: base + "/wiki"})
	var mu sync.Mutex
	requests := map[string]int{}
	srv := synthweb.ServeOn(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests[base+r.URL.RequestURI()]++
		mu.Unlock()
		blog.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close() })

	k := builtin(t)
	wp := cloneType(k.Type("wordpress"))
	broken, err := compile(".//h6[@class='no-such-title']")
	if err != nil {
		t.Fatal(err)
	}
	wp.Level("post").Extract[0].Fields[kb.FieldTitle] = []*kb.Pattern{broken}
	k = &kb.KB{Types: slices.Clone(k.Types)}
	k.Types[slices.IndexFunc(k.Types, func(x *kb.Type) bool { return x.ID == "wordpress" })] = wp

	data := t.TempDir()
	st := openStore(t, data)
	var logBuf bytes.Buffer
	sess := &Session{KB: k, Log: &logBuf}
	h := aah.New(kb.NewDetector(k, nil), aah.Options{Log: &logBuf, Observe: sess.ObserveResult})
	s := spec.Default()
	s.ID, s.Output, s.Seeds = "samples", data, []string{base + "/"}
	s.UserAgent = "mneme-test/1.0 (+https://github.com/mneme-archive/mneme)"
	s.Politeness.Off = true
	c, err := crawler.New(s, crawler.Deps{Store: st, Analyzer: h, Log: &logBuf})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.Run(ctx); err != nil {
		t.Fatalf("crawl: %v\n%s", err, logBuf.String())
	}
	t.Logf("crawl:\n%s", grepLines(logBuf.String(), "aah:", "adapt:"))

	crawlLog, err := os.ReadFile(crawler.Layout{Data: data}.CrawlLog(s.ID))
	if err != nil {
		t.Fatal(err)
	}
	samples := strings.Count(string(crawlLog), crawler.AnnotSample)
	if samples == 0 {
		t.Fatalf("no crawl.log line is annotated %s: adaptation fetched no sample", crawler.AnnotSample)
	}
	archived := map[string]int{}
	files, err := filepath.Glob(filepath.Join(crawler.Layout{Data: data}.WARCs(s.ID), "*.warc.gz"))
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
	mu.Lock()
	defer mu.Unlock()
	total := 0
	for u, n := range requests {
		total += n
		if archived[u] != n {
			t.Errorf("%s: %d requests received, %d archived", u, n, archived[u])
		}
	}
	t.Logf("%d requests to the blog (%d sample pages), all archived", total, samples)
}
