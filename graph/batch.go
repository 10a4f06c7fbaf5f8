package graph

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/mneme-archive/mneme/graph/kv"
	"github.com/mneme-archive/mneme/rdf"
)

// Batch collects quad insertions and deletions that Commit applies in one
// atomic write: all indexes, new dictionary entries and statistics change
// together or not at all. Operations apply in the order they were made;
// inserting a quad the store holds, or deleting one it lacks, changes
// nothing. A Batch is not safe for concurrent use, but batches filled in
// parallel can be joined with AddBatch: Add encodes and hashes the terms
// and validates the quad (each distinct term's text once) at once, so that
// this work is done by whoever fills the batch and not under the store's
// write lock.
type Batch struct {
	s     *Store
	enc   []byte      // the term encodings, back to back
	terms []batchTerm // each distinct term once
	// valid[i]: terms[i]'s text passed rdf.Term.Validate, which an
	// insertion naming it again need not repeat (most of a crawl's
	// statements name the same few IRIs). Apart from terms, whose
	// lookups it would slow.
	valid []bool
	ops   []batchOp
	index termIndex
	// recent maps the IRIs and blank nodes added lately, by the address
	// of their value, to their index: a quad's predicate and graph, the
	// capture a page's statements are about and the link target named
	// twice in a row are the same strings again and again, and are then
	// neither encoded nor hashed again. (Literals are left out: a crawl's
	// are nearly all new. The cache holds no pointer, so that the batches
	// of a crawl's pages, each with its own, cost the collector nothing.)
	recent [256]recentTerm
	err    error // the first invalid insertion, which Commit reports
	// generalised: any kind of term in any position (NewGeneralisedBatch).
	generalised bool
}

// batchTerm is one encoded term of a batch.
type batchTerm struct {
	off, n int    // enc[off:off+n]
	h      uint64 // the store's hash of the encoding
}

// recentTerm is a slot of Batch.recent: the address of a term's value,
// a hint that the term's encoding confirms, and the term's index plus one
// (0: empty).
type recentTerm struct {
	addr uintptr
	i    int32
}

// batchOp names its terms by index in the batch's terms; -1 is the
// default graph.
type batchOp struct {
	t   [4]int32
	del bool
}

// NewBatch starts a batch.
func (s *Store) NewBatch() *Batch { return &Batch{s: s} }

// NewGeneralisedBatch starts a batch that also takes generalised quads
// (RDF 1.1 §7): a literal as subject, predicate or graph, a blank node as
// predicate. It is for writers of a wider graph model than RDF — Cayley's,
// where any value stands in any position; the indexes and the dictionary
// do not care about kinds, and queries read such quads like any other.
// Terms must still be valid, and subject, predicate and object present.
func (s *Store) NewGeneralisedBatch() *Batch { return &Batch{s: s, generalised: true} }

// validateKinds checks the positions' kinds as the batch requires.
func (b *Batch) validateKinds(q *rdf.Quad) error {
	if !b.generalised {
		return q.ValidateKinds()
	}
	for pos, t := range [3]rdf.Term{q.S, q.P, q.O} {
		if t.Kind == rdf.KindNone {
			return &rdf.TermError{Position: positions[pos], Term: t, Reason: "is missing"}
		}
	}
	return nil
}

// Add records the insertion of q (its terms are copied). An invalid quad
// makes Commit fail.
func (b *Batch) Add(q rdf.Quad) {
	if err := b.add(q, false); err != nil && b.err == nil {
		b.err = fmt.Errorf("quad %d of batch: %w", len(b.ops), err)
	}
}

// TryAdd records the insertion of q when it is valid and otherwise returns
// why, leaving the batch as it was: for a writer that skips a bad statement
// rather than fail the commit, without validating it twice.
func (b *Batch) TryAdd(q rdf.Quad) error {
	if err := b.validateKinds(&q); err != nil { // before the batch changes
		return err
	}
	terms, enc := len(b.terms), len(b.enc)
	if err := b.add(q, false); err != nil {
		b.ops = b.ops[:len(b.ops)-1]
		b.drop(terms, enc)
		return err
	}
	return nil
}

