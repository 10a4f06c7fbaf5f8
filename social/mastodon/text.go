package mastodon

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// plainText turns a status's HTML content into the text a reader sees
// (paragraphs apart by a blank line, <br> as a line break, the whole URL of
// a shortened link) and returns the links it shares: the anchors that are
// neither mentions nor hashtags.
func plainText(content string) (string, []string) {
	var b strings.Builder
	var links []string
	z := html.NewTokenizer(strings.NewReader(content))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return strings.TrimSpace(b.String()), links
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken, html.SelfClosingTagToken:
			tn, hasAttr := z.TagName()
			switch atom.Lookup(tn) {
			case atom.Br:
				b.WriteByte('\n')
			case atom.P:
				if s := b.String(); s != "" && !strings.HasSuffix(s, "\n\n") {
					b.WriteString(strings.Repeat("\n", 2-trailingNewlines(s)))
				}
			case atom.A:
				if href := linkOf(z, hasAttr); href != "" {
					links = append(links, href)
				}
			}
		}
	}
}

func trailingNewlines(s string) int {
	n := 0
	for n < 2 && strings.HasSuffix(s[:len(s)-n], "\n") {
		n++
	}
	return n
}

// linkOf returns an anchor's href unless Mastodon marks it as a mention or
// hashtag (class "mention"/"hashtag", rel "tag").
func linkOf(z *html.Tokenizer, hasAttr bool) string {
	href := ""
	for hasAttr {
		var k, v []byte
		k, v, hasAttr = z.TagAttr()
		switch string(k) {
		case "href":
			href = string(v)
		case "class":
			for _, c := range strings.Fields(string(v)) {
				if c == "mention" || c == "hashtag" {
					return ""
				}
			}
		case "rel":
			for _, r := range strings.Fields(string(v)) {
				if r == "tag" {
					return ""
				}
			}
		}
	}
	if !strings.HasPrefix(href, "http://") && !strings.HasPrefix(href, "https://") {
		return ""
	}
	return href
}
