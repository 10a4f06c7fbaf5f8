package eval

import "math/bits"

// rowTable is a materialized side of a join, hashed on key slots that
// every one of its rows binds. Its rows are laid out by bucket (the
// leading bits of the key's hash) with a counting sort, as quadTable's
// quads are: building it allocates no key and no slice per row, and a
// probe reads one pair of offsets and then adjacent row headers. A
// bucket holds every row whose key hashes there; the join's
// compatibility check drops those whose key differs.
type rowTable struct {
	keys  []int
	all   [][]ID
	rows  [][]ID // all, grouped by bucket (nil without keys)
	off   []int32
	shift uint // 64 - log2(number of buckets)
}

func newRowTable(rows [][]ID, keys []int) *rowTable {
	t := &rowTable{keys: keys, all: rows}
	if len(keys) == 0 {
		return t
	}
	nb := 16
	for nb < len(rows) {
		nb <<= 1
	}
	t.shift = uint(64 - bits.TrailingZeros(uint(nb)))
	t.off = make([]int32, nb+1)
	for _, r := range rows {
		t.off[t.bucket(r)+1]++
	}
	for b := 1; b <= nb; b++ {
		t.off[b] += t.off[b-1]
	}
	// off[b] is bucket b's next free place while scattering, which leaves
	// it at bucket b+1's start; shifting by one restores the starts.
	t.rows = make([][]ID, len(rows))
	for _, r := range rows {
		b := t.bucket(r)
		t.rows[t.off[b]] = r
		t.off[b]++
	}
	copy(t.off[1:], t.off[:nb])
	t.off[0] = 0
	return t
}

// bucket is the bucket of row's key. The key's IDs are mixed
// (Fibonacci hashing) rather than taken as their own hash: a row's
// values may be query-local IDs or computed terms, which are not spread
// over the 64 bits as the store's IDs are.
func (t *rowTable) bucket(row []ID) uint64 {
	var h uint64
	for _, s := range t.keys {
		h = hashIDs(h, row[s])
	}
	return (h * 0x9e3779b97f4a7c15) >> t.shift
}

// candidates returns the rows that may be compatible with row: its key's
// bucket when row binds every key slot, else all rows.
func (t *rowTable) candidates(row []ID) [][]ID {
	if t.rows == nil {
		return t.all
	}
	for _, s := range t.keys {
		if row[s] == 0 {
			return t.all
		}
	}
	b := t.bucket(row)
	return t.rows[t.off[b]:t.off[b+1]]
}
