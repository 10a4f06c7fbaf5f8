package focus

import (
	"math"
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
)

func siteURL(t *testing.T, cn *canon.Canonicalizer, s string) canon.URL {
	t.Helper()
	u, err := cn.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestSiteModel: a link is scored by the cosines of the pages crawled in
// its folder, shrunk towards the folder above; folders never seen take
// their parent's value; hosts and ports are apart.
func TestSiteModel(t *testing.T) {
	cn := canon.New(canon.Options{})
	u := func(s string) canon.URL { return siteURL(t, cn, s) }
	var m siteModel
	if got := m.score(u("http://a.test/x/1.html")); got != 0.5 {
		t.Fatalf("empty model scores %v, want 0.5", got)
	}
	for i, c := range []float64{0.8, 0.9, 0.7} {
		m.add(u("http://a.test/doc/vhosts/"+string(rune('a'+i))+".html"), c)
	}
	for i, c := range []float64{0.1, 0.0, 0.2, 0.1} {
		m.add(u("http://a.test/doc/sql/"+string(rune('a'+i))+".html"), c)
	}
	m.add(u("http://b.test:8080/other.html"), 0.5)

	mean := (0.8 + 0.9 + 0.7 + 0.1 + 0.0 + 0.2 + 0.1 + 0.5) / 8
	host := (2.8 + siteShrink*mean) / (7 + siteShrink) // a.test/ and a.test/doc/ hold the same 7 pages
	doc := (2.8 + siteShrink*host) / (7 + siteShrink)
	vhosts := (2.4 + siteShrink*doc) / (3 + siteShrink)
	sql := (0.4 + siteShrink*doc) / (4 + siteShrink)
	for _, c := range []struct {
		url  string
		want float64
	}{
		{"http://a.test/doc/vhosts/new.html", vhosts},
		{"http://a.test/doc/vhosts/deeper/new.html", vhosts}, // an unseen folder: its parent's value
		{"http://a.test/doc/sql/new.html", sql},
		{"http://a.test/doc/new.html", doc},
		{"http://a.test/new/x.html", host},
		{"http://a.test:8080/doc/vhosts/x.html", mean}, // another port: another site
		{"http://c.test/doc/vhosts/x.html", mean},
	} {
		if got, want := m.score(u(c.url)), c.want/(c.want+mean); math.Abs(got-want) > 1e-12 {
			t.Errorf("score(%s) = %v, want %v", c.url, got, want)
		}
	}
	if !(m.score(u("http://a.test/doc/vhosts/x.html")) > m.score(u("http://a.test/doc/sql/x.html"))) {
		t.Error("the folder of close pages does not score above the folder of distant ones")
	}
}

// TestSiteModelBounded: once the model holds its limit of folders, new
// folders are not learnt (they take their parents' values) while the
// known ones keep learning.
func TestSiteModelBounded(t *testing.T) {
	cn := canon.New(canon.Options{})
	u := func(s string) canon.URL { return siteURL(t, cn, s) }
	m := siteModel{limit: 3}
	m.add(u("http://a.test/x/1.html"), 1) // a.test/, a.test/x/
	m.add(u("http://a.test/y/1.html"), 0) // a.test/y/: the third
	m.add(u("http://a.test/z/1.html"), 0) // a.test/z/ is not learnt
	if len(m.dirs) != 3 {
		t.Fatalf("the model holds %d folders, want its limit 3", len(m.dirs))
	}
	if m.dirs["a.test:/"].n != 3 {
		t.Errorf("the known root learnt %v pages, want 3", m.dirs["a.test:/"].n)
	}
	if got, want := m.score(u("http://a.test/z/2.html")), m.score(u("http://a.test/new.html")); got != want {
		t.Errorf("an unlearnt folder scores %v, want its parent's %v", got, want)
	}
}

// TestSiteModelNoDrift: on a site whose pages are all in one folder the
// folders say nothing, and the score stays 0.5 however close to the topic
// the pages crawled so far were.
func TestSiteModelNoDrift(t *testing.T) {
	cn := canon.New(canon.Options{})
	var m siteModel
	for i, c := range []float64{0.1, 0.9, 0.8, 0.95, 0.7} {
		m.add(siteURL(t, cn, "http://a.test/p/"+string(rune('a'+i))+".html"), c)
		if got := m.score(siteURL(t, cn, "http://a.test/p/next.html")); math.Abs(got-0.5) > 1e-12 {
			t.Fatalf("after %d pages: %v, want 0.5", i+1, got)
		}
	}
}
