package adapt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

func TestParsePath(t *testing.T) {
	for _, src := range []string{
		".//h1[contains(@class, 'entry-title')]",
		"//article//*[contains(@class, 'entry-title')]//a/@href",
		"substring-after(normalize-space(.//*[contains(@class, 'a|b')]//h2), ' ')",
		"//li[@id='x'][2]/text()",
	} {
		p, err := parsePath(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if p.String() != src {
			t.Errorf("round trip of %q gave %q", src, p.String())
		}
	}
	if _, err := parsePath("'no path'"); err == nil {
		t.Error("a string literal parsed as a path")
	}
	if got := splitUnion("//a[@x='|'] | (//b | //c)[1] | //d"); len(got) != 3 || got[1] != "(//b | //c)[1]" {
		t.Errorf("splitUnion: %q", got)
	}
}

// TestRelaxationsOrder: one change before two, best case before worst
// case, the detection prefix kept, page values replacing literals.
func TestRelaxationsOrder(t *testing.T) {
	doc, err := vdoc.New("http://127.0.0.1/", nil, []byte(`<html><body class="single"><main><h1 class="wp-block-post-title">T</h1><p class="author-name">A</p></main></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	base, err := parsePath("//body[contains(@class, 'single')]//h1[contains(@class, 'entry-title')]")
	if err != nil {
		t.Fatal(err)
	}
	frozen := frozenSteps(base, []string{"//body[contains(@class, 'single')]"})
	if frozen != 1 {
		t.Fatalf("frozen %d steps, want 1", frozen)
	}
	cands := relaxations(base, frozen, collectVocab([]*vdoc.Doc{doc}), map[string]bool{"wp-block-post-title": true}, 2)
	if len(cands) == 0 {
		t.Fatal("no candidates")
	}
	if want := "//body[contains(@class, 'single')]//h1[contains(@class, 'wp-block-post-title')]"; cands[0].src != want {
		t.Errorf("first candidate %q, want %q", cands[0].src, want)
	}
	lastN, worstSeen := 0, false
	for _, c := range cands {
		if !strings.HasPrefix(c.src, "//body[contains(@class, 'single')]//") {
			t.Errorf("candidate %q changed the detection prefix", c.src)
		}
		if c.worst {
			worstSeen = true
		} else if worstSeen {
			t.Errorf("best-case %q after a worst-case candidate", c.src)
		}
		if !c.worst && c.n < lastN {
			t.Errorf("candidate %q with %d changes after one with %d", c.src, c.n, lastN)
		}
		if !c.worst {
			lastN = c.n
		}
	}
	if !worstSeen {
		t.Error("no worst-case candidate (two changes to one step)")
	}
}

// TestLearnedFile: proposals saved with their provenance read back,
// accepted and rejected; a rejected one is no longer applied; a broken
// file is reported with lines.
func TestLearnedFile(t *testing.T) {
	k, err := kb.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	path := LearnedPath(t.TempDir())
	l, err := OpenLearned(path)
	if err != nil {
		t.Fatal(err)
	}
	p := Proposal{Status: Pending, Site: "127.0.0.1:8081", Type: "wordpress", Level: "post", Action: ActionField,
		Object: kb.BlogPost, Field: kb.FieldTitle, Pattern: ".//p[contains(@class, 'x-title')]", Method: MethodRelearn,
		Pages: []string{"http://127.0.0.1:8081/a/", "http://127.0.0.1:8081/b/", "http://127.0.0.1:8081/c/"}, Checked: 3,
		Learned: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}.withID()
	if n, err := l.Add(p, p); err != nil || n != 1 {
		t.Fatalf("Add: %d, %v", n, err)
	}
	l2, err := OpenLearned(path)
	if err != nil {
		t.Fatal(err)
	}
	got := l2.List()
	if len(got) != 1 || got[0].ID != p.ID || !got[0].Learned.Equal(p.Learned) || len(got[0].Pages) != 3 {
		t.Fatalf("read back %+v", got)
	}
	doc, err := vdoc.New("http://127.0.0.1:8081/a/", nil, []byte(`<html><body class="single-post"><article class="post"><p class="x-title">New</p><div class="entry-content">Some words here.</div></article></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	pv, err := PreviewOn(k, got[0], doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(pv.After) == 0 || pv.After[0].Title != "New" {
		t.Errorf("preview after: %+v", pv.After)
	}
	if len(pv.Before) > 0 && pv.Before[0].Title == "New" {
		t.Errorf("preview before already has the learned title")
	}
	site := func(k2 *kb.KB) string {
		return k2.Type("wordpress").Level("post").Extract[0].Fields[kb.FieldTitle][0].String()
	}
	applied, err := l2.Apply(k, "127.0.0.1:8081")
	if err != nil || site(applied) != p.Pattern {
		t.Fatalf("applied for its site: first title alternative %q (%v)", site(applied), err)
	}
	if site(k) == p.Pattern {
		t.Fatal("Apply changed the KB it was given")
	}
	if err := l2.Reject(p.ID); err != nil {
		t.Fatal(err)
	}
	if err := l2.Accept("nosuch"); err == nil {
		t.Error("accepting an unknown ID succeeded")
	}
	applied, _ = l2.Apply(k, "127.0.0.1:8081")
	if site(applied) == p.Pattern {
		t.Error("a rejected pattern is still applied")
	}
	// l, a crawl's, learns more after the review made through l2: the
	// file keeps both.
	q := p
	q.Pattern = ".//h2"
	q = q.withID()
	if n, err := l.Add(q); err != nil || n != 1 {
		t.Fatalf("Add after the review: %d, %v", n, err)
	}
	l3, err := OpenLearned(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := l3.List(); len(got) != 2 || got[0].Status != Rejected || got[1].ID != q.ID {
		t.Errorf("after a review and another crawl's Add, the file holds %+v", got)
	}

	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("learned:\n  - id: 000000000000\n    status: maybe\n    site: x\n    type: nosuch\n    level: post\n    action: field\n    object: blog-post\n    field: title\n    pattern: .//h1[\n    method: relax\n    pages: []\n    checked: 0\n    learned: 2026-11-21T10:00:00Z\n"), 0o644)
	f, _ := os.Open(bad)
	defer f.Close()
	_, err = ParseLearned(bad, f, k)
	es, ok := err.(kb.Errors)
	if !ok || len(es) != 4 {
		t.Fatalf("want 4 problems (status, pattern, type, id), got %v", err)
	}
	for _, want := range []string{"bad.yaml:3:13: status", "bad.yaml:10:14: pattern", "bad.yaml:5:11: type", "bad.yaml:2:9: id"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors lack %q:\n%v", want, err)
		}
	}
}

// TestRelaxRejectsVacuous: a relaxed expression that selects any element
// (.//*, or //* after the detection prefix) is never a candidate, nor is
// one whose node holds the object's content; on pages whose title is
// the record's first element, in a tag the page has little of, the title
// relaxed is that tag, not .//* (which comes first in the paper's order
// and fits those pages too, and any other page with a short first
// element).
func TestRelaxRejectsVacuous(t *testing.T) {
	for _, c := range []struct {
		src    string
		frozen int
		want   bool
	}{
		{".//*", 0, true},
		{".//*//*", 0, true},
		{"//body[contains(@class, 'single')]//*", 1, true},
		{"//body[contains(@class, 'single')]//*", 0, false},
		{".//*[contains(@class, 'title')]", 0, false},
		{".//strong", 0, false},
		{".//*/@datetime", 0, true},
	} {
		p, err := parsePath(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := vacuous(p, c.frozen); got != c.want {
			t.Errorf("vacuous(%s, %d) = %v, want %v", c.src, c.frozen, got, c.want)
		}
	}
	tp, err := kb.ParseType("t.yaml", strings.NewReader(`type: plain
name: Plain
category: blog
detect: ["//body"]
levels:
  - name: post
    kind: terminal
    detect: ["//article"]
    extract:
      - object: blog-post
        records: //article
        fields:
          title: .//h1[contains(@class, 'entry-title')]
          content: .//div[contains(@class, 'entry-content')]
`))
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Repeat("birds of the valley seen on a long walk along the river ", 4)
	var docs []*vdoc.Doc
	for i := range 4 {
		d, err := vdoc.New(fmt.Sprintf("http://127.0.0.1/p%d/", i), nil, []byte(fmt.Sprintf(`<html><body>
			<article><strong>Walk number %d</strong><div class="entry-content"><p>%s %d</p><p>%s</p><p>%s</p></div></article>
			</body></html>`, i, words, i, words, words)))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	props := Relax(&kb.KB{Types: []*kb.Type{tp}}, tp, tp.Level("post"), docs, Options{Site: "127.0.0.1"})
	var title []string
	for _, p := range props {
		if p.Field == kb.FieldTitle {
			title = append(title, p.Pattern)
		}
	}
	if len(title) != 1 || title[0] != ".//strong" {
		t.Errorf("title relaxed to %q, want .//strong", title)
	}
}

// TestSessionSitesBounded observes pages of more sites than a session
// keeps the state of: it keeps maxSites, the most recently seen, and a
// site seen again after its state was dropped gets back what it learned.
func TestSessionSitesBounded(t *testing.T) {
	k := builtin(t)
	wp := k.Type("wordpress")
	s := &Session{KB: k}
	for i := range maxSites + 10 {
		d, err := vdoc.New(fmt.Sprintf("http://site%d.test/", i), nil, []byte(`<html><head><meta name="generator" content="WordPress 6.1"></head>
			<body class="home blog"><article><h2 class="entry-title"><a href="/a-post/">A post</a></h2></article></body></html>`))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			// As if the first site had learned a pattern.
			s.site(d.URL.Host).learned = []Proposal{{Type: "wordpress", Level: "list", Pattern: "//h2/a/@href"}}
		}
		s.Observe(d, wp, wp.Level("list"), nil)
	}
	if len(s.sites) != maxSites || s.lru.Len() != maxSites {
		t.Errorf("%d site states (%d in the LRU), want %d", len(s.sites), s.lru.Len(), maxSites)
	}
	if _, ok := s.sites["site0.test"]; ok {
		t.Error("the least recently seen site's state is still kept")
	}
	if got := s.site("site0.test").learned; len(got) != 1 || got[0].Pattern != "//h2/a/@href" {
		t.Errorf("site seen again: learned %+v, want its proposal back", got)
	}
}