// Delete records the deletion of q (its terms are copied).
func (b *Batch) Delete(q rdf.Quad) { _ = b.add(q, true) }

// positions names the terms of a batchOp for validation errors.
var positions = [4]string{"subject", "predicate", "object", "graph"}

// add records an operation. For an insertion it returns what breaks the
// rules of rdf.Quad.Validate, the operation recorded regardless; the text
// of each term is checked the first time an insertion names it.
func (b *Batch) add(q rdf.Quad, del bool) error {
	op := batchOp{t: [4]int32{b.term(q.S), b.term(q.P), b.term(q.O), b.term(q.G)}, del: del}
	b.ops = append(b.ops, op)
	if del {
		return nil
	}
	if err := b.validateKinds(&q); err != nil {
		return err
	}
	for pos, i := range op.t {
		if i >= 0 && !b.valid[i] {
			if err := termAt(&q, pos).Validate(positions[pos]); err != nil {
				return err
			}
			b.valid[i] = true
		}
	}
	return nil
}

// termAt returns the term of q at a batchOp's position.
func termAt(q *rdf.Quad, pos int) *rdf.Term {
	switch pos {
	case 0:
		return &q.S
	case 1:
		return &q.P
	case 2:
		return &q.O
	}
	return &q.G
}

// drop removes the terms from index n on, whose encodings start at
// enc[from]: the last ones added, so that freeing their slots in the
// index, newest first, leaves every other term's probe sequence whole.
func (b *Batch) drop(n, from int) {
	for i := len(b.terms) - 1; i >= n; i-- {
		s := b.terms[i].h & b.index.mask
		for b.index.slots[s] != int32(i)+1 {
			s = (s + 1) & b.index.mask
		}
		b.index.slots[s] = 0
	}
	for j := range b.recent {
		if b.recent[j].i > int32(n) {
			b.recent[j] = recentTerm{}
		}
	}
	b.terms, b.valid, b.enc = b.terms[:n], b.valid[:n], b.enc[:from]
}

// term returns the index of t, encoding and hashing it unless the batch
// has it already.
func (b *Batch) term(t rdf.Term) int32 {
	if t.IsZero() {
		return -1
	}
	var r *recentTerm
	p := uintptr(unsafe.Pointer(unsafe.StringData(t.Value)))
	if t.Kind == rdf.KindIRI || t.Kind == rdf.KindBlank {
		r = &b.recent[(p>>3^p>>9^uintptr(len(t.Value)))%uintptr(len(b.recent))]
		if r.addr == p && r.i > 0 {
			// An IRI's or blank node's encoding is its kind and value.
			if enc := b.encoding(r.i - 1); len(enc) == 1+len(t.Value) && enc[0] == encodedKind(t.Kind) && string(enc[1:]) == t.Value {
				return r.i - 1
			}
		}
	}
	off := len(b.enc)
	b.enc = appendTerm(b.enc, t)
	i := b.intern(b.enc[off:], b.s.hash(b.enc[off:]), off)
	if r != nil && i >= 0 {
		*r = recentTerm{p, i + 1}
	}
	return i
}

// intern returns the index of the term encoded as enc with hash h, adding
// it when the batch lacks it. The encoding is either new bytes at
// b.enc[off:] (dropped when the term is there already) or, when off is
// negative, another batch's, copied when added.
func (b *Batch) intern(enc []byte, h uint64, off int) int32 {
	if i, slot := b.index.find(b, enc, h); i >= 0 {
		if off >= 0 {
			b.enc = b.enc[:off]
		}
		return i
	} else if len(b.terms) < math.MaxInt32 { // never otherwise in practice: 2^31 terms take far more memory than a batch should
		if off < 0 {
			off = len(b.enc)
			b.enc = append(b.enc, enc...)
		}
		b.terms = append(b.terms, batchTerm{off: off, n: len(enc), h: h})
		b.valid = append(b.valid, false)
		b.index.put(slot, int32(len(b.terms)-1), b.terms)
		return int32(len(b.terms) - 1)
	}
	if b.err == nil {
		b.err = fmt.Errorf("batch of more than %d terms: use a Loader", math.MaxInt32)
	}
	return -1
}

