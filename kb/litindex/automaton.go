package litindex

// automaton is an Aho-Corasick matcher compiled to a DFA whose input is
// byte classes (the bytes that occur in some literal, each its own class,
// and one class for all others), so its table stays compact: states ×
// classes int32s instead of 256 pointers per state.
type automaton struct {
	class  [256]uint8
	nclass int
	next   []int32 // next[state*nclass+class]
	out    []int32 // literal ending at the state, -1 for none
	// dict is the nearest proper suffix state with an output, -1 for none.
	dict []int32
	// emits: the state or a suffix state has an output.
	emits []bool
}

func newAutomaton(lits []string) *automaton {
	a := &automaton{}
	for _, l := range lits {
		for i := 0; i < len(l); i++ {
			if a.class[l[i]] == 0 {
				a.nclass++
				a.class[l[i]] = uint8(a.nclass)
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
	a.emits = make([]bool, n)
	for s := range a.emits {
		a.emits[s] = a.out[s] >= 0 || a.dict[s] >= 0
	}
	return a
}

// scan calls hit for each literal that occurs in text and is not yet
// marked in found, and marks it. An output state's suffix chain needs no
// second walk: it was walked when its literal was first marked.
func (a *automaton) scan(text []byte, found []bool, hit func(lit int)) {
	nc := int32(a.nclass)
	s := int32(0)
	for _, b := range text {
		s = a.next[s*nc+int32(a.class[b])]
		if !a.emits[s] {
			continue
		}
		for u := s; u > 0; u = a.dict[u] {
			if l := a.out[u]; l >= 0 {
				if found[l] {
					break
				}
				found[l] = true
				hit(int(l))
			}
		}
	}
}
