package graph

import "testing"

// A prefix is known once added, an absent one never is, and one asked
// for while the generations turn over is kept while one not asked for is
// dropped, so the cache stays within two generations.
func TestKnownPrefixesGenerations(t *testing.T) {
	k := newKnownPrefixes()
	kept, dropped := [2]ID{firstTermID + 1, firstTermID + 2}, [2]ID{firstTermID + 3, firstTermID + 4}
	k.add(kept[0], kept[1])
	k.add(dropped[0], dropped[1])
	if !k.has(kept[0], kept[1]) || !k.has(dropped[0], dropped[1]) {
		t.Fatal("an added prefix is not known")
	}
	if k.has(kept[1], kept[0]) {
		t.Fatal("a prefix never added is known")
	}
	// Others of the same stripe as the two (IDs whose top bits are alike).
	for i := range 3 * knownPrefixesMax {
		k.add(ID(1000+i), ID(7))
		if i%(knownPrefixesMax/2) == 0 && !k.has(kept[0], kept[1]) {
			t.Fatalf("a prefix in use dropped after %d others", i)
		}
	}
	if k.has(dropped[0], dropped[1]) {
		t.Fatal("a prefix not asked for outlived two generations")
	}
	if s := k.stripe(kept[0], kept[1]); s.cur.n+s.old.n > 2*knownPrefixesMax {
		t.Fatalf("%d prefixes kept in a stripe, more than two generations", s.cur.n+s.old.n)
	}
}

// The loader's cache of found terms keeps short encodings only, and
// tells terms of the same hash apart by their text.
func TestFoundTerms(t *testing.T) {
	f := newFoundTerms()
	short, other := []byte("\x01https://example.org/a"), []byte("\x01https://example.org/b")
	long := make([]byte, foundTermMaxLen+1)
	f.put(42, short, firstTermID+5)
	f.put(43, long, firstTermID+6)
	if id, ok := f.lookup(42, short); !ok || id != firstTermID+5 {
		t.Fatalf("found term: %v %v", id, ok)
	}
	if _, ok := f.lookup(42, other); ok {
		t.Fatal("a term of the same hash and another text found")
	}
	if _, ok := f.lookup(43, long); ok {
		t.Fatal("a long encoding kept")
	}
}
