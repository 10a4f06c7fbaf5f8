package graph

import (
	"fmt"
	"testing"
)

// TestTermIDs: the cache finds each term's ID by hash and encoding, with
// many terms sharing a hash, an ID put again replaced, and entries in use
// kept across the turnover of generations while others are dropped.
func TestTermIDs(t *testing.T) {
	c := newTermIDs(100)
	enc := func(i int) []byte { return fmt.Appendf(nil, "term %d", i) }
	h := func(i int) uint64 { return uint64(i % 7) } // collisions on purpose
	for i := range 100 {
		c.put(h(i), enc(i), ID(1000+i))
	}
	c.put(h(5), enc(5), 55) // put again: replaced
	for i := range 100 {
		want := ID(1000 + i)
		if i == 5 {
			want = 55
		}
		if id, ok := c.lookup(h(i), enc(i)); !ok || id != want {
			t.Fatalf("term %d: got %d %v, want %d", i, id, ok, want)
		}
	}
	if _, ok := c.lookup(h(3), enc(1003)); ok {
		t.Fatal("an absent term of a present hash found")
	}
	// More than a generation of other terms: term 0, looked up in between,
	// survives; term 1, not, is gone.
	for i := 100; i < 250; i++ {
		c.put(h(i), enc(i), ID(1000+i))
		if i == 150 {
			if _, ok := c.lookup(h(0), enc(0)); !ok {
				t.Fatal("term 0 dropped one generation on")
			}
		}
	}
	if id, ok := c.lookup(h(0), enc(0)); !ok || id != 1000 {
		t.Fatalf("term 0 in use: got %d %v", id, ok)
	}
	if _, ok := c.lookup(h(1), enc(1)); ok {
		t.Fatal("term 1, unused for a generation, still cached")
	}
}

// TestPendingTerms: a term is found under its ID however long the run of
// taken slots before it, by get and by getFrom given the first slot read
// ahead, and an absent ID is not.
func TestPendingTerms(t *testing.T) {
	p := newPendingTerms()
	id := func(i int) ID { return ID(uint64(i%5)<<40 | 16) } // low bits shared on purpose
	for i := range 5 {
		p.add(fmt.Appendf(nil, "term %d", i), id(i))
	}
	for i := range 6 {
		want := fmt.Sprintf("term %d", i)
		if i == 5 {
			want = "" // absent
		}
		got, ok := p.get(id(i) + ID(i/5))
		from, fromOK := p.getFrom(id(i)+ID(i/5), p.first(id(i)+ID(i/5)))
		if string(got) != want || ok != (want != "") || string(from) != string(got) || fromOK != ok {
			t.Errorf("ID %d: get %q %v, getFrom %q %v, want %q", i, got, ok, from, fromOK, want)
		}
	}
}
