package kb

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// TestThemeVariants judges how an engine entry behaves on a version or
// theme of its engine that it was not written for: each annotated thread
// of aah-pages is detected with the whole knowledge base, then extracted
// by the crawl's extraction (ExtractPage) with one part of its entry's
// post extraction switched off in turn (the records, the text, the
// author and profile link, the date: selectors a new theme no longer
// matches), and once on the page with every class and id renamed to an
// opaque token (a theme whose markup the entry has never seen, its names
// saying nothing). It requires each variant's posts with text F1,
// author and date right at the variant's least figure: 0.95 for the
// entry as written, 0.85 (the generic-only figures) with a part off
// or on renamed markup.
func TestThemeVariants(t *testing.T) {
	k := builtinKB(t)
	det := NewDetector(k, nil)
	never := mustPattern("/never-matches")
	off := func(fs ...Field) func(*Extraction) {
		return func(x *Extraction) {
			for _, f := range fs {
				if _, ok := x.Fields[f]; ok {
					x.Fields[f] = []*Pattern{never}
				}
			}
		}
	}
	variants := []struct {
		name   string
		entry  func(*Extraction)
		rename bool
		// least is the figure required of text F1, authors and dates:
		// the generic-only one with a part of the entry off.
		least float64
	}{
		{"entry as written", nil, false, 0.95},
		{"records off", func(x *Extraction) { x.Records = never }, false, 0.85},
		{"text off", off(FieldContent), false, 0.85},
		{"author off", off(FieldAuthor, FieldAuthorURL), false, 0.85},
		{"date off", off(FieldDate), false, 0.85},
		{"classes and ids renamed", nil, true, 0.85},
	}
	for _, v := range variants {
		per := scoreThreadsBy(t, func(p labelledPage) string {
			if k.Type(p.cms) == nil {
				return ""
			}
			return p.cms
		}, func(doc *vdoc.Doc) []Object {
			d := det.Detect(doc)
			if d.Type == nil || d.Level == nil || !d.Level.Terminal {
				return nil
			}
			typ, level := d.Type, d.Level
			if v.entry != nil {
				typ, level = variantType(d.Type, d.Level, v.entry)
			}
			if v.rename {
				doc = renamedDoc(t, doc)
			}
			objs, _, _ := typ.ExtractPage(level, doc, nil)
			return objs
		})
		var lines []string
		for _, e := range slices.Sorted(maps.Keys(per)) {
			if s := per[e]; e != "all" {
				lines = append(lines, fmt.Sprintf("%s %.2f/%d/%d/%d", e, s.f1/float64(s.posts), s.author, s.date, s.posts))
			}
		}
		s := per["all"]
		withUser := s.posts - s.noUser
		f, a, d := s.f1/float64(s.posts), float64(s.author)/float64(withUser), float64(s.date)/float64(s.posts)
		t.Logf("%-24s %d gold posts, %d extracted, text F1 %.3f, author %.1f%% of %d, date %.1f%% [%s]",
			v.name, s.posts, s.extracted, f, 100*a, withUser, 100*d, strings.Join(lines, "; "))
		if f < v.least || a < v.least || d < v.least {
			t.Errorf("%s: posts below %.2f: text F1 %.3f, author %.3f, date %.3f", v.name, v.least, f, a, d)
		}
	}
}

// variantType is a copy of typ whose level l's forum-post extractions are
// changed by change; the copy's level is returned with it.
func variantType(typ *Type, l *Level, change func(*Extraction)) (*Type, *Level) {
	c := *typ
	c.Levels = nil
	var cl *Level
	for _, lv := range typ.Levels {
		if lv == l {
			nl := *lv
			nl.Extract = nil
			for _, x := range lv.Extract {
				nx := *x
				nx.Fields = maps.Clone(x.Fields)
				nx.Optional = maps.Clone(x.Optional)
				if nx.Object == ForumPost {
					change(&nx)
				}
				nl.Extract = append(nl.Extract, &nx)
			}
			lv, cl = &nl, &nl
		}
		c.Levels = append(c.Levels, lv)
	}
	return &c, cl
}

// renamedDoc is doc with every class and id token replaced by an opaque
// token of its own (the same name everywhere on the page, so that the
// page's repeated structure stays).
func renamedDoc(tb testing.TB, doc *vdoc.Doc) *vdoc.Doc {
	tb.Helper()
	opaque := func(s string) string {
		var out []string
		for _, w := range strings.Fields(s) {
			h := fnv.New32a()
			h.Write([]byte(w))
			// Letters only: digits in a class mark alternation
			// ("bg1", "bg2"), which mining reads apart.
			out = append(out, strings.Map(func(r rune) rune { return 'g' + r - '0' }, fmt.Sprintf("%d", h.Sum32())))
		}
		return strings.Join(out, " ")
	}
	var src bytes.Buffer
	for c := doc.Root.FirstChild; c != nil; c = c.NextSibling {
		if c != doc.HTTP {
			if err := html.Render(&src, c); err != nil {
				tb.Fatal(err)
			}
		}
	}
	root, err := html.Parse(&src)
	if err != nil {
		tb.Fatal(err)
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for i, a := range n.Attr {
			if a.Namespace == "" && (a.Key == "class" || a.Key == "id") {
				n.Attr[i].Val = opaque(a.Val)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	var buf bytes.Buffer
	if err := html.Render(&buf, root); err != nil {
		tb.Fatal(err)
	}
	d, err := vdoc.New(doc.URL.String(), nil, buf.Bytes())
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
