package kb

import (
	"bytes"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"github.com/mneme-archive/mneme/kb/fingerprint"
	"github.com/mneme-archive/mneme/kb/vdoc"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Markup that names its application. Engines mark their pages with their
// own name where a site's content does not go: the id of the document's
// root or body (vBulletin's <html id="vbulletin_html">, phpBB's <body
// id="phpbb">) with the name in an asset's path as well, the element of
// the settings they embed as JSON (Joomla's joomla-script-options), the
// data attributes their scripts read
// (Drupal's data-drupal-selector, data-drupal-link-system-path), and the
// credit a footer or the template's comment gives them: "Powered by" and a
// link named after the engine ("Powered by <a href=…>MyBB</a>"), or a
// comment saying so. The fingerprints know the applications' names but
// not these marks, so a page whose engine no rule names is read for them.
// A class of a visible element is no such mark (icon fonts class a link
// fa-wordpress), nor is "powered by" in running text, which names a
// page's vendors and plugins as well.

// minSelfName is the shortest name read as a mark: shorter words are too
// often a site's own.
const minSelfName = 4

// minDataAttrs is how many distinct data attributes of an application's
// name mark its pages: its scripts read several (Drupal's selector,
// link-system-path, settingstray…), a widget of the same name one or two
// (instant.page's data-instant-intensity).
const minDataAttrs = 3

// selfNames maps the names of the application technologies of fp,
// lower-cased, to the technology: one-word names as they are, names of
// several words as their words joined by single spaces.
func selfNames(fp *fingerprint.Set) map[string]fingerprint.Match {
	out := map[string]fingerprint.Match{}
	for _, m := range fp.Technologies() {
		name := strings.Join(strings.FieldsFunc(strings.ToLower(m.Name), notAlnum), " ")
		if len(name) < minSelfName || TechCategory(&m) == "" {
			continue
		}
		out[name] = m
	}
	return out
}

func notAlnum(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') }

// namedInMarkup returns the application technology among names that doc
// names itself by, nil when none: a word of the id of <html> or <body>
// that is a word of an asset's path too (assetNamed), or of the id or
// class of a script of JSON settings; the name in
// minDataAttrs data attributes of distinct names (data-NAME-…) in the
// lower-cased markup; or a credit (credited).
func namedInMarkup(doc *vdoc.Doc, markup []byte, names map[string]fingerprint.Match) *fingerprint.Match {
	if len(names) == 0 {
		return nil
	}
	marked := []*html.Node{element(doc.Root, atom.Html), element(doc.Root, atom.Body)}
	if bytes.Contains(markup, []byte("json")) {
		marked = append(marked, jsonScripts(doc.Root, nil)...)
	}
	var words map[string]bool // the page's text's lower-case words
	for _, n := range marked {
		if n == nil {
			continue
		}
		for _, a := range n.Attr {
			if a.Key != "id" && (a.Key != "class" || n.DataAtom != atom.Script) {
				continue
			}
			for _, w := range strings.FieldsFunc(strings.ToLower(a.Val), notAlnum) {
				m, ok := names[w]
				if !ok {
					continue
				}
				// A name the page writes in lower case in its text is a
				// word of its language ("community"), not an engine's.
				if words == nil {
					words = lowerWords(doc.Root)
				}
				// The root's id is one word a theme may copy: it names
				// the engine only with the name in the path of one of
				// the page's assets too (vBulletin's
				// clientscript/vbulletin_global.js).
				if !words[w] && (n.DataAtom == atom.Script || assetNamed(doc.Root, w)) {
					m.Pattern, m.Confidence = "markup: <"+n.Data+" "+a.Key+`="`+a.Val+`">`, 100
					return &m
				}
			}
		}
	}
	// The distinct data-NAME-… attribute names of each name.
	attrs := map[string]map[string]bool{}
	const mark = " data-"
	for rest := markup; ; {
		i := bytes.Index(rest, []byte(mark))
		if i < 0 {
			break
		}
		rest = rest[i+len(mark):]
		j := bytes.IndexFunc(rest, notAlnum)
		if j < minSelfName || rest[j] != '-' {
			continue
		}
		w := string(rest[:j])
		if _, ok := names[w]; !ok {
			continue
		}
		k := bytes.IndexFunc(rest, func(r rune) bool { return r != '-' && notAlnum(r) })
		if k < 0 {
			k = len(rest)
		}
		if attrs[w] == nil {
			attrs[w] = map[string]bool{}
		}
		if attrs[w][string(rest[:k])] = true; len(attrs[w]) == minDataAttrs {
			m := names[w]
			m.Pattern, m.Confidence = "markup: data-"+w+"-…", 100
			return &m
		}
	}
	if bytes.Contains(markup, []byte("powered by")) {
		return credited(doc.Root, names)
	}
	return nil
}

// assetNamed reports whether name is a word of the path of a script,
// stylesheet or image below n, on any host.
func assetNamed(n *html.Node, name string) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode && c.Type != html.DocumentNode {
			continue
		}
		key := ""
		switch c.DataAtom {
		case atom.Script, atom.Img:
			key = "src"
		case atom.Link:
			key = "href"
		}
		for _, a := range c.Attr {
			if a.Key != key {
				continue
			}
			path := a.Val
			if u, err := url.Parse(a.Val); err == nil {
				path = u.Path
			}
			if slices.Contains(strings.FieldsFunc(strings.ToLower(path), notAlnum), name) {
				return true
			}
		}
		if assetNamed(c, name) {
			return true
		}
	}
	return false
}

