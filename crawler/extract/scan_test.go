package extract

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/mneme-archive/mneme/internal/synthweb"
	"github.com/mneme-archive/mneme/internal/testenv"
)

// netTokenizer is x/net/html's Tokenizer as the extractor sets it up: the
// reference the scanner is compared with.
func netTokenizer(b []byte) tokenizer {
	z := html.NewTokenizer(bytes.NewReader(b))
	z.SetMaxBuf(maxToken)
	return z
}

// tokens lists what a tokenizer gives for a document, as the extractor
// reads it: tag names and attributes, and the text of text tokens. A
// self-closing tag is a start tag and a doctype a comment to the
// extractor, so they are listed alike.
func tokens(z tokenizer) []string {
	var out []string
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return append(out, fmt.Sprintf("error %v", z.Err()))
		case html.TextToken:
			out = append(out, "text "+string(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			t := "start " + string(name)
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				t += fmt.Sprintf(" %q=%q(nil:%v)", k, v, v == nil)
			}
			out = append(out, t)
		case html.EndTagToken:
			name, _ := z.TagName()
			out = append(out, "end "+string(name))
		case html.CommentToken, html.DoctypeToken:
			out = append(out, "comment")
		}
	}
}

// sameAsTokenizer fails unless the scanner gives the tokens x/net/html's
// Tokenizer gives for doc, and the extractor the same outlinks with
// either (the scanner's pass gathering the content text, which must be
// the reference's, as ContentText's alone).
func sameAsTokenizer(t *testing.T, name string, doc []byte) {
	t.Helper()
	want, got := tokens(netTokenizer(doc)), tokens(newScanner(doc, maxToken))
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("%s: token %d: scanner %q, tokenizer %q", name, i, got[i], want[i])
			}
		}
		t.Fatalf("%s: scanner gives %d tokens, tokenizer %d", name, len(got), len(want))
	}
	content := referenceContent(doc)
	// With paragraphs and without: without, the scanner skips the text
	// outside links (but not while it gathers the content text).
	for _, opts := range []Options{{}, {MaxParagraph: -1}} {
		x := New(opts)
		d := Document{URL: mustURL(t, "http://example.com/dir/page.html"), MediaType: "text/html", Text: doc}
		wantLinks, wantErr := x.htmlWith(d, netTokenizer)
		gotLinks, gotErr := x.htmlWith(d, func(b []byte) tokenizer { return newScanner(b, maxToken) })
		if !reflect.DeepEqual(gotLinks, wantLinks) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%s: %+v: scanner: %d links (%v), tokenizer: %d links (%v)", name, opts, len(gotLinks), gotErr, len(wantLinks), wantErr)
		}
		// The pass that also gathers the content text finds the same links.
		gotLinks, text, gotErr := x.ExtractContent(d)
		if !reflect.DeepEqual(gotLinks, wantLinks) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%s: %+v: scanner with the content text: %d links (%v), tokenizer: %d links (%v)", name, opts, len(gotLinks), gotErr, len(wantLinks), wantErr)
		}
		if text != content {
			t.Fatalf("%s: %+v: content text %q, reference %q", name, opts, text, content)
		}
	}
	if got := ContentText(doc); got != content {
		t.Fatalf("%s: ContentText %q, reference %q", name, got, content)
	}
}

