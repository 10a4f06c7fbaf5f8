package litindex

import "fmt"

// Joint scans a page once for the literals of several indexes, as if each
// had scanned it: detection scans for the knowledge base's literals and
// the fingerprints' in one pass. It is safe for concurrent use.
type Joint struct {
	ixs    []*Index
	g      *grams
	owners [][]owner // by joint literal id: the indexes' literals it is
	where  []bool    // by joint literal id: some owner asks where it occurs
}

type owner struct{ ix, lit int }

// Join builds a joint scan of indexes, which must fold case alike.
func Join(ixs ...*Index) (*Joint, error) {
	j := &Joint{ixs: ixs}
	id := map[string]int{}
	var lits []string
	for i, ix := range ixs {
		if ix.fold != ixs[0].fold {
			return nil, fmt.Errorf("litindex: index %d folds case (%v) unlike index 0 (%v)", i, ix.fold, ixs[0].fold)
		}
		for li, l := range ix.lits {
			k, ok := id[l]
			if !ok {
				k = len(lits)
				id[l] = k
				lits = append(lits, l)
				j.owners = append(j.owners, nil)
				j.where = append(j.where, false)
			}
			j.where[k] = j.where[k] || ix.where[li]
			j.owners[k] = append(j.owners[k], owner{i, li})
		}
	}
	if len(lits) > 0 {
		j.g = newGrams(lits, ixs[0].fold)
	}
	return j, nil
}

// Scan searches texts once and returns what each index would find in the
// first upto[i] of them (index i): a literal of several indexes counts
// for each that looks at the text it occurs in.
func (j *Joint) Scan(texts [][]byte, upto []int) []*Hits {
	hs := make([]*Hits, len(j.ixs))
	for i, ix := range j.ixs {
		hs[i] = ix.newHits()
	}
	if j.g != nil {
		done := make([]uint64, (len(j.owners)+63)/64)
		for ti, text := range texts {
			j.g.scan(text, &jointScanner{j, hs, upto, ti, done})
		}
	}
	for _, h := range hs {
		h.finish()
	}
	return hs
}

// jointScanner hands what a joint scan of text ti finds to the scanners
// of the indexes that look at that text.
type jointScanner struct {
	j    *Joint
	hs   []*Hits
	upto []int
	ti   int
	// done marks the joint literals no owner wants any more: seen in a
	// text after the first, or without where-owners. An owner that did
	// not look at that text looks at no later one, so that holds for
	// the rest of the scan, and want answers at once for the markup a
	// page repeats.
	done []uint64
}

func (js *jointScanner) member(o owner) (*scanner, bool) {
	if js.ti >= js.upto[o.ix] {
		return nil, false
	}
	return &scanner{js.j.ixs[o.ix], js.hs[o.ix], js.ti == 0}, true
}

func (js *jointScanner) want(lit int) bool {
	if js.done[lit>>6]&(1<<(lit&63)) != 0 {
		return false
	}
	for _, o := range js.j.owners[lit] {
		if sc, ok := js.member(o); ok && sc.want(o.lit) {
			return true
		}
	}
	return false
}

func (js *jointScanner) seen(lit, start int) {
	for _, o := range js.j.owners[lit] {
		if sc, ok := js.member(o); ok && sc.want(o.lit) {
			sc.seen(o.lit, start)
		}
	}
	if js.ti > 0 || !js.j.where[lit] {
		js.done[lit>>6] |= 1 << (lit & 63)
	}
}