// credited returns the technology a "Powered by" credit names below n: a
// text ending in "powered by" followed by a link whose text starts with
// the technology's name ("vBulletin® Version 4.2.2"), or a comment saying
// "powered by" and the name (the engine's template signing its pages:
// "This website is powered by Contao Open Source CMS").
func credited(n *html.Node, names map[string]fingerprint.Match) *fingerprint.Match {
	const by = "powered by"
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.HasSuffix(strings.ToLower(strings.TrimRight(c.Data, " \t\r\n:")), by):
			if a := c.NextSibling; a != nil && a.Type == html.ElementNode && a.DataAtom == atom.A {
				if m := nameAt(Text(a), names); m != nil {
					m.Pattern = "markup: powered by <a>" + m.Name + "</a>"
					return m
				}
			}
		case c.Type == html.CommentNode:
			if _, after, ok := strings.Cut(strings.ToLower(c.Data), by); ok {
				if m := nameAt(after, names); m != nil {
					m.Pattern = "markup: <!-- powered by " + m.Name + " -->"
					return m
				}
			}
		case c.Type == html.ElementNode && c.DataAtom != atom.Script && c.DataAtom != atom.Style:
			if m := credited(c, names); m != nil {
				return m
			}
		}
	}
	return nil
}

// nameAt returns the technology whose name the text starts with, the
// longest name first.
func nameAt(text string, names map[string]fingerprint.Match) *fingerprint.Match {
	words := strings.FieldsFunc(strings.ToLower(text), notAlnum)
	for k := min(len(words), 4); k > 0; k-- {
		if m, ok := names[strings.Join(words[:k], " ")]; ok {
			m.Confidence = 100
			return &m
		}
	}
	return nil
}

// element returns the first element of type a in document order, not
// looking below it.
func element(n *html.Node, a atom.Atom) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == a {
			return c
		}
		if c.Type == html.ElementNode || c.Type == html.DocumentNode {
			if e := element(c, a); e != nil {
				return e
			}
		}
	}
	return nil
}

// jsonScripts appends the scripts below n whose type is a JSON one but
// JSON-LD's (a page's schema.org description, whose ids are a plugin's):
// data blocks of settings.
func jsonScripts(n *html.Node, out []*html.Node) []*html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode && c.Type != html.DocumentNode {
			continue
		}
		if c.DataAtom == atom.Script {
			for _, a := range c.Attr {
				if a.Key == "type" && strings.Contains(strings.ToLower(a.Val), "json") && !strings.Contains(strings.ToLower(a.Val), "ld+json") {
					out = append(out, c)
				}
			}
			continue
		}
		out = jsonScripts(c, out)
	}
	return out
}

// lowerWords returns the words of n's visible text written in lower case.
func lowerWords(n *html.Node) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(Text(n), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if strings.ToLower(w) == w {
			out[w] = true
		}
	}
	return out
}
