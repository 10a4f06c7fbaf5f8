package litindex

// automaton is an Aho-Corasick matcher compiled to a DFA whose input is
// byte classes (the bytes that occur in some literal, each its own class,
// and one class for all others), so its table stays compact: states ×
// classes int32s instead of 256 pointers per state.
type automaton struct {
	class  [256]uint16
	nclass int
	// next[state*nclass+class] is the next state times nclass (where its
	// row starts, which spares the scan a multiplication), negated when
	// that state or one of its suffix states has an output, which spares
	// it a lookup. States are numbered breadth-first, so the shallow
	// states a scan mostly visits sit together in memory.
	next []int32
	out  []int32 // literal ending at the state, -1 for none
	// dict is the nearest proper suffix state with an output, -1 for none.
	dict []int32
	// where marks the literals whose every occurrence is reported;
	// whereBelow the states whose suffix chain holds one of them.
	where      []bool
	whereBelow []bool
}

func newAutomaton(lits []string, where []bool) *automaton {
	a := &automaton{where: where}
	for _, l := range lits {
		for i := 0; i < len(l); i++ {
			if a.class[l[i]] == 0 {
				a.nclass++
				a.class[l[i]] = uint16(a.nclass)
			}
		}
	}
	a.nclass++ // class 0: bytes in no literal
	nc := a.nclass
	// The trie, its states numbered in creation order; 0 is the root.
	a.next = make([]int32, nc)
	a.out = []int32{-1}
	for li, l := range lits {
		s := int32(0)
		for i := 0; i < len(l); i++ {
			c := int(a.class[l[i]])
			if a.next[int(s)*nc+c] == 0 {
				a.next = append(a.next, make([]int32, nc)...)
				a.out = append(a.out, -1)
				a.next[int(s)*nc+c] = int32(len(a.out) - 1)
			}
			s = a.next[int(s)*nc+c]
		}
		a.out[s] = int32(li)
	}
	// Breadth-first: failure links, then missing transitions follow them.
	n := len(a.out)
	fail := make([]int32, n)
	a.dict = make([]int32, n)
	a.dict[0] = -1
	queue := make([]int32, 0, n)
	var order []int32 // breadth-first
	for c := 0; c < nc; c++ {
		if t := a.next[c]; t != 0 {
			fail[t] = 0
			a.dict[t] = -1
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		order = append(order, s)
		for c := 0; c < nc; c++ {
			t := a.next[int(s)*nc+c]
			f := a.next[int(fail[s])*nc+c]
			if t == 0 {
				a.next[int(s)*nc+c] = f
				continue
			}
			fail[t] = f
			if a.out[f] >= 0 {
				a.dict[t] = f
			} else {
				a.dict[t] = a.dict[f]
			}
			queue = append(queue, t)
		}
	}
	a.renumber(append([]int32{0}, order...))
	return a
}

// renumber gives state order[i] the number i and marks emitting targets.
func (a *automaton) renumber(order []int32) {
	nc := a.nclass
	id := make([]int32, len(order))
	for i, s := range order {
		id[s] = int32(i)
	}
	emits := func(s int32) bool { return a.out[s] >= 0 || a.dict[s] >= 0 }
	next := make([]int32, len(a.next))
	out := make([]int32, len(order))
	dict := make([]int32, len(order))
	for i, s := range order {
		for c := 0; c < nc; c++ {
			t := a.next[int(s)*nc+c]
			next[i*nc+c] = id[t] * int32(nc)
			if emits(t) {
				next[i*nc+c] = -id[t] * int32(nc)
			}
		}
		out[i] = a.out[s]
		dict[i] = -1
		if d := a.dict[s]; d >= 0 {
			dict[i] = id[d]
		}
	}
	a.next, a.out, a.dict = next, out, dict
	// Breadth-first order puts a state's suffix states before it.
	a.whereBelow = make([]bool, len(order))
	for i := range order {
		if d := dict[i]; d >= 0 {
			a.whereBelow[i] = a.where[out[d]] || a.whereBelow[d]
		}
	}
}

// scan calls hit for each literal that occurs in text and is not yet
// marked in found, and marks it; at calls at with the end offset of each
// occurrence of a where literal. An output state's suffix chain needs no
// second walk unless it holds a where literal: it was walked when the
// state's literal was first marked.
func (a *automaton) scan(text []byte, found []bool, hit func(lit int), at func(lit, end int)) {
	nc := int32(a.nclass)
	s := int32(0)
	for i, b := range text {
		s = a.next[s+int32(a.class[b])]
		if s >= 0 {
			continue
		}
		s = -s
		for u := s / nc; u > 0; u = a.dict[u] {
			l := a.out[u]
			if l < 0 {
				continue
			}
			if a.where[l] {
				at(int(l), i+1)
			}
			if !found[l] {
				found[l] = true
				hit(int(l))
			} else if !a.whereBelow[u] {
				break
			}
		}
	}
}
