package frontier

import (
	"container/heap"
	"time"
)

// queue is the in-memory copy of a queue record plus its slot in the ready
// heap.
type queue struct {
	id uint32
	queueRecord
	heapIdx int // index in Frontier.ready, -1 when absent
	// head, when headSet, is a position no queued entry of the queue sorts
	// before: claim seeks there instead of stepping from the start of the
	// queue over the deletion marks of every URL claimed before (they stay
	// until a compaction drops them). Only kept in memory: after a reopen
	// claims start from the queue's start again.
	head    itemPos
	headSet bool
	// ahead are the positions of the entries that followed head when the
	// queue was last read, in order: claims take them one by one instead
	// of opening an iterator each (see claim). Cleared when an entry is
	// written before the last of them.
	ahead []aheadEntry
	// dirty is set while the queue's record is in the journal and not yet
	// in its own key.
	dirty bool
	// saved is set once the queue has a record of its own (Q qid), which
	// holds its key: the journal then leaves the key out.
	saved   bool
	touched uint64 // mark of the last touchSet the queue was added to
}

// mayHold lowers q's head hint to p, a position an entry is written at,
// and drops the positions read ahead if p sorts before the last of them.
func (f *Frontier) mayHold(q *queue, p itemPos) {
	if q.headSet && comparePos(p, q.head) < 0 {
		q.head = p
	}
	if n := len(q.ahead); n > 0 && comparePos(p, q.ahead[n-1].pos) < 0 {
		f.dropAhead(q)
	}
}

// dropAhead forgets the positions read ahead in q.
func (f *Frontier) dropAhead(q *queue) {
	f.aheadHeld -= len(q.ahead)
	q.ahead = nil
}

func (q *queue) exhausted() bool { return q.budget > 0 && q.used >= q.budget }

// eligible reports whether the queue can be served once its snooze passes
// (and, when it holds only waiting URLs, once the first is due).
func (q *queue) eligible() bool {
	return (q.size > 0 || q.waiting > 0) && q.inFlight < q.valence && !q.exhausted()
}

// place keeps the invariant "in the ready heap iff eligible". An eligible
// queue becomes ready at max(now, snoozeUntil), or when it holds only
// waiting URLs, at the first one's due time if later. A queue already in
// the heap keeps its place unless its snooze now ends later, or, while it
// is not yet ready, it can be served sooner (a URL to visit, or one due
// earlier, arrived).
func (f *Frontier) place(q *queue, now int64) {
	switch f.replace(q, now) {
	case leave:
		f.ready.remove(q)
	case moved:
		if q.heapIdx >= 0 {
			heap.Fix(&f.ready, q.heapIdx)
		} else {
			f.ready.push(q)
		}
	}
}

// placeAll places many queues. When they are many compared with the
// heap, the heap is rebuilt once instead of fixed for each: a seen pass
// often touches most queues.
func (f *Frontier) placeAll(qs []*queue, now int64) {
	if len(qs)*8 < len(f.ready) {
		for _, q := range qs {
			f.place(q, now)
		}
		return
	}
	for _, q := range qs {
		switch f.replace(q, now) {
		case leave:
			f.ready.cut(q)
		case moved:
			if q.heapIdx < 0 {
				q.heapIdx = len(f.ready)
				f.ready = append(f.ready, q)
			}
		}
	}
	heap.Init(&f.ready)
}

// A queue's move in the ready order.
const (
	stay  = iota // keeps its place
	leave        // leaves the heap (or stays out)
	moved        // enters the heap or moves in it
)

// replace updates the ready fields of q as place's invariant says and
// tells what becomes of its heap slot.
func (f *Frontier) replace(q *queue, now int64) int {
	if !q.eligible() {
		q.inHeap = false
		return leave
	}
	want := max(now, q.snoozeUntil)
	if q.size == 0 {
		want = max(want, q.nextDue)
	}
	if q.heapIdx >= 0 && q.readyAt >= want && !(q.readyAt > now && q.readyAt > want) {
		return stay
	}
	f.meta.readySeq++
	q.readyAt, q.readySeq, q.inHeap = want, f.meta.readySeq, true
	return moved
}

// queueFor returns the queue of key, creating it (with its policy) if new.
func (f *Frontier) queueFor(key string) *queue {
	if q := f.byKey[key]; q != nil {
		return q
	}
	p := QueuePolicy{Valence: 1}
	if f.opts.QueuePolicy != nil {
		p = f.opts.QueuePolicy(key)
	}
	q := &queue{id: f.meta.nextQID, heapIdx: -1}
	q.key, q.valence, q.budget = key, max(p.Valence, 1), max(p.Budget, 0)
	f.meta.nextQID++
	f.queues = append(f.queues, q)
	f.byKey[key] = q
	return q
}

// readyHeap orders queues by the time they become ready, then by the order
// in which that time was set.
type readyHeap []*queue

