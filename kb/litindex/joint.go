package litindex

import "fmt"

// Joint scans a page once for the literals of several indexes, as if each
// had scanned it: detection scans for the knowledge base's literals and
// the fingerprints' in one pass. It is safe for concurrent use.
type Joint struct {
	ixs []*Index
	g   *grams
	// owners[ownerAt[k]:ownerAt[k+1]] are the indexes' literals joint
	// literal k is: one array, as most have one owner.
	owners  []owner
	ownerAt []int32
	where   []bool // by joint literal id: some owner asks where it occurs
}

type owner struct{ ix, lit int32 }

// Join builds a joint scan of indexes, which must fold case alike.
func Join(ixs ...*Index) (*Joint, error) {
	j := &Joint{ixs: ixs}
	id := map[string]int{}
	var lits []string
	var owners [][]owner
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
				owners = append(owners, nil)
				j.where = append(j.where, false)
			}
			j.where[k] = j.where[k] || ix.where[li]
			owners[k] = append(owners[k], owner{int32(i), int32(li)})
		}
	}
	for _, os := range owners {
		j.ownerAt = append(j.ownerAt, int32(len(j.owners)))
		j.owners = append(j.owners, os...)
	}
	j.ownerAt = append(j.ownerAt, int32(len(j.owners)))
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
		st := newScanState(len(j.where))
		for ti, text := range texts {
			j.g.scan(text, &jointScanner{j, hs, upto, ti, st}, st)
		}
	}
	for _, h := range hs {
		h.finish()
	}
	return hs
}

// jointScanner hands what a joint scan of text ti finds to the hits of
// the indexes that look at that text.
type jointScanner struct {
	j    *Joint
	hs   []*Hits
	upto []int
	ti   int
	// st marks done the joint literals no owner wants any more: seen
	// in a text after the first, or without where-owners. An owner that
	// did not look at that text looks at no later one, so that holds
	// for the rest of the scan.
	st *scanState
}

func (js *jointScanner) seen(lit, start int) {
	j := js.j
	for _, o := range j.owners[j.ownerAt[lit]:j.ownerAt[lit+1]] {
		if js.ti < js.upto[o.ix] {
			js.hs[o.ix].record(j.ixs[o.ix], int(o.lit), start, js.ti == 0)
		}
	}
	if js.ti > 0 || !j.where[lit] {
		js.st.markDone(lit)
	}
}
