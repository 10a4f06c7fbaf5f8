package kb

import (
	"bytes"
	"slices"

	"github.com/mneme-archive/mneme/kb/litindex"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// Possible reports whether Detect may name an application on doc, judging
// by the literals of its markup as sent and of its <http> element alone,
// so that a page on which detection cannot fire need not be parsed, nor
// even lower-cased: a document from vdoc.Head will do. When it is false,
// Detect on the parsed page finds no type and no technology. A pattern
// fires only on pages holding every literal it requires, so a page
// lacking one of each candidate pattern's is out; with fingerprints,
// whose header, cookie and meta rules need no literal, it is always true.
func (d *Detector) Possible(doc *vdoc.Doc) bool {
	if d.fp != nil {
		return true
	}
	for _, t := range d.kb.Types {
		for _, sf := range t.SiteFiles {
			if containsFold(doc.Body, sf.Path) || containsFold(doc.Body, escapeSlashes(sf.Path)) {
				return true
			}
		}
	}
	texts := append([][]byte{doc.Body}, doc.HTTPTexts()...)
	hits := d.raw.Scan(texts...)
	for _, id := range hits.Candidates {
		if d.need[id].heldBy(hits, texts) {
			return true
		}
	}
	return false
}

// patternNeed is what a detection pattern requires of a page: literals
// the scan finds, by id, and shorter ones (under litindex.MinLen), all
// lower-case.
type patternNeed struct {
	ids   []int
	short []string
}

func needOf(b *litindex.Builder, lits []string) patternNeed {
	var n patternNeed
	for _, l := range lits {
		if len(l) < litindex.MinLen {
			n.short = append(n.short, l)
		} else {
			n.ids = append(n.ids, b.Literal(l))
		}
	}
	return n
}

// heldBy reports whether the texts scanned into hits hold each literal of
// n, as their lower-cased copies would.
func (n patternNeed) heldBy(hits *litindex.Hits, texts [][]byte) bool {
	if !slices.ContainsFunc(n.ids, func(id int) bool { return !hits.Has(id) }) {
		return !slices.ContainsFunc(n.short, func(l string) bool {
			return !slices.ContainsFunc(texts, func(t []byte) bool { return containsFold(t, l) })
		})
	}
	return false
}

// containsFold reports whether vdoc.LowerASCII(b) contains l, a
// lower-case literal, without copying b: each occurrence of l's first
// byte, in either case, is compared ASCII case-blind.
func containsFold(b []byte, l string) bool {
	if l == "" {
		return true
	}
	firsts := []byte{l[0]}
	if 'a' <= l[0] && l[0] <= 'z' {
		firsts = append(firsts, l[0]-'a'+'A')
	}
	for _, c := range firsts {
		for i := 0; i+len(l) <= len(b); i++ {
			j := bytes.IndexByte(b[i:len(b)-len(l)+1], c)
			if j < 0 {
				break
			}
			i += j
			if equalFold(b[i:i+len(l)], l) {
				return true
			}
		}
	}
	return false
}

// equalFold reports whether b with its ASCII letters lower-cased is l.
func equalFold(b []byte, l string) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != l[i] {
			return false
		}
	}
	return true
}
