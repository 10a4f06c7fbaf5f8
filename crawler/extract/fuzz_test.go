package extract

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzExtractHTML checks that no input makes extraction fail or emit a link
// that is not an absolute http(s) URL, or text beyond its bounds.
func FuzzExtractHTML(f *testing.F) {
	f.Add(`<base href="/b/"><a href="x">t</a><img srcset="a 1x, b 2x"><meta http-equiv=refresh content="0;url=y">`)
	f.Add(`<style>@import "a.css"; x{background:url(b.png)}</style><noscript><img src=c></noscript>`)
	f.Add(`<p>text <a href="//h/">link</a></p><link rel="canonical alternate" href="/c">`)
	x := New(Options{MaxText: 16, MaxParagraph: 32})
	base := mustURL(f, "http://example.com/dir/page.html")
	f.Fuzz(func(t *testing.T, page string) {
		for _, mt := range []string{"text/html", "text/css"} {
			out, err := x.Extract(Document{URL: base, MediaType: mt, Body: strings.NewReader(page)})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range out {
				if !crawlable(o.URL) || len(o.Text) > 16 || len(o.Paragraph) > 32 || !utf8.ValidString(o.Text) && utf8.ValidString(page) {
					t.Fatalf("bad outlink %+v", o)
				}
			}
		}
	})
}
