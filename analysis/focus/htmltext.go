package focus

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxText bounds the text analysed per page.
const maxText = 64 << 10

// ContentText returns the visible text of an HTML document without its
// navigation chrome: the text of its main and article elements when it
// has any, else that of its body outside nav, header, footer and aside;
// script, style and template contents never count.
func ContentText(doc []byte) string {
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
					bodyText.WriteByte(' ')
					if inMain > 0 {
						mainText.WriteByte(' ')
					}
				}
			}
		case html.TextToken:
			if skip > 0 || bodyText.Len()+mainText.Len() > maxText {
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
