package synthweb

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
)

func startDemo(t *testing.T) *Demo {
	t.Helper()
	d, err := StartDemo()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

type page struct {
	status int
	header http.Header
	body   []byte
}

func fetch(t *testing.T, url string) page {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return page{resp.StatusCode, resp.Header, b}
}

// crawlDemo follows every link of the three sites breadth first, as the
// crawler's extractor finds them, deduplicated on the canonical URL (which
// strips the forum's session ids); calendar months outside 2023-2024 are
// not followed, as a crawl's calendar-years rule would.
func crawlDemo(t *testing.T, d *Demo) map[string]page {
	t.Helper()
	c := canon.New(canon.Options{})
	ex := extract.New(extract.Options{Canonicalizer: c})
	seen := map[string]bool{}
	got := map[string]page{}
	var queue []canon.URL
	push := func(u canon.URL) {
		if seen[u.Canonical] || !strings.HasPrefix(u.Href, "http://127.0.0.1:") {
			return
		}
		if m := regexp.MustCompile(`/events/month/(\d{4})-`).FindStringSubmatch(u.Path); m != nil && m[1] != "2023" && m[1] != "2024" {
			return
		}
		seen[u.Canonical] = true
		queue = append(queue, u)
	}
	for _, s := range d.Seeds() {
		u, err := c.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		push(u)
	}
	for len(queue) > 0 {
		if len(got) > 20000 {
			t.Fatalf("more than 20,000 URLs: a trap is not bounded")
		}
		u := queue[0]
		queue = queue[1:]
		p := fetch(t, u.Href)
		got[u.Canonical] = p
		if loc := p.header.Get("Location"); loc != "" {
			if r, err := c.Resolve(u, loc); err == nil {
				push(r)
			}
		}
		mt, _, _ := strings.Cut(p.header.Get("Content-Type"), ";")
		links, err := ex.Extract(extract.Document{URL: u, MediaType: mt, Body: bytes.NewReader(p.body)})
		if err != nil {
			t.Fatalf("%s: %v", u.Href, err)
		}
		for _, l := range links {
			push(l.URL)
		}
	}
	return got
}

func TestDemoCrawl(t *testing.T) {
	d := startDemo(t)
	got := crawlDemo(t, d)
	status := map[int]int{}
	for u, p := range got {
		status[p.status]++
		if p.status >= 500 {
			t.Errorf("%s: status %d: %s", u, p.status, p.body)
		}
	}
	t.Logf("%d URLs, statuses %v", len(got), status)
	bl, fo, wk := newBlog(d.Bases), newForum(d.Bases), newWiki(d.Bases)
	want := func(u string) {
		t.Helper()
		if p, ok := got[u]; !ok || p.status != http.StatusOK {
			t.Errorf("%s: not reached with status 200 (reached %v, status %d)", u, ok, p.status)
		}
	}
	for _, p := range bl.posts {
		want(p.URL)
	}
	for id := range fo.topics {
		want(fmt.Sprintf("%s/viewtopic.php?t=%d", d.Forum, id))
	}
	for k, a := range wk.articles {
		want(d.Wiki + "/wiki/" + k)
		for _, r := range a.Revs {
			want(fmt.Sprintf("%s/w/index.php?title=%s&oldid=%d", d.Wiki, k, r.ID))
		}
	}
	// Each site answers some missing pages with 404, and redirects some.
	for _, code := range []int{http.StatusNotFound, http.StatusMovedPermanently, http.StatusFound} {
		if status[code] == 0 {
			t.Errorf("no response with status %d", code)
		}
	}
	if len(got) < 1500 {
		t.Errorf("only %d URLs in the three sites", len(got))
	}
}

func TestDemoDeterministic(t *testing.T) {
	b := Bases{Blog: "http://127.0.0.1:1", Forum: "http://127.0.0.1:2", Wiki: "http://127.0.0.1:3"}
	paths := []struct {
		h    func(Bases) http.Handler
		path string
	}{
		{NewBlog, "/"}, {NewBlog, "/page/3/"}, {NewBlog, "/feed/"}, {NewBlog, "/tag/owls/"},
		{NewForum, "/index.php"}, {NewForum, "/viewtopic.php?t=105"}, {NewForum, "/viewforum.php?f=3"},
		{NewWiki, "/wiki/Grey_Heron"}, {NewWiki, "/wiki/Special:RecentChanges"}, {NewWiki, "/w/index.php?title=Dipper&action=history"},
	}
	for _, p := range paths {
		var bodies [2][]byte
		for i := range bodies {
			rec := httptest.NewRecorder()
			p.h(b).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p.path, nil))
			if rec.Code != http.StatusOK {
				t.Fatalf("%s: status %d", p.path, rec.Code)
			}
			bodies[i] = rec.Body.Bytes()
		}
		if !bytes.Equal(bodies[0], bodies[1]) {
			t.Errorf("%s: two servers of the same site answer different bytes", p.path)
		}
	}
}
