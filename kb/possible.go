package kb

import (
	"bytes"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// Possible reports whether Detect may name an application on doc, judging
// by its literals alone (doc.Lower), so that a page on which detection
// cannot fire need not be parsed: a document from vdoc.Head will do. When
// it is false, Detect on the parsed page finds no type and no technology.
// A pattern fires only on pages holding every literal it requires, so a
// page lacking one of each candidate pattern's is out; with fingerprints,
// whose header, cookie and meta rules need no literal, it is always true.
func (d *Detector) Possible(doc *vdoc.Doc) bool {
	if d.fp != nil {
		return true
	}
	markup, http := doc.Lower()
	hits := d.index.Scan(append([][]byte{markup}, http...)...)
	for _, id := range hits.Candidates {
		r := d.refs[id]
		if holdsAll(markupLiterals(d.kb.Types[r.typ].Detect[r.rank].Literals), markup, http) {
			return true
		}
	}
	return false
}

// holdsAll reports whether each of the lower-cased literals occurs in the
// markup or in one of the <http> texts.
func holdsAll(lits []string, markup []byte, http [][]byte) bool {
	for _, l := range lits {
		found := bytes.Contains(markup, []byte(l))
		for i := 0; !found && i < len(http); i++ {
			found = bytes.Contains(http[i], []byte(l))
		}
		if !found {
			return false
		}
	}
	return true
}
