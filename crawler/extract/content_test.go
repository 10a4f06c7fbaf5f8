package extract

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// referenceContent is the content text as first written, over
// x/net/html's Tokenizer: what ContentText and ExtractContent must give.
func referenceContent(doc []byte) string {
	z := html.NewTokenizer(bytes.NewReader(doc))
	var mainText, bodyText strings.Builder
	skip, chrome, inMain := 0, 0, 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if mainText.Len() > 0 {
				return mainText.String()
			}
			return bodyText.String()
		case html.StartTagToken, html.EndTagToken:
			name, _ := z.TagName()
			d := 1
			if tt == html.EndTagToken {
				d = -1
			}
			switch atom.Lookup(name) {
			case atom.Script, atom.Style, atom.Template, atom.Noscript, atom.Title:
				skip = max(0, skip+d)
			case atom.Nav, atom.Header, atom.Footer, atom.Aside:
				chrome = max(0, chrome+d)
			case atom.Main, atom.Article:
				inMain = max(0, inMain+d)
			case atom.P, atom.Div, atom.Li, atom.Br, atom.Td, atom.H1, atom.H2, atom.H3, atom.H4, atom.Dt, atom.Dd, atom.Pre:
				if skip == 0 {
					bodyText.WriteByte('\n')
					if inMain > 0 {
						mainText.WriteByte('\n')
					}
				}
			}
		case html.TextToken:
			if skip > 0 || bodyText.Len()+mainText.Len() > MaxContent {
				continue
			}
			t := z.Text()
			if inMain > 0 {
				mainText.Write(t)
				mainText.WriteByte(' ')
			}
			if chrome == 0 {
				bodyText.Write(t)
				bodyText.WriteByte(' ')
			}
		}
	}
}

// TestContentCases: chrome, main and article, skipped elements, block
// separators and self-closing tags (the tokenizer's corner cases are
// TestScannerMatchesTokenizer's).
func TestContentCases(t *testing.T) {
	cases := []string{
		`<html><head><title>T</title><style>s{}</style></head><body><nav>menu <a href=/a>A</a></nav><p>one<p>two<br>three<br/>four</body>`,
		`<header>h</header><main><h1>title</h1><p>body <a href=x>link</a> text</p></main><footer>f</footer><aside>a</aside>`,
		`<article>first</article><div>outside</div><article>second<script>x()</script></article>`,
		`<noscript><p>fallback <a href=n>n</a></noscript><template><p>t</template><dl><dt>term<dd>def</dl><pre>a  b</pre><td>c`,
		`<nav><nav>x</nav>y</nav>z</nav>w`, `</main>a<main>b`, `<textarea>a &amp; b</textarea><xmp>c</xmp>`,
	}
	for i, c := range cases {
		sameAsTokenizer(t, fmt.Sprintf("case %d %q", i, c), []byte(c))
	}
	long := "<p>" + strings.Repeat("word ", MaxContent/4) + "</p><main>late</main>"
	sameAsTokenizer(t, "long", []byte(long))
	if got := ContentText([]byte(`<nav>menu</nav><main><p>kept</main>`)); strings.Fields(got)[0] != "kept" || strings.Contains(got, "menu") {
		t.Errorf("content %q: want the main element's text only", got)
	}
}