func (h readyHeap) Len() int { return len(h) }
func (h readyHeap) Less(i, j int) bool {
	if h[i].readyAt != h[j].readyAt {
		return h[i].readyAt < h[j].readyAt
	}
	return h[i].readySeq < h[j].readySeq
}
func (h readyHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapIdx, h[j].heapIdx = i, j
}
func (h *readyHeap) Push(x any) {
	q := x.(*queue)
	q.heapIdx = len(*h)
	*h = append(*h, q)
}
func (h *readyHeap) Pop() any {
	old := *h
	q := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	q.heapIdx = -1
	return q
}
func (h *readyHeap) push(q *queue) { heap.Push(h, q) }
func (h *readyHeap) remove(q *queue) {
	if q.heapIdx >= 0 {
		heap.Remove(h, q.heapIdx)
	}
}

// cut removes q without restoring the heap order (heap.Init follows).
func (h *readyHeap) cut(q *queue) {
	if i := q.heapIdx; i >= 0 {
		last := len(*h) - 1
		h.Swap(i, last)
		(*h)[last] = nil
		*h = (*h)[:last]
		q.heapIdx = -1
	}
}

// QueueState is what a queue is doing.
type QueueState string

const (
	Ready     QueueState = "ready"     // can be served now
	Busy      QueueState = "busy"      // as many URLs in flight as its valence allows
	Snoozed   QueueState = "snoozed"   // waiting for politeness, a retry delay or its first due URL
	Empty     QueueState = "empty"     // nothing queued or in flight
	Exhausted QueueState = "exhausted" // budget spent
)

// QueueStats describes one queue.
type QueueStats struct {
	Key        string
	State      QueueState
	Size       int64 // URLs queued for their first visit (or a retry)
	Waiting    int64 // visited URLs waiting for their revisit (incremental crawls)
	InFlight   int64
	Valence    int64
	Budget     int64 // 0: unlimited
	BudgetUsed int64 // claims made so far
	// NextReady is when the queue can next be served (zero if it is not
	// waiting to be served: empty, busy or exhausted).
	NextReady time.Time
	// NextDue is the due time of the first waiting URL (zero if none).
	NextDue time.Time
	// LastFetch is the fetch duration last reported by Complete.
	LastFetch time.Duration
}

func (q *queue) stats(now int64) QueueStats {
	s := QueueStats{
		Key: q.key, Size: q.size, Waiting: q.waiting, InFlight: q.inFlight, Valence: q.valence,
		Budget: q.budget, BudgetUsed: q.used, LastFetch: time.Duration(q.lastFetch),
	}
	if q.waiting > 0 {
		s.NextDue = time.Unix(0, q.nextDue)
	}
	switch {
	case q.exhausted():
		s.State = Exhausted
	case q.size == 0 && q.waiting == 0 && q.inFlight == 0:
		s.State = Empty
	case q.size == 0 && q.waiting == 0 || q.inFlight >= q.valence:
		s.State = Busy
	case q.readyAt > now:
		s.State = Snoozed
	default:
		s.State = Ready
	}
	if q.heapIdx >= 0 {
		s.NextReady = time.Unix(0, q.readyAt)
	}
	return s
}

// Totals counts URLs by state. Succeeded, Failed and Disregarded count
// completions; Blacklisted counts URLs blacklisted in any state.
type Totals struct {
	Queued      int64 // waiting in queues for their first visit (or a retry)
	Waiting     int64 // visited, waiting for their revisit (incremental crawls)
	InFlight    int64 // claimed, not completed
	Pending     int64 // scheduled, awaiting the seen-set pass
	Succeeded   int64
	Failed      int64
	Disregarded int64
	Blacklisted int64
	Queues      int64
}

// Totals returns the counts of URLs by state.
func (f *Frontier) Totals() Totals {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.meta.totals
	t.Pending = int64(len(f.pending))
	t.Queues = int64(len(f.queues))
	return t
}

// Queue returns the stats of the queue with the given politeness key.
func (f *Frontier) Queue(key string) (QueueStats, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	q := f.byKey[key]
	if q == nil {
		return QueueStats{}, false
	}
	return q.stats(f.clock.Now().UnixNano()), true
}

// EachQueue calls fn with the stats of every queue, in creation order,
// until fn returns false. fn must not call the Frontier.
func (f *Frontier) EachQueue(fn func(QueueStats) bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.clock.Now().UnixNano()
	for _, q := range f.queues {
		if !fn(q.stats(now)) {
			return
		}
	}
}

// SetQueuePolicy changes the valence and budget of an existing queue, e.g.
// to give an exhausted queue more budget. It reports whether the queue
// exists.
func (f *Frontier) SetQueuePolicy(key string, p QueuePolicy) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.check(); err != nil {
		return false, err
	}
	q := f.byKey[key]
	if q == nil {
		return false, nil
	}
	q.valence, q.budget = max(p.Valence, 1), max(p.Budget, 0)
	f.place(q, f.clock.Now().UnixNano())
	return true, f.commit(f.db.NewBatch(), []*queue{q}, nil)
}
