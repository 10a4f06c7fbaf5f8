package graph

import "sync"

// foundTerms is a loader's cache of the terms its dictionary probes
// found, shared by its workers: the terms of a load that recur across its
// groups (an account, a count, a hashtag) fall out of each worker's cache
// as the one-off terms of later posts fill it, and reading one back from
// the store costs a data block of the dictionary that the block cache
// seldom holds once the store is larger than it. A term found once is
// likely to come again; it is answered here without a read. An entry
// never goes stale: a term's ID never changes. Its size is fixed
// (foundTermsMax entries of at most foundTermMaxLen bytes in each of two
// generations), whatever the load.
type foundTerms struct {
	mu sync.Mutex
	c  termIDs
}

const (
	// foundTermsMax is the entries of each generation.
	foundTermsMax = 1 << 18
	// foundTermMaxLen is the longest encoding kept: long literals (a
	// post's text) seldom recur, and would make the arena large.
	foundTermMaxLen = 96
)

func newFoundTerms() *foundTerms { return &foundTerms{c: newTermIDs(foundTermsMax)} }

// lookup returns the ID of the term encoded as enc, whose dictionary hash
// is h, if it was found before.
func (f *foundTerms) lookup(h uint64, enc []byte) (ID, bool) {
	if len(enc) > foundTermMaxLen {
		return 0, false
	}
	f.mu.Lock()
	id, ok := f.c.lookup(h, enc)
	f.mu.Unlock()
	return id, ok
}

// put records that the term encoded as enc, whose hash is h, has ID id.
func (f *foundTerms) put(h uint64, enc []byte, id ID) {
	if len(enc) > foundTermMaxLen {
		return
	}
	f.mu.Lock()
	f.c.put(h, enc, id)
	f.mu.Unlock()
}