func (b *Batch) encoding(i int32) []byte {
	t := b.terms[i]
	return b.enc[t.off : t.off+t.n]
}

// termIndex finds a batch's terms by hash: an open-addressed table of
// term indexes plus one (0 is a free slot), at most half full. The hash
// is the one the term's ID comes from, computed once.
type termIndex struct {
	slots []int32
	mask  uint64
}

// find returns the index of the term encoded as enc, or -1 and the free
// slot where it goes.
func (x *termIndex) find(b *Batch, enc []byte, h uint64) (i int32, slot uint64) {
	if x.slots == nil {
		return -1, 0
	}
	for slot = h & x.mask; x.slots[slot] != 0; slot = (slot + 1) & x.mask {
		i := x.slots[slot] - 1
		if b.terms[i].h == h && string(b.encoding(i)) == string(enc) {
			return i, slot
		}
	}
	return -1, slot
}

// put records term i in the free slot that find returned, growing the
// table when it becomes half full.
func (x *termIndex) put(slot uint64, i int32, terms []batchTerm) {
	if 2*len(terms) <= len(x.slots) {
		x.slots[slot] = i + 1
		return
	}
	n := 1024
	for n < 4*len(terms) {
		n *= 2
	}
	x.slots, x.mask = make([]int32, n), uint64(n-1)
	for j, t := range terms {
		s := t.h & x.mask
		for x.slots[s] != 0 {
			s = (s + 1) & x.mask
		}
		x.slots[s] = int32(j) + 1
	}
}

// AddBatch appends the operations of o, which is left unchanged; o must
// belong to the same store.
func (b *Batch) AddBatch(o *Batch) {
	if o.err != nil && b.err == nil {
		b.err = fmt.Errorf("quad %d of batch: %w", len(b.ops)+1, o.err)
	}
	to := make([]int32, len(o.terms))
	for i := range o.terms {
		to[i] = b.intern(o.encoding(int32(i)), o.terms[i].h, -1)
		if to[i] >= 0 && o.valid[i] {
			b.valid[to[i]] = true
		}
	}
	for _, op := range o.ops {
		for pos, t := range op.t {
			if t >= 0 {
				op.t[pos] = to[t]
			}
		}
		b.ops = append(b.ops, op)
	}
}

// Len is the number of operations recorded.
func (b *Batch) Len() int { return len(b.ops) }

func (b *Batch) reset() {
	b.enc, b.terms, b.valid, b.ops, b.err = b.enc[:0], b.terms[:0], b.valid[:0], b.ops[:0], nil
	clear(b.index.slots)
	b.recent = [len(b.recent)]recentTerm{}
}

// CommitResult tells what a commit changed.
type CommitResult struct {
	Added, Deleted int // quads that were new / that were present
}

