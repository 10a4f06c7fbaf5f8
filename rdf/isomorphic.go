package rdf

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
)

// Isomorphic reports whether a and b are the same RDF dataset up to a
// renaming of blank nodes (RDF 1.1 Concepts §3.6 and its extension to
// datasets): a bijection between their blank nodes, applied in subject,
// object and graph positions, must turn the quads of a into those of b.
// Both are treated as sets (duplicates do not count), and language tags
// are compared case-insensitively as RDF 1.1 requires; every other part
// of a literal is compared exactly.
func Isomorphic(a, b []Quad) bool {
	ga, gb := newIsoGraph(a), newIsoGraph(b)
	return groundEqual(ga, gb) && blankMatch(ga, gb)
}

// IsomorphismDiff returns "" when got and want are isomorphic (see
// Isomorphic) and otherwise an explanation for a failing test: the quads
// without blank nodes that only one side has, or, when those agree, the
// quads with blank nodes of both sides.
func IsomorphismDiff(got, want []Quad) string {
	gg, gw := newIsoGraph(got), newIsoGraph(want)
	if groundEqual(gg, gw) {
		if blankMatch(gg, gw) {
			return ""
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "the quads without blank nodes agree, but no blank node mapping fits: got %d quads with %d blank nodes, want %d quads with %d blank nodes\n",
			len(gg.quads), len(gg.blanks), len(gw.quads), len(gw.blanks))
		listQuads(&sb, "got", gg.blankQuads())
		listQuads(&sb, "want", gw.blankQuads())
		return sb.String()
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "got %d distinct quads, want %d\n", len(gg.ground)+len(gg.quads), len(gw.ground)+len(gw.quads))
	listQuads(&sb, "only in got", setMinus(gg.ground, gw.ground))
	listQuads(&sb, "only in want", setMinus(gw.ground, gg.ground))
	return sb.String()
}

// maxListed bounds the quads a diff prints per section, so a test failure
// on a large file stays readable.
const maxListed = 20

func listQuads(sb *strings.Builder, title string, qs []string) {
	if len(qs) == 0 {
		return
	}
	slices.Sort(qs)
	fmt.Fprintf(sb, "%s (%d):\n", title, len(qs))
	for i, q := range qs {
		if i == maxListed {
			fmt.Fprintf(sb, "  ... and %d more\n", len(qs)-maxListed)
			break
		}
		sb.WriteString("  " + q + "\n")
	}
}

func setMinus(a, b map[Quad]bool) []string {
	var out []string
	for q := range a {
		if !b[q] {
			out = append(out, q.String())
		}
	}
	return out
}

// isoGraph is one side of an isomorphism check: its ground quads as a set,
// and its quads with blank nodes with the blank nodes numbered.
type isoGraph struct {
	ground map[Quad]bool
	quads  []isoQuad
	blanks []string // label of each blank node by number
	occurs [][]int  // per blank node, the quads it occurs in
	keys   map[[4]string]bool
}

// isoQuad holds, per position (S, P, O, G), either a blank node number
// or -1 and the hash of the ground term there.
type isoQuad struct {
	terms [4]Term
	blank [4]int
	hash  [4]uint64
}

func newIsoGraph(qs []Quad) *isoGraph {
	g := &isoGraph{ground: map[Quad]bool{}}
	seen := map[Quad]bool{}
	index := map[string]int{}
	for _, q := range qs {
		q = normalizeLang(q)
		if !hasBlank(q) {
			g.ground[q] = true
			continue
		}
		if seen[q] {
			continue
		}
		seen[q] = true
		iq := isoQuad{terms: [4]Term{q.S, q.P, q.O, q.G}}
		for i, t := range iq.terms {
			iq.blank[i] = -1
			if t.Kind != KindBlank {
				iq.hash[i] = hashString(t.String())
				continue
			}
			n, ok := index[t.Value]
			if !ok {
				n = len(g.blanks)
				index[t.Value] = n
				g.blanks = append(g.blanks, t.Value)
				g.occurs = append(g.occurs, nil)
			}
			iq.blank[i] = n
			if occ := g.occurs[n]; len(occ) == 0 || occ[len(occ)-1] != len(g.quads) {
				g.occurs[n] = append(occ, len(g.quads))
			}
		}
		g.quads = append(g.quads, iq)
	}
	return g
}

// normalizeLang lowercases language tags, which RDF 1.1 compares
// case-insensitively.
func normalizeLang(q Quad) Quad {
	if q.O.Lang != "" {
		q.O.Lang = strings.ToLower(q.O.Lang)
	}
	return q
}

func hasBlank(q Quad) bool {
	return q.S.Kind == KindBlank || q.O.Kind == KindBlank || q.G.Kind == KindBlank
}

func (g *isoGraph) blankQuads() []string {
	out := make([]string, len(g.quads))
	for i, q := range g.quads {
		out[i] = Quad{S: q.terms[0], P: q.terms[1], O: q.terms[2], G: q.terms[3]}.String()
	}
	return out
}