// scannerCases are the tokenizer's corner cases: unterminated tags,
// comments and raw text at the end, script escapes, duplicate and
// upper-case attributes, references in attributes and text, NULs and
// carriage returns.
var scannerCases = []string{
	`<a href="x">t</a>`, `<A HREF=x Href=y>T</A>`, `<a href="">e</a><base href="">`, `<a href=x`, `<a href="x`, `<a`, `<`, `</`, `</>`, `</ a>`, `<!`, `<!-`, `<!--`, `<!-->x`, `<!--->x`, `<!-- a -- b --!>x`, `<!-- a --!-->y`,
	`<!DOCTYPE html><p>x`, `<!doctyp`, `<!DOCTYPE`, `<!x>y`, `<?xml version="1.0"?>z`, `<![CDATA[x]]>y`, `a < b <3 <a/>`, `<br/><img src=a.png/>`, `<p a=/>x`, `<p =a=b>`, `<p a = "b" c='d' e=f g>`,
	`<script>if (a<b) x("</scr"+"ipt>")</script><a href=s>`, `<script><!-- document.write("<script>x</script>") --></script><a href=t>`, `<script><!--<script>a</script>--></script><a href=u>`,
	`<script><!-- x --> <a href=v></script>`, `<script><!--<SCRIPT/>--!></script>w`, `<script>`, `<script></scrip`, `<script><!--`, `<script><!--<scrip`, `<script><!--<script `,
	`<style>a{background:url(b.png)}</STYLE ><a href=c>`, `<title>a &amp; <b></title>`, `<textarea><a href=x></textarea>`, `<noscript><img src="n.png"><noscript><a href=m></noscript></noscript>`,
	`<plaintext><a href=x>`, `<xmp><a href=x></xmp><iframe src=f><a href=y></iframe>`, `<style></style><a href=q>`, `<a href="?a=1&amp;b=2&copy=3&notit;&#x41;">&lt;t&gt; &amp x&copy y</a>`,
	`<a href="&notit;&amp=&amp;=&amp&lt=x&#1&#x41&#x;&#;&#65;&hellip&hellip;&NotAnEntity;&ampamp&&">`, `<a href=?a=1&amp;b=2&#038;c=3&copy;=4>`, `<a title="&NotEqualTilde;&nbsp" href="&#0;&#x110000;&#128;">`,
	`<img a1 a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14 a15 a16 A3=x SRC=p.png src=q.png a17 a18 A18 data-src=r.png DATA-SRC=s.png É=1 é=2 É=3>`,
	"<a href='a\r\nb\rc'>l\r\ni\rn</a>", "<a href=\"x\x00y\" \x00k=1>t\x00u</a><st\x00yle>", "<style>a\x00b\r\n</style>", `<a href=x&amp;y>`, `<a href='x"y'>`, `<a href="x'y">`, `<meta http-equiv=REFRESH content="0; URL='r.html'">`,
	`<img srcset="a.png 1x, b.png 2x" data-src=c data-original=d data-lazy-src=e><source srcset=f>`, `<link rel="stylesheet icon" href=s.css><link rel=canonical href=c>`, `<form method=GET action=f></form><form method=post action=g>`,
	`<body background=b.png><table background=t.png><td background=d.png>`, `<div style="background:url('s.png')">`, "<a\thref\n=\fx\r>y</a\n>", `<a href=x>1<img alt="a l t">2</a>`,
}

func TestScannerMatchesTokenizer(t *testing.T) {
	for i, c := range scannerCases {
		sameAsTokenizer(t, fmt.Sprintf("case %d %q", i, c), []byte(c))
	}
}

// TestScannerOnGeneratedSite compares the scanner with the tokenizer on
// the pages of the crawl benchmark's site.
func TestScannerOnGeneratedSite(t *testing.T) {
	site := synthweb.NewBigSite(synthweb.BigOptions{Pages: 200})
	for i := range 200 {
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", site.Path(i), nil))
		sameAsTokenizer(t, site.Path(i), rec.Body.Bytes())
	}
}

// TestScannerOnSavedPages compares them on the saved pages of real
// applications (../shared/data/aah-pages).
func TestScannerOnSavedPages(t *testing.T) {
	dir := testenv.Path(t, "data", "aah-pages", "pages")
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no pages in %s", dir)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameAsTokenizer(t, filepath.Base(f), b)
	}
	t.Logf("%d pages", len(files))
}

// FuzzScannerMatchesTokenizer compares the scanner with the tokenizer on
// any input.
func FuzzScannerMatchesTokenizer(f *testing.F) {
	for _, c := range scannerCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, page string) {
		if strings.Count(page, "<") > 2000 {
			t.Skip() // keeps each input quick
		}
		sameAsTokenizer(t, "input", []byte(page))
	})
}

// TestSkippedTextBufferLimit: text the scanner skips still counts against
// its buffer limit, as the token it would have been. (The scanner is
// compared with itself reading every token, hidden behind an interface:
// at the limit it is one byte more lenient than x/net/html's Tokenizer,
// which counts the '<' after a text.)
func TestSkippedTextBufferLimit(t *testing.T) {
	const limit = 64
	every := func(b []byte) tokenizer { return struct{ tokenizer }{newScanner(b, limit)} }
	skip := func(b []byte) tokenizer { return newScanner(b, limit) }
	x := New(Options{MaxParagraph: -1})
	for n := limit - 2; n <= limit+2; n++ {
		for _, page := range []string{
			`<a href=/a>a</a>` + strings.Repeat("t", n) + `<a href=/b>b</a>`,
			`<p>` + strings.Repeat("t", n) + `<a href=/b>b</a>` + strings.Repeat("u", n),
		} {
			d := Document{URL: mustURL(t, "http://example.com/"), MediaType: "text/html", Text: []byte(page)}
			want, wantErr := x.htmlWith(d, every)
			got, gotErr := x.htmlWith(d, skip)
			if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%q: skipping text %s (%v), reading it %s (%v)", page, summary(got), gotErr, summary(want), wantErr)
			}
			if n >= limit && wantErr == nil {
				t.Errorf("%q: no error past the limit", page)
			}
		}
	}
}