// Commit applies the batch atomically and durably; it fails without
// writing anything when an inserted quad is invalid. The batch is empty
// after a successful commit.
func (b *Batch) Commit(ctx context.Context) (CommitResult, error) {
	s := b.s
	if s.ReadOnly() {
		return CommitResult{}, ErrReadOnly
	}
	if b.err != nil {
		return CommitResult{}, b.err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	pending := newPendingTerms()
	ids, err := b.resolve(pending)
	if err != nil {
		return CommitResult{}, err
	}
	isNew := newIDSet(pending).has
	runs := &sortedRuns{}
	var added, removed []IDQuad
	if b.addsOnly() {
		if added, err = b.newQuads(ids, isNew, runs); err != nil {
			return CommitResult{}, err
		}
	} else if added, removed, err = b.changes(ctx, ids, isNew); err != nil {
		return CommitResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return CommitResult{}, err
	}
	if len(added) == 0 && len(removed) == 0 {
		b.reset()
		return CommitResult{}, nil
	}
	runs.added = added
	delta, err := s.batchDelta(runs, removed, isNew)
	if err != nil {
		return CommitResult{}, err
	}
	stats, err := delta.apply(s.kv)
	if err != nil {
		return CommitResult{}, err
	}
	s.noteSlots(pending) // before the write: the filter may say "taken" of a free slot, never the reverse
	if err := s.write(pending, runs, removed, stats); err != nil {
		return CommitResult{}, err
	}
	for id, enc := range pending.all() {
		s.written.put(s.hash(enc), enc, id)
	}
	if len(removed) > 0 {
		s.present.reset()
	}
	b.reset()
	return CommitResult{Added: len(added), Deleted: len(removed)}, nil
}

// addsOnly reports whether the batch holds insertions only.
func (b *Batch) addsOnly() bool {
	for _, op := range b.ops {
		if op.del {
			return false
		}
	}
	return true
}

// newQuads returns the quads of a batch of insertions that the store
// lacks, each once, in spog order (whose sorted keys it leaves in runs):
// sorting the keys finds the duplicates without a map.
func (b *Batch) newQuads(ids []ID, isNew func(ID) bool, runs *sortedRuns) ([]IDQuad, error) {
	s := b.s
	quads := make([]IDQuad, len(b.ops))
	for i, op := range b.ops {
		q := &quads[i]
		for pos, t := range op.t {
			id := DefaultGraph
			if t >= 0 {
				id = ids[t]
			}
			q.set(pos, id)
		}
	}
	var keys []cols
	keys, runs.tmp = sortRun(SPOG, quads, nil, runs.tmp)
	out, added := keys[:0], quads[:0]
	for i, c := range keys {
		if i > 0 && c == keys[i-1] {
			continue
		}
		q := unpermute(SPOG, c)
		// A quad naming a term new to the store cannot be in it.
		if !isNew(q.S) && !isNew(q.P) && !isNew(q.O) && !isNew(q.G) {
			had, err := s.holds(q)
			if err != nil {
				return nil, err
			}
			if had {
				continue
			}
		}
		out, added = append(out, c), append(added, q)
	}
	runs.keys[SPOG] = out
	return added, nil
}

// holds reports whether the store has q, from the writers' cache of
// quads found or by reading.
func (s *Store) holds(q IDQuad) (bool, error) {
	if s.present.has(prefix{SPOG, 4, q}) {
		return true, nil
	}
	had, err := exists(s.kv, appendIndexKey(nil, SPOG, q))
	if had {
		s.present.add(prefix{SPOG, 4, q})
	}
	return had, err
}

// changes applies the batch's operations in order and returns the quads
// that are new to the store and those it held that are deleted.
func (b *Batch) changes(ctx context.Context, ids []ID, isNew func(ID) bool) (added, removed []IDQuad, err error) {
	final := map[IDQuad]bool{}
	var touched []IDQuad
	for _, op := range b.ops {
		var q IDQuad
		known := true
		for pos, t := range op.t {
			id := DefaultGraph
			if t >= 0 {
				id = ids[t]
			}
			known = known && id != Any
			q.set(pos, id)
		}
		if !known { // a deletion naming a term the store never held
			continue
		}
		if _, seen := final[q]; !seen {
			touched = append(touched, q)
		}
		final[q] = !op.del
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	for _, q := range touched {
		// A quad naming a term new to the store cannot be in it.
		had := false
		if !isNew(q.S) && !isNew(q.P) && !isNew(q.O) && !isNew(q.G) {
			if had, err = b.s.holds(q); err != nil {
				return nil, nil, err
			}
		}
		switch {
		case final[q] && !had:
			added = append(added, q)
		case !final[q] && had:
			removed = append(removed, q)
		}
	}
	return added, removed, nil
}

// write applies a commit: the new dictionary entries, the index keys of
// the quads added and removed, and the statistics. The keys go to the
// backend's batch in ascending order, so that inserting them into Pebble's
// memtable (a skiplist) resumes each search where the last one ended.
func (s *Store) write(pending *pendingTerms, runs *sortedRuns, removed []IDQuad, stats []statWrite) error {
	if len(removed) == 0 && len(runs.added) >= s.ingestMin && addsOnly(stats) {
		return s.ingest(pending, runs, stats)
	}
	w := s.kv.NewBatch()
	defer w.Close()
	key := make([]byte, 0, keyWidth)
	var keys []cols
	for _, o := range Orders() {
		tag := orders[o-1].tag
		for _, c := range runs.of(o) {
			w.Set(appendCols(append(key[:0], tag), c), nil)
		}
		keys, runs.tmp = sortRun(o, removed, keys, runs.tmp)
		for _, c := range keys {
			w.Delete(appendCols(append(key[:0], tag), c))
		}
	}
	for _, id := range pending.ids() {
		enc, _ := pending.get(id)
		w.Set(appendDictKey(key[:0], id), enc)
	}
	for _, e := range valueEntries(pending) {
		w.Set(e.appendKey(key[:0]), nil)
	}
	for _, sw := range stats {
		if sw.val == nil {
			w.Delete(sw.key)
		} else {
			w.Set(sw.key, sw.val)
		}
	}
	return w.Commit()
}

// appendCols appends the IDs of c, big-endian, as in an index key.
func appendCols(dst []byte, c cols) []byte {
	for _, v := range c {
		dst = binary.BigEndian.AppendUint64(dst, v)
	}
	return dst
}

// resolve maps the batch's terms (each distinct) to IDs: from the
// writers' cache of recently used terms, else by probing the dictionary
// (in slot order, so that the reads go forward), giving a term that is new
// a free slot (recorded in pending) when an insertion names it. A term
// only deletions name and the store lacks gets Any.
func (b *Batch) resolve(pending *pendingTerms) ([]ID, error) {
	s := b.s
	ids := make([]ID, len(b.terms))
	inserted := make([]bool, len(b.terms))
	for _, op := range b.ops {
		if !op.del {
			for _, t := range op.t {
				if t >= 0 {
					inserted[t] = true
				}
			}
		}
	}
	var misses []int32
	for i := range b.terms {
		if id, ok := s.written.lookup(b.terms[i].h, b.encoding(int32(i))); ok {
			ids[i] = id
		} else {
			misses = append(misses, int32(i))
		}
	}
	slices.SortFunc(misses, func(x, y int32) int { return cmp.Compare(firstSlot(b.terms[x].h), firstSlot(b.terms[y].h)) })
	dict, err := newDictSeeker(s.kv)
	if err != nil {
		return nil, err
	}
	defer dict.close()
	for _, i := range misses {
		enc := b.encoding(i)
		id, found, err := probe(dict, b.terms[i].h, enc, nil, pending)
		switch {
		case err != nil:
			return nil, err
		case found:
			s.written.put(b.terms[i].h, enc, id)
		case inserted[i]:
			pending.add(enc, id)
		default:
			id = Any
		}
		ids[i] = id
	}
	return ids, nil
}

// dictSeeker reads dictionary slots in ascending order with one iterator
// seeking forward, which costs less than a point read each: a point read
// consults every table of the first level, one per ingested commit, where
// a forward seek mostly steps to the next key of each.
type dictSeeker struct {
	kv.Reader
	it  kv.Iterator
	val []byte
}

func newDictSeeker(r kv.Reader) (*dictSeeker, error) {
	it, err := r.NewIter([]byte{tagDict}, []byte{tagDict + 1})
	if err != nil {
		return nil, err
	}
	return &dictSeeker{Reader: r, it: it}, nil
}

// Get returns the value of a dictionary key; it stays valid until the
// next Get.
func (d *dictSeeker) Get(key []byte) ([]byte, error) {
	if !d.it.SeekGE(key) || string(d.it.Key()) != string(key) {
		if err := d.it.Err(); err != nil {
			return nil, err
		}
		return nil, kv.ErrNotFound
	}
	d.val = append(d.val[:0], d.it.Value()...)
	return d.val, nil
}

func (d *dictSeeker) close() { _ = d.it.Close() }
