package adapt

import (
	"slices"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
	"github.com/mneme-archive/mneme/kb/xpath"
)

// fieldOn extracts field f alone, with the single alternative p, from
// record rec of doc.
func fieldOn(kind kb.ObjectKind, f kb.Field, p *kb.Pattern, rec *html.Node, doc *vdoc.Doc) (kb.Object, bool) {
	o := kb.Object{Kind: kind}
	ok := kb.ExtractField(&o, f, []*kb.Pattern{p}, rec, doc)
	return o, ok
}

// compile compiles an expression into a KB pattern.
func compile(src string) (*kb.Pattern, error) {
	e, err := xpath.Compile(src)
	if err != nil {
		return nil, err
	}
	return &kb.Pattern{Expr: e}, nil
}

// value returns field f of o as text, "" when unset; dates in RFC 3339.
func value(o *kb.Object, f kb.Field) string {
	switch f {
	case kb.FieldTitle:
		return o.Title
	case kb.FieldAuthor:
		return o.Author
	case kb.FieldAuthorURL:
		return o.AuthorURL
	case kb.FieldDate:
		return dateText(o.Date)
	case kb.FieldModified:
		return dateText(o.Modified)
	case kb.FieldContent:
		return o.Content
	case kb.FieldTags:
		return strings.Join(o.Tags, ", ")
	case kb.FieldCategories:
		return strings.Join(o.Categories, ", ")
	case kb.FieldReplyTo:
		return o.ReplyTo
	case kb.FieldID:
		return o.ID
	case kb.FieldURL:
		return o.IRI
	case kb.FieldNote:
		return o.Note
	case kb.FieldVersionOf:
		return o.VersionOf
	}
	return ""
}

func dateText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// same reports whether an extracted value agrees with a known one: text
// equal once white space is collapsed, dates equal to the minute (some
// pages show no seconds), content with a word F1 of at least 0.9, tag
// lists equal as sets.
func same(f kb.Field, got, known *kb.Object) bool {
	switch f {
	case kb.FieldDate:
		return sameInstant(got.Date, known.Date)
	case kb.FieldModified:
		return sameInstant(got.Modified, known.Modified)
	case kb.FieldContent:
		return F1(got.Content, known.Content) >= 0.9
	case kb.FieldTags:
		return sameSet(got.Tags, known.Tags)
	case kb.FieldCategories:
		return sameSet(got.Categories, known.Categories)
	}
	a, b := xpath.Collapse(value(got, f)), xpath.Collapse(value(known, f))
	return a != "" && a == b
}

func sameInstant(a, b time.Time) bool {
	return !a.IsZero() && !b.IsZero() && a.Truncate(time.Minute).Equal(b.Truncate(time.Minute))
}

func sameSet(a, b []string) bool {
	return len(a) > 0 && slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// F1 is the word-overlap F1 score of two texts (bags of lower-cased
// words), the measure extracted content is checked with.
func F1(got, want string) float64 {
	g, w := words(got), words(want)
	if len(g) == 0 || len(w) == 0 {
		return 0
	}
	bag := map[string]int{}
	for _, x := range w {
		bag[x]++
	}
	common := 0
	for _, x := range g {
		if bag[x] > 0 {
			bag[x]--
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p, r := float64(common)/float64(len(g)), float64(common)/float64(len(w))
	return 2 * p * r / (p + r)
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f)
	})
}

// plausible reports whether v can be a value of field f of an object,
// when no earlier crawl says what it should be (a cold start): a title
// or an author is a short line, content has words, a date was parsed.
func plausible(f kb.Field, o *kb.Object) bool {
	v := value(o, f)
	if v == "" {
		return false
	}
	n := len(strings.Fields(v))
	switch f {
	case kb.FieldTitle:
		return len(v) <= 200 && n <= 25
	case kb.FieldAuthor:
		return len(v) <= 60 && n <= 5 && strings.ContainsFunc(v, func(r rune) bool { return r > '9' })
	case kb.FieldContent:
		return n >= 10
	case kb.FieldTags, kb.FieldCategories:
		return !slices.ContainsFunc(append(o.Tags, o.Categories...), func(s string) bool { return len(s) > 60 })
	}
	return true
}

// distinctive fields differ from one object to the next: a candidate
// that gives every page the same title is the site's name, not the
// post's.
func distinctive(f kb.Field) bool {
	switch f {
	case kb.FieldTitle, kb.FieldContent, kb.FieldURL, kb.FieldID, kb.FieldDate:
		return true
	}
	return false
}
