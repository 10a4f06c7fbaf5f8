package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/internal/synthweb"
)

// TestDemo runs mneme demo into a temporary data folder and checks that
// the three sites were archived with the application-aware helper (each
// site's application named, posts extracted, no trap followed) and the
// example queries answered.
func TestDemo(t *testing.T) {
	data := t.TempDir()
	code, out, errOut := mneme(t, "", "demo", "--data", data)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	summary := regexp.MustCompile(`Archived in [0-9.]+ s: (\d+) responses \(.*\), (\d+) links, (\d+) WARC files \(.*\), (\d+) triples in graph <urn:mneme:crawl:(demo-[0-9-]+)>`).FindStringSubmatch(out)
	if summary == nil {
		t.Fatalf("no summary line in\n%s", out)
	}
	num := func(s string) int { n, _ := strconv.Atoi(s); return n }
	if num(summary[1]) < 200 || num(summary[2]) < 5000 || num(summary[3]) < 1 || num(summary[4]) < 20000 {
		t.Errorf("summary %q: want at least 200 responses, 5,000 links, a WARC file and 20,000 triples", summary[0])
	}
	// The application of each site, with the objects extracted.
	for site, app := range map[string]string{"blog": "WordPress", "forum": "phpBB", "wiki": "MediaWiki"} {
		root := regexp.MustCompile(`(?m)^  ` + site + ` +(http://127\.0\.0\.1:\d+/) `).FindStringSubmatch(out)
		if root == nil {
			t.Errorf("no URL for the %s in\n%s", site, out)
			continue
		}
		m := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(root[1]) + `: ` + app + `, (\d+) pages \((\d+) of a known level\), (\d+) objects extracted$`).FindStringSubmatch(out)
		if m == nil || num(m[2]) < 39 || num(m[3]) < 39 {
			t.Errorf("%s %s: helper line %q, want %s with at least 39 pages of a known level and objects", site, root[1], m, app)
		}
	}
	crawlLog, err := os.ReadFile(filepath.Join(data, "crawls", summary[5], "crawl.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, trap := range []string{"/events/month/", "action=history", "oldid=", "/tag/", "viewtopic.php?p="} {
		if strings.Contains(string(crawlLog), trap) {
			t.Errorf("crawl.log: a %q URL was fetched", trap)
		}
	}
	warcs, err := filepath.Glob(filepath.Join(data, "crawls", summary[5], "warcs", "*.warc.gz"))
	if err != nil || len(warcs) == 0 {
		t.Errorf("no WARC file in the crawl's folder (%v)", err)
	}
	// Query 1: every site, with at least its posts, topics or articles.
	for site, least := range map[string]int{"blog": 48, "forum": 40, "wiki": 39} {
		m := regexp.MustCompile(`(?m)^  ` + site + ` +(\d+) +(\d+)$`).FindStringSubmatch(out)
		if m == nil || num(m[1]) < least || num(m[2]) < least*1000 {
			t.Errorf("query 1: %s row %q, want at least %d pages of 1 KB", site, m, least)
		}
	}
	// Query 2: five wiki articles cited from the other sites.
	cited := regexp.MustCompile(`(?m)^  http://127\.0\.0\.1:\d+/wiki/(\S+) +(\d+)$`).FindAllStringSubmatch(out, -1)
	if len(cited) != 5 {
		t.Errorf("query 2: %d rows, want 5", len(cited))
	}
	for _, c := range cited {
		if c[1] == "Main_Page" || num(c[2]) < 1 {
			t.Errorf("query 2: row %q", c[0])
		}
	}
	// Query 3: five blog posts with title, author, date and comments.
	posts := regexp.MustCompile(`(?m)^  \S.* {2,}[A-Z][a-z]+ [A-Z][a-z]+ +(20\d\d-\d\d-\d\dT[0-9:]+Z) +(\d+)$`).FindAllStringSubmatch(out, -1)
	if len(posts) != 5 {
		t.Errorf("query 3: %d rows of posts, want 5", len(posts))
	}
	comments := 0
	for i, p := range posts {
		comments += num(p[2])
		if i > 0 && p[1] > posts[i-1][1] {
			t.Errorf("query 3: posts not newest first: %q after %q", p[1], posts[i-1][1])
		}
	}
	if comments == 0 {
		t.Error("query 3: no comments on the latest posts")
	}
	// Query 4: successes and missing pages.
	for _, status := range []string{"200", "404"} {
		if !regexp.MustCompile(`(?m)^  ` + status + ` +[1-9]\d*$`).MatchString(out) {
			t.Errorf("query 4: no row for status %s", status)
		}
	}
}

// TestDemoServeSite serves a small generated site through the hidden
// command until its context ends.
func TestDemoServeSite(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int)
	go func() {
		code := run(ctx, []string{"demo", "serve-site", "--pages", "50", "--addr", "127.0.0.1:0"}, strings.NewReader(""), pw, io.Discard)
		pw.Close()
		done <- code
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	root, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	if want := fmt.Sprintf("50 pages, %d URLs", synthweb.NewBigSite(synthweb.BigOptions{Pages: 50}).URLs()); rest != want || !strings.HasPrefix(root, "http://127.0.0.1:") {
		t.Errorf("first line %q, want the root URL and %q", line, want)
	}
	resp, err := http.Get(root + "s/0/49.html")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(body) < 20<<10 {
		t.Errorf("page 49: status %d, %d bytes", resp.StatusCode, len(body))
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d after the context ended", code)
	}
	if code, _, _ := mneme(t, "", "demo", "serve-site", "--addr", "192.0.2.1:80"); code != 2 {
		t.Errorf("a non-loopback address: exit %d, want 2", code)
	}
}
