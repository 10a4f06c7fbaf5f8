package extract

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/net/html/atom"

	"github.com/mneme-archive/mneme/crawler/canon"
)

func mustURL(t testing.TB, raw string) canon.URL {
	t.Helper()
	u, err := canon.New(canon.Options{}).Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func extract(t testing.TB, base, mediaType, body string) []Outlink {
	t.Helper()
	out, err := New(Options{}).Extract(Document{URL: mustURL(t, base), MediaType: mediaType, Body: strings.NewReader(body)})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// summary renders outlinks as "HOP context url" lines for comparison.
func summary(out []Outlink) string {
	var b strings.Builder
	for _, o := range out {
		fmt.Fprintf(&b, "%s %s %s\n", o.Hop, o.Context, o.URL.Href)
	}
	return b.String()
}

func TestHTMLLinksHopsAndContexts(t *testing.T) {
	const page = `<!DOCTYPE html><html><head>
<base href="/base/">
<base href="/ignored/">
<link rel="stylesheet" href="main.css"><link rel="canonical" href="https://example.com/canon">
<link rel="alternate" hreflang="de" href="/de/"><link rel="icon" href="/favicon.ico">
<link rel="pingback" href="/xmlrpc.php"><link rel="dns-prefetch" href="//cdn.example.com"><link href="/no-rel">
<meta http-equiv="Refresh" content="5; URL='later.html'">
<script src="app.js"></script>
<style>body { background: url("bg.png") } /* url(commented.png) */ @import 'print.css';</style>
</head><body background="tile.gif">
<a href="page1.html">One</a>
<a href="javascript:void(0)">js</a><a href="mailto:x@example.com">mail</a><a href="#top">top</a>
<img src="a.png" srcset="a-1x.png 1x, a-2x.png 2x,a,b.png 3x" alt="A">
<picture><source srcset="s.webp 100w, s2.webp 200w" type="image/webp"></picture>
<iframe src="frame.html"></iframe><frame src="f2.html">
<video src="v.mp4" poster="p.jpg"></video><object data="o.swf"></object><embed src="e.swf">
<form action="search"><input type="image" src="go.png"></form><form method="post" action="login"></form>
<div style="background-image:url(div.jpg)">x</div>
<area href="map.html">
<noscript><img src="fallback.gif"></noscript>
<img data-src="lazy.jpg">
</body></html>`
	got := summary(extract(t, "http://example.com/dir/index.html", "text/html", page))
	want := `E link[rel='stylesheet']/@href http://example.com/base/main.css
L link/@href https://example.com/canon
L link/@href http://example.com/de/
E link[rel='icon']/@href http://example.com/favicon.ico
R meta http://example.com/base/later.html
E script/@src http://example.com/base/app.js
E =EMBED_MISC http://example.com/base/bg.png
E =EMBED_MISC http://example.com/base/print.css
E body/@background http://example.com/base/tile.gif
L a/@href http://example.com/base/page1.html
L a/@href http://example.com/base/
E img/@src http://example.com/base/a.png
E img/@srcset http://example.com/base/a-1x.png
E img/@srcset http://example.com/base/a-2x.png
E img/@srcset http://example.com/base/a,b.png
E source/@srcset http://example.com/base/s.webp
E source/@srcset http://example.com/base/s2.webp
E iframe/@src http://example.com/base/frame.html
E frame/@src http://example.com/base/f2.html
E video/@src http://example.com/base/v.mp4
E video/@poster http://example.com/base/p.jpg
E object/@data http://example.com/base/o.swf
E embed/@src http://example.com/base/e.swf
L form/@action http://example.com/base/search
E input/@src http://example.com/base/go.png
E =EMBED_MISC http://example.com/base/div.jpg
L area/@href http://example.com/base/map.html
E img/@src http://example.com/base/fallback.gif
E img/@data-src http://example.com/base/lazy.jpg
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestAnchorTextAndParagraph(t *testing.T) {
	long := strings.Repeat("filler words ", 200)
	page := `<body><nav><a href="/home">  Home
	page </a> | <a href="/about"><img src="i.png" alt="About us"></a></nav>
<p>Read the <a href="/story">full <b>story</b></a> about
the  floods.</p>
<p>` + long + `<a href="/deep">deep link</a>` + long + `</p>
<ul><li>First <a href="/home">Home again</a></li></ul>
<p>unclosed <a href="/open">open anchor
<div>after</div>`
	out := extract(t, "http://example.com/", "text/html", page)
	byURL := map[string]Outlink{}
	for _, o := range out {
		if o.Hop == Link {
			byURL[o.URL.Path] = o
		}
	}
	for path, want := range map[string][2]string{
		"/home":  {"Home page", "Home page |"},
		"/about": {"About us", "Home page |"},
		"/story": {"full story", "Read the full story about the floods."},
		"/open":  {"open anchor after", "unclosed open anchor"}, // the div is inside the open <a>
	} {
		o := byURL[path]
		if o.Text != want[0] || o.Paragraph != want[1] {
			t.Errorf("%s: text %q paragraph %q; want %q, %q", path, o.Text, o.Paragraph, want[0], want[1])
		}
	}
	deep := byURL["/deep"]
	if len(deep.Paragraph) > 1024 || !strings.Contains(deep.Paragraph, "deep link") {
		t.Errorf("deep paragraph (%d bytes) does not centre on its link: %q", len(deep.Paragraph), deep.Paragraph)
	}
	if len(out) != 6 {
		t.Errorf("%d outlinks, want 6 (a repeated URL is listed once):\n%s", len(out), summary(out))
	}
}

// TestNoParagraphs: with MaxParagraph negative the outlinks and their
// anchor texts are the same, without paragraphs.
func TestNoParagraphs(t *testing.T) {
	page := `<p>Read the <a href="/story">full <b>story</b></a> about the floods.</p><img src="/i.png">`
	out, err := New(Options{MaxParagraph: -1}).Extract(Document{URL: mustURL(t, "http://example.com/"), MediaType: "text/html", Body: strings.NewReader(page)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := summary(out), summary(extract(t, "http://example.com/", "text/html", page)); got != want {
		t.Errorf("outlinks without paragraphs:\n%s\nwant\n%s", got, want)
	}
	if len(out) != 2 || out[0].Text != "full story" || out[0].Paragraph != "" {
		t.Errorf("outlinks %+v, want the story link with its text and no paragraph first", out)
	}
}

func TestMalformedHTMLSurvives(t *testing.T) {
	for _, page := range []string{
		`<a href="/a"<a href=/b>b</a><img src=/c.png`,
		`<<<>>><a href='/d'>unterminated`,
		"<a href=\"/e\x00\">nul</a><a href=\"http://[::1\">bad host</a><a href=\"http://x:99999/\">bad port</a>",
		`<p><table><td><a href="/f">cell</td></p></table></a>`,
		`<script>document.write("<a href='/not-markup'>")</script><a href=/g>g</a>`,
		`<!-- <a href="/commented"> --><a href="/h">h</a>`,
		`<style>url(`,
		`<a href="` + strings.Repeat("x", 100000) + `">long</a>`,
		string([]byte{0xff, 0xfe, '<', 'a', ' ', 'h', 'r', 'e', 'f', '=', '/', 'i', '>'}),
	} {
		out, err := New(Options{}).Extract(Document{URL: mustURL(t, "http://example.com/"), MediaType: "text/html", Body: strings.NewReader(page)})
		if err != nil {
			t.Errorf("%.40q: %v", page, err)
		}
		for _, o := range out {
			if strings.Contains(o.URL.Href, "not-markup") || strings.Contains(o.URL.Href, "commented") {
				t.Errorf("%.40q: link from script or comment: %s", page, o.URL.Href)
			}
		}
	}
	got := summary(extract(t, "http://example.com/", "text/html", `<p><table><td><a href="/f">cell</td></p></table></a><a href=/g>g`))
	if got != "L a/@href http://example.com/f\nL a/@href http://example.com/g\n" {
		t.Errorf("misnested markup: %s", got)
	}
}

func TestOddURLsCanonicalized(t *testing.T) {
	page := `<a href="HTTP://BÜCHER.Example:80/a/./b/../c?q=ä#frag">idn</a>
<a href="  /spaced path  ">spaces</a><a href="//other.example/x">scheme-relative</a>
<a href="http://example.com/%7euser">tilde</a><a href="?only=query">q</a>`
	got := summary(extract(t, "http://example.com/dir/page", "text/html", page))
	want := `L a/@href http://xn--bcher-kva.example/a/c?q=%C3%A4
L a/@href http://example.com/spaced%20path
L a/@href http://other.example/x
L a/@href http://example.com/~user
L a/@href http://example.com/dir/page?only=query
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestMetaRefreshForms(t *testing.T) {
	for content, want := range map[string]string{
		"0;url=/a":         "http://example.com/a",
		"5 ; URL = '/b'":   "http://example.com/b",
		`3, "/c"`:          "http://example.com/c",
		"10":               "",
		"1; url=":          "",
		"0; http://d.com/": "http://d.com/",
	} {
		out := extract(t, "http://example.com/", "text/html", `<meta http-equiv="refresh" content="`+strings.ReplaceAll(content, `"`, "&quot;")+`">`)
		got := ""
		if len(out) == 1 && out[0].Hop == Redirect {
			got = out[0].URL.Href
		}
		if got != want || len(out) > 1 {
			t.Errorf("refresh %q: %s, want %q", content, summary(out), want)
		}
	}
}

func TestCSSDocument(t *testing.T) {
	css := `@import "a.css"; @import url(b.css);
.x { background: URL( 'c.png' ) } .y{background:url(d.png)} /* url(e.png) */ .z{content:"url(f)"}
.w { mask: no-url(g.png) } @font-face { src: url(data:font/woff;base64,AAAA) }`
	got := summary(extract(t, "http://example.com/css/site.css", "text/css", css))
	want := `E =EMBED_MISC http://example.com/css/a.css
E =EMBED_MISC http://example.com/css/b.css
E =EMBED_MISC http://example.com/css/c.png
E =EMBED_MISC http://example.com/css/d.png
E =EMBED_MISC http://example.com/css/f
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestOtherMediaTypesHaveNoLinks(t *testing.T) {
	if out := extract(t, "http://example.com/", "image/png", `<a href="/x">`); len(out) != 0 {
		t.Errorf("links from an image: %s", summary(out))
	}
}

func TestMaxOutlinks(t *testing.T) {
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, `<a href="/p%d">%d</a>`, i, i)
	}
	out, err := New(Options{MaxOutlinks: 10}).Extract(Document{URL: mustURL(t, "http://example.com/"), MediaType: "text/html", Body: strings.NewReader(b.String())})
	if err != nil || len(out) != 10 || out[9].URL.Path != "/p9" {
		t.Errorf("%d outlinks (%v), want the first 10", len(out), err)
	}
}

func TestWindow(t *testing.T) {
	s := "ab€cd€ef" // € is 3 bytes
	for _, c := range []struct {
		at, size int
		want     string
	}{
		{0, 100, s}, {0, 4, "ab"}, {12, 4, "ef"}, {6, 5, "cd"}, {6, 8, "€cd€"},
	} {
		if got := window(s, c.at, c.size); got != c.want {
			t.Errorf("window(%q, %d, %d) = %q, want %q", s, c.at, c.size, got, c.want)
		}
	}
}

// TestTextWriteShortcut compares write, which appends text that needs no
// collapsing whole, with writeWords on random text and buffer states.
func TestTextWriteShortcut(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"word", "a", "é", " ", " ", "  ", "\t", "\n", "\r\n", "\f", "\x01", "long-word-of-many-bytes"}
	for range 20000 {
		max := 1 + r.IntN(40)
		var fast, slow textBuf
		fast.max, slow.max = max, max
		for range 1 + r.IntN(4) {
			var p []byte
			for range r.IntN(8) {
				p = append(p, pieces[r.IntN(len(pieces))]...)
			}
			if r.IntN(4) == 0 {
				fast.separate()
				slow.separate()
			}
			fast.write(p)
			slow.writeWords(p)
			if string(fast.b) != string(slow.b) || fast.space != slow.space {
				t.Fatalf("after %q (max %d): write gives %q (space %v), writeWords %q (space %v)", p, max, fast.b, fast.space, slow.b, slow.space)
			}
		}
	}
}

// TestTagAtom checks tagAtom against atom.Lookup on the names it knows,
// names beside them and names of no element.
func TestTagAtom(t *testing.T) {
	for _, name := range []string{"a", "p", "b", "i", "q", "s", "u", "li", "td", "tr", "br", "ul", "em", "ol", "th", "h1", "div", "img", "nav", "dir", "ins",
		"span", "link", "meta", "main", "body", "html", "head", "script", "x", "xx", "xyz", "abcd", ""} {
		if got, want := tagAtom([]byte(name)), atom.Lookup([]byte(name)); got != want {
			t.Errorf("tagAtom(%q) = %v, want %v", name, got, want)
		}
	}
}
