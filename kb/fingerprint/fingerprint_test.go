package fingerprint

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// TestLiteralSets checks the literals a pattern is indexed under: the
// most selective set, small alternations expanded, markup words passed
// over, and the other sets kept as requirements unless they are markup
// every page has.
func TestLiteralSets(t *testing.T) {
	cases := []struct {
		re       string
		lits     []string
		need     int
		pure     bool
		anchored bool
	}{
		{`<(?:link|a)[^>]+href=["']wss?://`, []string{`href="wss://`, `href="ws://`, "href='wss://", "href='ws://"}, 0, false, false},
		{`<[^>]+class="[^"]*(?:uk-container|uk-section)`, []string{"uk-container", "uk-section"}, 0, false, false},
		{`(?:d|s)\.adroll\.com/`, []string{"d.adroll.com/", "s.adroll.com/"}, 0, true, false},
		{`<!--Powered by Smart[sS]tore`, []string{"<!--powered by smartstore"}, 0, true, false},
		{`\.php(?:\?|$)`, []string{".php"}, 0, false, true},
		{`jquery[.-]([\d.]+)\.js\;version:\1`, []string{"jquery-", "jquery."}, 0, false, false},
		{`<link[^>]+alpha-widget[^>]+beta-theme\.css`, []string{"alpha-widget"}, 1, false, false},
		{`p5(?:\.min)?\.js`, []string{"p5.min.js", "p5.js"}, 0, true, false},
		// The second-best sets of an alternation's branches are required
		// too: sys_master, hybr or _ui/, in the windows (sets) but not
		// looked up in the whole page (hybr is short).
		{`<[^>]+/(?:sys_master|hybr|_ui/(?:.*responsive/)?(?:desktop|common(?:/images|/img|/css|ico)?))/`,
			[]string{"sys_master", "hybr", "desktop", "common/images", "common/img", "common/css", "commonico", "common"}, 0, false, false},
	}
	for _, c := range cases {
		p, err := compile(0, "html", "", c.re)
		if err != nil {
			t.Fatalf("%s: %v", c.re, err)
		}
		s := &Set{}
		s.index([]*pattern{p})
		if !slices.Equal(p.lits, c.lits) || len(p.need) != c.need || p.pure != c.pure || p.anchored != c.anchored {
			t.Errorf("%s: lits %q need %d pure %v anchored %v; want %q %d %v %v",
				c.re, p.lits, len(p.need), p.pure, p.anchored, c.lits, c.need, c.pure, c.anchored)
		}
	}
	// The windows of the alternation above need a literal of both sets.
	p, err := compile(0, "html", "", cases[len(cases)-1].re)
	if err != nil {
		t.Fatal(err)
	}
	(&Set{}).index([]*pattern{p})
	if !slices.ContainsFunc(p.sets, func(set []string) bool { return slices.Equal(set, []string{"sys_master", "hybr", "_ui/"}) }) {
		t.Errorf("sets %q lack {sys_master, hybr, _ui/}", p.sets)
	}
}

// TestStopBytes checks the bytes that bound where an html pattern's match
// lies around its literal.
func TestStopBytes(t *testing.T) {
	cases := []struct {
		re          string
		stop, holds string // bytes in the stop set, bytes not in it
		narrow      bool
	}{
		{`<[^>]+/sys_master`, ">", "<a/_ÿ\n", true},
		{`<!--[^>]+WP-Super-Cache`, ">", "<!-wpWP", true},
		{`_ui/.*responsive/`, "\n", "<>a", true},
		{`k[\s\S]+z`, "", "\n>kKz", false}, // no stop byte: nothing to cut by
		{`\bfoo`, "", "", false},
	}
	for _, c := range cases {
		p, err := compile(0, "html", "", c.re)
		if err != nil {
			t.Fatal(err)
		}
		literalSets(p)
		if p.narrow != c.narrow {
			t.Errorf("%s: narrow %v, want %v", c.re, p.narrow, c.narrow)
		}
		for _, b := range []byte(c.stop) {
			if !p.stop.has(b) {
				t.Errorf("%s: %q is not a stop byte", c.re, b)
			}
		}
		for _, b := range []byte(c.holds) {
			if p.stop.has(b) {
				t.Errorf("%s: %q is a stop byte, but a match may hold it", c.re, b)
			}
		}
	}
}

