package graph

import (
	"encoding/binary"
	"fmt"
)

// ID is the fixed-width identifier of a term in the dictionary.
type ID uint64

const (
	// Any is the unbound position of a Pattern; no term has this ID.
	Any ID = 0
	// DefaultGraph is the ID of the default graph (the zero rdf.Term in a
	// quad's graph position).
	DefaultGraph ID = 1
	// firstTermID is the smallest ID a dictionary term can get.
	firstTermID ID = 2
)

// IDQuad is a quad of term IDs.
type IDQuad struct{ S, P, O, G ID }

// Pattern selects quads: each position is a bound ID or Any.
type Pattern struct{ S, P, O, G ID }

func (q IDQuad) String() string {
	return fmt.Sprintf("(%016x %016x %016x %016x)", uint64(q.S), uint64(q.P), uint64(q.O), uint64(q.G))
}

// Order is one of the six orderings in which quads are stored.
type Order uint8

const (
	// OrderAuto lets Scan pick the ordering whose prefix covers the bound
	// positions.
	OrderAuto Order = iota
	SPOG
	POSG
	OSPG
	GSPO
	GPOS
	GOSP
)

// orders lists the stored orderings; index i of perm says which quad
// position (0 s, 1 p, 2 o, 3 g) is the i-th key column.
var orders = [...]struct {
	order Order
	name  string
	tag   byte
	perm  [4]int
}{
	{SPOG, "spog", tagSPOG, [4]int{0, 1, 2, 3}},
	{POSG, "posg", tagPOSG, [4]int{1, 2, 0, 3}},
	{OSPG, "ospg", tagOSPG, [4]int{2, 0, 1, 3}},
	{GSPO, "gspo", tagGSPO, [4]int{3, 0, 1, 2}},
	{GPOS, "gpos", tagGPOS, [4]int{3, 1, 2, 0}},
	{GOSP, "gosp", tagGOSP, [4]int{3, 2, 0, 1}},
}

// Orders lists the six stored orderings.
func Orders() []Order { return []Order{SPOG, POSG, OSPG, GSPO, GPOS, GOSP} }

// String names the ordering by its key columns in order, e.g. "spog".
func (o Order) String() string {
	if o >= SPOG && o <= GOSP {
		return orders[o-1].name
	}
	return "auto"
}

// GraphLast reports whether the graph is the last key column, which is
// what a union-of-graphs scan needs to collapse a triple's graphs.
func (o Order) GraphLast() bool { return o >= SPOG && o <= OSPG }

func (q IDQuad) at(pos int) ID {
	switch pos {
	case 0:
		return q.S
	case 1:
		return q.P
	case 2:
		return q.O
	}
	return q.G
}

func (q *IDQuad) set(pos int, id ID) {
	switch pos {
	case 0:
		q.S = id
	case 1:
		q.P = id
	case 2:
		q.O = id
	default:
		q.G = id
	}
}

// Key tags: the first byte of every key says what it is.
const (
	tagDict  = 'd' // 'd' id → encoded term
	tagMeta  = 'm' // 'm' name → value
	tagStat  = 's' // 's' kind [id] → counters
	tagSPOG  = 0x10
	tagPOSG  = 0x11
	tagOSPG  = 0x12
	tagGSPO  = 0x13
	tagGPOS  = 0x14
	tagGOSP  = 0x15
	keyWidth = 1 + 4*8
)

// appendIndexKey appends the key of q in ordering o.
func appendIndexKey(dst []byte, o Order, q IDQuad) []byte {
	ord := &orders[o-1]
	dst = append(dst, ord.tag)
	for _, pos := range ord.perm {
		dst = binary.BigEndian.AppendUint64(dst, uint64(q.at(pos)))
	}
	return dst
}

// decodeIndexKey is the inverse of appendIndexKey.
func decodeIndexKey(o Order, key []byte) IDQuad {
	var q IDQuad
	for i, pos := range orders[o-1].perm {
		q.set(pos, ID(binary.BigEndian.Uint64(key[1+8*i:])))
	}
	return q
}

func dictKey(id ID) []byte { return appendDictKey(make([]byte, 0, 9), id) }

func appendDictKey(dst []byte, id ID) []byte {
	return binary.BigEndian.AppendUint64(append(dst, tagDict), uint64(id))
}

func appendID(dst []byte, id ID) []byte { return binary.BigEndian.AppendUint64(dst, uint64(id)) }

func beUint64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
