package extract

import (
	"bufio"
	"crypto/sha256"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/internal/synthweb"
	"github.com/mneme-archive/mneme/internal/testenv"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden-links.txt from the current extractor")

// goldenFile holds a digest of the full outlinks (every URL field, hop,
// context, anchor text, paragraph, in order) of each page below as the
// extractor of commit 4229a53 produced them, before its link collection
// was rewritten for speed: the rewrite must not change one byte of them.
const goldenFile = "testdata/golden-links.txt"

// goldenPage is a page whose outlinks are compared with the golden ones.
type goldenPage struct {
	name string
	base string
	body []byte
}

// goldenPages are 300 pages of the crawl benchmark's site (spread over a
// 20,000-page site), the extraction benchmark's pages and the scanner's
// corner cases.
func goldenPages() []goldenPage {
	var pages []goldenPage
	site := synthweb.NewBigSite(synthweb.BigOptions{})
	for k := range 300 {
		i := k * 67
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", site.Path(i), nil))
		pages = append(pages, goldenPage{"site" + site.Path(i), "http://127.0.0.1:8080" + site.Path(i), rec.Body.Bytes()})
	}
	for i := range 8 {
		pages = append(pages, goldenPage{fmt.Sprintf("bench/%d", i), "https://www.example.com/news/2025/story.html", benchPageN(i)})
	}
	for i, c := range scannerCases {
		pages = append(pages, goldenPage{fmt.Sprintf("case/%d", i), "http://example.com/dir/page.html", []byte(c)})
	}
	return pages
}

// goldenOptions are the option sets compared: the defaults and the
// application-aware helper's (no paragraphs).
var goldenOptions = []struct {
	name string
	opts Options
}{{"default", Options{}}, {"noparagraph", Options{MaxParagraph: -1}}}

// outlinkDigest is the SHA-256 of every field of the outlinks, in order.
func outlinkDigest(out []Outlink, err error) string {
	h := sha256.New()
	for _, o := range out {
		u := o.URL
		fmt.Fprintf(h, "%q %q %q %q %q %q %q %v %q %q %c %q %q %q\n", u.Href, u.Canonical, u.Scheme, u.Userinfo, u.Host, u.Port, u.Path+"?"+u.Query,
			u.HasQuery, u.Fragment, u.String(), o.Hop, o.Context, o.Text, o.Paragraph)
	}
	fmt.Fprintf(h, "%d %v", len(out), err)
	return fmt.Sprintf("%x", h.Sum(nil)[:12])
}

// TestGoldenLinks compares the outlinks of the generated site's pages, the
// benchmark pages, the corner cases and the saved pages of real
// applications with those of the extractor before its rewrite.
func TestGoldenLinks(t *testing.T) {
	pages := goldenPages()
	// The saved pages when the shared folder has them (testenv.Path would
	// skip the whole test without them).
	if d := testenv.Locate(); d != "" {
		files, err := filepath.Glob(filepath.Join(d, "data", "aah-pages", "pages", "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			pages = append(pages, goldenPage{"aah-pages/" + filepath.Base(f), "http://example.com/dir/page.html", b})
		}
	}
	got := map[string]string{}
	var lines []string
	for _, o := range goldenOptions {
		x := New(o.opts)
		for _, p := range pages {
			key := o.name + " " + p.name
			out, err := x.Extract(Document{URL: mustURL(t, p.base), MediaType: "text/html", Text: p.body})
			got[key] = outlinkDigest(out, err)
			lines = append(lines, key+" "+got[key])
		}
	}
	if *updateGolden {
		if err := os.WriteFile(goldenFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	compared := 0
	for n := 1; sc.Scan(); n++ {
		i := strings.LastIndexByte(sc.Text(), ' ')
		if i < 0 {
			t.Fatalf("%s:%d: want \"OPTIONS PAGE DIGEST\", got %q", goldenFile, n, sc.Text())
		}
		key, want := sc.Text()[:i], sc.Text()[i+1:]
		d, ok := got[key]
		if !ok {
			if strings.Contains(key, " aah-pages/") {
				continue // the saved pages are missing here
			}
			t.Fatalf("%s:%d: no page %q", goldenFile, n, key)
		}
		if d != want {
			t.Errorf("%s: outlinks differ from the golden ones (%s:%d)", key, goldenFile, n)
		}
		compared++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if compared != len(got) {
		t.Errorf("compared %d pages of %d: %s is out of date", compared, len(got), goldenFile)
	}
	t.Logf("%d pages × options compared", compared)
}