// TestMatch loads a small fingerprint directory and matches pages: each
// field kind, versions, implied technologies, the window of an html
// pattern far into a page, and the need for every required literal.
func TestMatch(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("categories.json", `{"1": {"name": "CMS"}, "59": {"name": "JavaScript libraries"}, "12": {"name": "JavaScript frameworks"}}`)
	write("technologies/a.json", `{
 "Acme CMS": {"cats": [1], "meta": {"generator": "^Acme(?: ([\\d.]+))?\\;version:\\1"}, "implies": "PHP"},
 "Boxlib": {"cats": [59], "scriptSrc": "boxlib-([\\d.]+)\\.min\\.js\\;version:\\1"},
 "Deep Widget": {"cats": [59], "html": "<div[^>]+class=\"deep-widget-(\\d+)\"\\;version:\\1"},
 "Two Parts": {"cats": [59], "html": "alpha-part[^<]{0,40}omega-part"},
 "Served": {"cats": [12], "headers": {"X-Powered-By": "served"}, "cookies": {"served_session": ""}},
 "Jsonly": {"cats": [59], "js": {"Jsonly": ""}, "scripts": "jsonly"}
}`)
	write("technologies/p.json", `{"PHP": {"cats": [12]}}`)
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Stats.Technologies != 7 || s.Stats.SkippedJS != 0 || s.Stats.SkippedScripts != 1 {
		t.Errorf("stats %+v", s.Stats)
	}
	filler := regexp.MustCompile(`x`).ReplaceAllString(string(make([]byte, 0)), "")
	for range 600 {
		filler += "<p>filler text</p>\n"
	}
	page := `<html><head><meta name="generator" content="Acme 2.4"><script src="/js/boxlib-1.9.3.min.js"></script></head><body>` +
		filler + `<div id="w" class="deep-widget-7">x</div><p>alpha-part only</p>` + filler + `</body></html>`
	d, err := vdoc.New("https://example.org/", http.Header{"X-Powered-By": {"served"}}, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Match{}
	for _, m := range s.Match(d) {
		got[m.Name] = m
	}
	want := map[string]string{"Acme CMS": "2.4", "Boxlib": "1.9.3", "Deep Widget": "7", "Served": "", "PHP": ""}
	for name, version := range want {
		m, ok := got[name]
		if !ok {
			t.Errorf("%s not found", name)
			continue
		}
		if m.Version != version {
			t.Errorf("%s: version %q, want %q", name, m.Version, version)
		}
	}
	if !got["PHP"].Implied || got["Acme CMS"].AppCategory != "cms" {
		t.Errorf("PHP %+v, Acme %+v", got["PHP"], got["Acme CMS"])
	}
	for _, name := range []string{"Two Parts", "Jsonly"} {
		if _, ok := got[name]; ok {
			t.Errorf("%s found, but the page lacks it", name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("found %d technologies, want %d: %v", len(got), len(want), got)
	}
	// A subset keeps the first technologies by name only.
	if sub := s.Subset(First(2)); len(sub.Match(d)) != 2 { // Acme CMS and Boxlib; PHP is not in it
		t.Errorf("subset of 2: %v", sub.Match(d))
	}
	// One by name keeps implies within it, renumbered: Served comes
	// between Acme CMS and PHP in the whole set.
	keep := map[string]bool{"Acme CMS": true, "PHP": true}
	sub := s.Subset(func(name string) bool { return keep[name] })
	if m := sub.Match(d); len(m) != 2 || m[0].Name != "Acme CMS" || m[1].Name != "PHP" || !m[1].Implied {
		t.Errorf("subset of Acme CMS and PHP: %+v", m)
	}
}

// TestPrefilterAgainstBruteForce matches saved pages with every pattern
// tried on its whole field (MatchExhaustive: no literal index, no
// windows) and compares with Match: the index may only skip patterns
// that cannot match.
func TestPrefilterAgainstBruteForce(t *testing.T) {
	s, pages := loadShared(t)
	// Every 20th page: the brute force tries all patterns on whole pages.
	checked, found := 0, 0
	for i := 0; i < len(pages); i += 20 {
		d := savedDoc(t, pages[i])
		brute := map[string]bool{}
		for _, m := range s.MatchExhaustive(d) {
			if !m.Implied {
				brute[m.Name] = true
			}
		}
		got := map[string]bool{}
		for _, m := range s.Match(d) {
			if !m.Implied {
				got[m.Name] = true
			}
		}
		for name := range brute {
			if !got[name] {
				t.Errorf("%s: %s matches the whole page but Match missed it", filepath.Base(pages[i]), name)
			}
		}
		for name := range got {
			if !brute[name] {
				t.Errorf("%s: Match found %s, which no pattern matches", filepath.Base(pages[i]), name)
			}
		}
		checked++
		found += len(got)
	}
	t.Logf("%d pages, %d technologies found, as by brute force", checked, found)
}

// TestOpening checks the literal an html regex's matches start with and
// the sets they hold before the next '>', and that matching from that
// literal on (findHead) gives what the regex gives on the whole text,
// version included.
func TestOpening(t *testing.T) {
	cases := []struct {
		re, head string
		gate     [][]string
	}{
		{`<link[^>]* href=[^>]*?bootstrap(?:[^>]*?([\d.]+))?[^>-]*?\.css\;version:\1`, "<link", [][]string{{" href="}, {"bootstrap"}, {".css"}}},
		{`<[^>]+/(?:sys_master|hybr|_ui/(?:.*responsive/)?(?:desktop|common))/`, "<", [][]string{{"/"}, {"sys_master", "hybr", "_ui/"}}},
		{`<[^>]+/x`, "", nil},     // a bare < without a rare literal
		{`(?:a|b)<link`, "", nil}, // no one opening literal
		{`Ärger<link`, "", nil},   // a non-ASCII letter has case variants
		{`<!--[^>]*HFCM\sby`, "<!--", [][]string{{"hfcm"}, {"by"}}},
	}
	pages := []string{
		`<link rel=stylesheet><LINK media=all HREF=/css/bootstrap.min.css> <link href=/bootstrap-4.1.3.css>`,
		`<img src=/a/b/_ui/x/desktop/ alt=x><a href=/hybr/>`,
		`<!-- hfcm by x --><!-- HFCM by 99 -->`,
	}
	for _, c := range cases {
		p, err := compile(0, "html", "", c.re)
		if err != nil {
			t.Fatal(err)
		}
		literalSets(p)
		if p.head != c.head || !slices.EqualFunc(p.gate, c.gate, slices.Equal[[]string]) {
			t.Errorf("%s: opening %q %q, want %q %q", c.re, p.head, p.gate, c.head, c.gate)
		}
		s := &Set{}
		s.index([]*pattern{p})
		matched := 0
		for _, page := range pages {
			html := []byte(page)
			v, ok := findHead(p, html, vdoc.LowerASCII([]byte(page)))
			wv, wok := find(p, html)
			if v != wv || ok != wok {
				t.Errorf("%s on %s: findHead %q %v, find %q %v", c.re, page, v, ok, wv, wok)
			}
			if ok {
				matched++
			}
		}
		if matched == 0 && c.head != "" {
			t.Errorf("%s matches none of the pages", c.re)
		}
	}
}

// TestLowered runs every html and scriptSrc regex of the webappanalyzer
// set as loaded (with (?i)) on saved pages or script sources, and its
// lowered form on the same texts lower-cased: the two must agree on
// whether and where they match and on the version. A scriptSrc regex is
// run on the sources of all saved pages that hold one of its literals
// (those it is matched on), an html regex on every 20th page if it holds
// one.
func TestLowered(t *testing.T) {
	s, pages := loadShared(t)
	// A text as sent and lower-cased.
	type text struct{ raw, lower []byte }
	mk := func(b []byte) text { return text{b, vdoc.LowerASCII(b)} }
	// Upper-case variants, so that folding has something to do.
	html := []text{mk([]byte(`<LINK REL="STYLESHEET" HREF="/WP-CONTENT/THEMES/X/STYLE.CSS?VER=6.1"><META NAME="GENERATOR" CONTENT="WordPress 6.1">`))}
	sources := []text{mk([]byte(`/JS/JQUERY-3.6.0.MIN.JS`)), mk([]byte(`HTTPS://CDN.EXAMPLE.ORG/BOOTSTRAP/4.1.3/JS/BOOTSTRAP.MIN.JS`))}
	for i, f := range pages {
		d := savedDoc(t, f)
		if i%20 == 0 {
			html = append(html, mk(d.Body))
		}
		for _, src := range gather(d).scriptSrc {
			sources = append(sources, mk([]byte(src)))
		}
	}
	compared, matched := 0, 0
	for _, p := range s.pats {
		rx := p.regexes()
		if rx == nil || p.field != "html" && p.field != "scriptSrc" {
			continue
		}
		texts := html
		if p.field == "scriptSrc" {
			texts = sources
		}
		for _, x := range texts {
			if len(p.lits) > 0 && !slices.ContainsFunc(p.lits, func(l string) bool { return bytes.Contains(x.lower, []byte(l)) }) {
				continue // never tried on it
			}
			if w, g := rx.re.FindIndex(x.raw), rx.low.FindIndex(x.lower); !slices.Equal(w, g) {
				t.Fatalf("%s on %.80q: match at %v, lowered at %v", p.src, x.raw, w, g)
			}
			wv, wok := find(p, x.raw)
			gv, gok := findLow(p, x.raw, x.lower)
			if wv != gv || wok != gok {
				t.Fatalf("%s on %.80q: version %q %v, lowered %q %v", p.src, x.raw, wv, wok, gv, gok)
			}
			compared++
			if wok {
				matched++
			}
		}
	}
	t.Logf("%d regex runs compared, %d matches", compared, matched)
	if matched == 0 {
		t.Error("no regex matched: the comparison compared nothing")
	}
}

var (
	sharedOnce sync.Once
	sharedSet  *Set
	sharedErr  error
)

// loadShared returns the webappanalyzer set of ../shared (loaded once for
// the package's tests) and the paths of the saved pages.
func loadShared(t *testing.T) (*Set, []string) {
	t.Helper()
	dir := testenv.Path(t, "data", "fingerprints", "webappanalyzer")
	pages, err := filepath.Glob(filepath.Join(testenv.Path(t, "data", "aah-pages"), "pages", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no saved pages: %v", err)
	}
	sharedOnce.Do(func() { sharedSet, sharedErr = Load(dir) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedSet, pages
}

// TestMatchDeterministic matches every saved page three times: the
// technologies, and for each the rule that fired and the version it read,
// must not change from one call to the next (Go's map order varies).
func TestMatchDeterministic(t *testing.T) {
	s, pages := loadShared(t)
	varied := 0
	for _, f := range pages {
		d := savedDoc(t, f)
		first := s.Match(d)
		for range 2 {
			if again := s.Match(d); !slices.EqualFunc(first, again, func(a, b Match) bool { return a.Name == b.Name && a.Version == b.Version && a.Pattern == b.Pattern }) {
				varied++
				t.Errorf("%s: %s, then %s", filepath.Base(f), brief(first), brief(again))
				break
			}
		}
	}
	if varied > 0 {
		t.Errorf("%d of %d pages matched differently from one call to the next", varied, len(pages))
	}
}

// brief lists matches as name=version (rule).
func brief(ms []Match) string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name+"="+m.Version+" ("+m.Pattern+")")
	}
	return strings.Join(out, ", ")
}

// savedDoc reads the saved page at path as served from example.org.
func savedDoc(t *testing.T, path string) *vdoc.Doc {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := vdoc.New("https://example.org/", nil, body)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestJSRules checks js rules read as a global's definition in the
// markup: declared or set on window for a lone name, assigned (the path
// or a prefix of two names or more) for a path; a mention, a comparison,
// a longer name or a property of something else is no definition; a rule
// on the global's value is left out.
func TestJSRules(t *testing.T) {
	type tc struct {
		key, page string
		want      bool
	}
	for _, c := range []tc{
		{"smf_theme_url", `<script>var smf_theme_url = "https://x/Themes";</script>`, true},
		{"smf_theme_url", `<script>let smf_theme_url;</script>`, true},
		{"inSidedData", `<script>window.inSidedData = {"user":1};</script>`, true},
		{"inSidedData", `<script>window['inSidedData']={};</script>`, true},
		{"inSidedData", `<p>inSidedData = a community platform</p>`, false},
		{"inSidedData", `<script>if (window.inSidedData == null) {}</script>`, false},
		{"inSidedData", `<script>var inSidedDataLayer = 1;</script>`, false},
		{"Drupal", `<script>var Drupal = Drupal || {};</script>`, true},
		{"Drupal", `<script>jQuery.extend(Drupal.settings, {});</script>`, false},
		{"Backdrop", `<script>var backdrop = $('.sidebar');</script>`, false},
		{"Static.SQUARESPACE_CONTEXT.templateVersion", `<script>Static.SQUARESPACE_CONTEXT = {"templateVersion":"7.1"};</script>`, true},
		{"Static.SQUARESPACE_CONTEXT.templateVersion", `<script>Static.SQUARESPACE_CONTEXT.templateVersion = 7;</script>`, true},
		{"Static.SQUARESPACE_CONTEXT.templateVersion", `<script>x.Static.SQUARESPACE_CONTEXT = {};</script>`, false},
		{"Static.SQUARESPACE_CONTEXT.templateVersion", `<script>if (Static.SQUARESPACE_CONTEXT === y) {}</script>`, false},
		{"app.forum.freshness", `<script>app.forum.freshness => 1</script>`, false},
	} {
		src, path, ok := jsRule(c.key, json.RawMessage(`""`))
		if !ok || src == "" {
			t.Fatalf("%s: not read", c.key)
		}
		if got := findJS(path, []byte(c.page), vdoc.LowerASCII([]byte(c.page))); got != c.want {
			t.Errorf("%s on %s: %v, want %v", c.key, c.page, got, c.want)
		}
	}
	if _, _, ok := jsRule("Foo.version", json.RawMessage(`"^2\\."`)); ok {
		t.Error("a rule on the value was read")
	}
	if _, _, ok := jsRule("Foo.version", json.RawMessage(`"^(.+)$\\;version:\\1"`)); !ok {
		t.Error("a rule reading the version was left out")
	}
}

// TestDOMRules checks dom rules matched as CSS selectors on the parsed
// page: a selector list split at its commas, attribute and text
// conditions with the version they read, a selector with no literal to
// file it under or a rule on DOM properties left out.
func TestDOMRules(t *testing.T) {
	page := `<html data-wf-site="5f0c"><head><link rel="stylesheet" href="/sites/all/themes/x/style.css"></head><body>
<table class="tablebg forumline"><tr><td>x</td></tr></table>
<p class="engine-version" title="version 4.2">Powered by Acme</p></body></html>`
	d, err := vdoc.New("https://example.org/", nil, []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		raw, version string
		want         bool
	}{
		{`"html[data-wf-site]"`, "", true},
		{`["div.nothing-here", "link[href*='/sites/default/themes/'], link[href*='/sites/all/themes/']"]`, "", true},
		{`"table[class*='forumline']"`, "", true},
		{`"table[class*='forumlines']"`, "", false},
		{`{"p.engine-version": {"attributes": {"title": "^version ([\\d.]+)$\\;version:\\1"}, "text": "Powered by Acme"}}`, "4.2", true},
		{`{"p.engine-version": {"text": "^Powered by Other"}}`, "", false},
	} {
		rules, lits, _ := domRules(json.RawMessage(c.raw))
		got, version := false, ""
		for i, r := range rules {
			if v, ok := findDOM(r, d.Root); ok {
				got, version = true, v
				if !bytes.Contains(vdoc.LowerASCII([]byte(page)), []byte(lits[i])) {
					t.Errorf("%s matches, but its literal %q is not in the page", r.selector, lits[i])
				}
			}
		}
		if got != c.want || version != c.version {
			t.Errorf("%s: %v %q, want %v %q", c.raw, got, version, c.want, c.version)
		}
	}
	if rules, _, skipped := domRules(json.RawMessage(`{"title": {"text": "^Pleroma$"}, "a.x-long-class": {"properties": {"p": ""}}}`)); len(rules) != 0 || skipped != 2 {
		t.Errorf("kept %d rules, skipped %d", len(rules), skipped)
	}
}