func groundEqual(a, b *isoGraph) bool {
	if len(a.ground) != len(b.ground) {
		return false
	}
	for q := range a.ground {
		if !b.ground[q] {
			return false
		}
	}
	return true
}

// blankMatch searches for a bijection between the blank nodes of a and b
// that maps a's quads with blank nodes onto b's. It colours blank nodes
// by their neighbourhoods (colour refinement, as in the Weisfeiler-Leman
// test) so that most nodes get a colour of their own, then backtracks
// over the nodes still sharing a colour, individualizing one pair at a
// time; symmetric graphs such as cycles need that second step.
func blankMatch(a, b *isoGraph) bool {
	if len(a.quads) != len(b.quads) || len(a.blanks) != len(b.blanks) {
		return false
	}
	ca := make([]uint64, len(a.blanks))
	cb := make([]uint64, len(b.blanks))
	return search(a, b, ca, cb)
}

func search(a, b *isoGraph, ca, cb []uint64) bool {
	classA, classB, ok := refine(a, b, ca, cb)
	if !ok {
		return false
	}
	// Individualize a node of the smallest class that is not yet a
	// singleton; small classes mean few branches.
	var pick uint64
	best := 0
	for c, members := range classA {
		if len(members) > 1 && (best == 0 || len(members) < best || len(members) == best && c < pick) {
			pick, best = c, len(members)
		}
	}
	if best == 0 {
		return verify(a, b, ca, classB)
	}
	x := slices.Min(classA[pick])
	mark := mix(pick, 0x9e3779b97f4a7c15)
	for _, y := range classB[pick] {
		na, nb := slices.Clone(ca), slices.Clone(cb)
		na[x], nb[y] = mark, mark
		if search(a, b, na, nb) {
			return true
		}
	}
	return false
}

// refine recolours both graphs in lockstep until the number of colours
// stops growing, and returns the colour classes. A node's new colour
// hashes its old one with the sorted signatures of the quads it occurs
// in, so the partition only gets finer and corresponding nodes of
// isomorphic graphs always keep equal colours: when the two sides' class
// sizes differ, ok is false and no mapping exists.
func refine(a, b *isoGraph, ca, cb []uint64) (classA, classB map[uint64][]int, ok bool) {
	classA, classB = classes(ca), classes(cb)
	for sameHistogram(classA, classB) {
		n := len(classA)
		if n == len(ca) {
			return classA, classB, true
		}
		copy(ca, recolour(a, ca))
		copy(cb, recolour(b, cb))
		classA, classB = classes(ca), classes(cb)
		if len(classA) == n {
			return classA, classB, sameHistogram(classA, classB)
		}
	}
	return nil, nil, false
}

func recolour(g *isoGraph, colour []uint64) []uint64 {
	out := make([]uint64, len(colour))
	var sigs []uint64
	for x, occ := range g.occurs {
		sigs = sigs[:0]
		for _, qi := range occ {
			q := &g.quads[qi]
			h := uint64(0xcbf29ce484222325)
			for i := range 4 {
				var v uint64
				switch q.blank[i] {
				case -1:
					v = q.hash[i]
				case x:
					v = 0x5e1f // the node itself, wherever it is
				default:
					v = mix(colour[q.blank[i]], 0xb1a2c)
				}
				h = mix(h, v+uint64(i))
			}
			sigs = append(sigs, h)
		}
		slices.Sort(sigs)
		h := colour[x]
		for _, s := range sigs {
			h = mix(h, s)
		}
		out[x] = h
	}
	return out
}

func classes(colour []uint64) map[uint64][]int {
	m := make(map[uint64][]int, len(colour))
	for i, c := range colour {
		m[c] = append(m[c], i)
	}
	return m
}

func sameHistogram(a, b map[uint64][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for c, members := range a {
		if len(b[c]) != len(members) {
			return false
		}
	}
	return true
}

// verify checks the bijection that a discrete colouring defines. Hash
// collisions cannot make it accept a wrong mapping: it compares the quads.
func verify(a, b *isoGraph, ca []uint64, classB map[uint64][]int) bool {
	if b.keys == nil {
		b.keys = make(map[[4]string]bool, len(b.quads))
		for _, q := range b.quads {
			b.keys[q.key(b.blanks)] = true
		}
	}
	mapped := make([]string, len(a.blanks))
	for x, c := range ca {
		mapped[x] = b.blanks[classB[c][0]]
	}
	for _, q := range a.quads {
		if !b.keys[q.key(mapped)] {
			return false
		}
	}
	return true
}

// key identifies a quad with its blank nodes named by labels.
func (q *isoQuad) key(labels []string) [4]string {
	var k [4]string
	for i, t := range q.terms {
		if q.blank[i] >= 0 {
			k[i] = "_:" + labels[q.blank[i]]
		} else {
			k[i] = t.String()
		}
	}
	return k
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// mix combines two hashes, order-sensitively, with the splitmix64
// finalizer.
func mix(h, v uint64) uint64 {
	x := h*0x9e3779b97f4a7c15 ^ v
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
