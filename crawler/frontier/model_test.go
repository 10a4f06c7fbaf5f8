package frontier

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// model is a naive in-memory frontier with the documented semantics:
// linear scans instead of Pebble, heaps and the seen-set pass. The property
// test runs random operations against both and compares every answer.
type model struct {
	seenBatch int
	policy    func(string) QueuePolicy
	urls      map[string]*mURL
	queues    map[string]*mQueue
	qorder    []string // creation order
	seq       uint64
	readySeq  uint64
	pending   []Candidate
	logged    int // pending candidates made durable by a synced write
	tot       Totals
}

type mURL struct {
	state     urlState
	queue     string
	score     float64
	count     uint64
	seq       uint64
	retries   int
	hops, via string
}

type mQueue struct {
	key                        string
	valence, budget, used, fly int64
	snoozeUntil, readyAt       int64
	readySeq                   uint64
	waiting                    bool // in the ready order
	lastFetch                  time.Duration
}

func newModel(seenBatch int, policy func(string) QueuePolicy) *model {
	return &model{seenBatch: seenBatch, policy: policy, urls: map[string]*mURL{}, queues: map[string]*mQueue{}}
}

func (m *model) size(q *mQueue) int64 {
	n := int64(0)
	for _, u := range m.urls {
		if u.state == stateQueued && u.queue == q.key {
			n++
		}
	}
	return n
}

func (m *model) place(q *mQueue, now int64) {
	if m.size(q) == 0 || q.fly >= q.valence || (q.budget > 0 && q.used >= q.budget) {
		q.waiting = false
		return
	}
	want := max(now, q.snoozeUntil)
	if q.waiting && q.readyAt >= want {
		return
	}
	m.readySeq++
	q.readyAt, q.readySeq, q.waiting = want, m.readySeq, true
}

func (m *model) queueFor(key string) *mQueue {
	if q := m.queues[key]; q != nil {
		return q
	}
	p := m.policy(key)
	q := &mQueue{key: key, valence: max(p.Valence, 1), budget: p.Budget}
	m.queues[key] = q
	m.qorder = append(m.qorder, key)
	return q
}

func (m *model) rescore(u *mURL, fn UpdateFunc, s float64) {
	if u.state != stateQueued {
		return
	}
	switch fn {
	case UpdateLast:
		u.score = s
	case UpdateMax:
		u.score = math.Max(u.score, s)
	case UpdateSum:
		u.score += s
	case UpdateAvg:
		u.score = (u.score*float64(u.count) + s) / float64(u.count+1)
	}
	u.count++
}

func (m *model) applyPending(now int64) {
	var touched []*mQueue
	for _, c := range m.pending {
		u := m.urls[c.URL]
		if u != nil {
			m.rescore(u, c.Update, c.Score)
			continue
		}
		q := m.queueFor(c.QueueKey)
		m.seq++
		m.urls[c.URL] = &mURL{state: stateQueued, queue: q.key, score: c.Score, count: 1, seq: m.seq, hops: c.Hops, via: c.Via}
		m.tot.Queued++
		if !slices.Contains(touched, q) {
			touched = append(touched, q)
		}
	}
	m.pending, m.logged = nil, 0
	for _, q := range touched {
		m.place(q, now)
	}
}

func (m *model) schedule(cs []Candidate, now int64) {
	m.pending = append(m.pending, cs...)
	if len(m.pending) >= m.seenBatch {
		m.applyPending(now)
	}
}

// first is the queue that became ready first, or nil.
func (m *model) first() *mQueue {
	var best *mQueue
	for _, k := range m.qorder {
		q := m.queues[k]
		if q.waiting && (best == nil || q.readyAt < best.readyAt || q.readyAt == best.readyAt && q.readySeq < best.readySeq) {
			best = q
		}
	}
	return best
}

func (m *model) next(now int64) (*Claim, time.Time) {
	if q := m.first(); (q == nil || q.readyAt > now) && len(m.pending) > 0 {
		m.applyPending(now)
	}
	q := m.first()
	if q == nil {
		return nil, time.Time{}
	}
	if q.readyAt > now {
		return nil, time.Unix(0, q.readyAt)
	}
	var url string
	var best *mURL
	for k, u := range m.urls {
		if u.state == stateQueued && u.queue == q.key &&
			(best == nil || u.score > best.score || u.score == best.score && u.seq < best.seq) {
			url, best = k, u
		}
	}
	best.state = stateInFlight
	q.fly++
	q.used++
	m.tot.Queued--
	m.tot.InFlight++
	q.waiting = false
	m.place(q, now)
	return &Claim{URL: url, QueueKey: q.key, Hops: best.hops, Via: best.via, Score: best.score, Retries: best.retries}, time.Time{}
}

func (m *model) complete(url string, o Outcome, now int64) error {
	u := m.urls[url]
	if u == nil || (u.state != stateInFlight && u.state != stateBlacklistedInFlight) {
		return ErrNotInFlight
	}
	q := m.queues[u.queue]
	m.tot.InFlight--
	m.logged = len(m.pending) // the completion is synced, with what was scheduled before
	switch {
	case u.state == stateBlacklistedInFlight:
		u.state = stateBlacklisted
	case o.Status == RetryLater:
		u.state = stateQueued
		u.retries++
		m.tot.Queued++
	case o.Status == Succeeded:
		u.state = stateSucceeded
		m.tot.Succeeded++
	case o.Status == Failed:
		u.state = stateFailed
		m.tot.Failed++
	default:
		u.state = stateDisregarded
		m.tot.Disregarded++
	}
	q.fly--
	q.lastFetch = o.FetchDuration
	q.snoozeUntil = max(q.snoozeUntil, unixNano(o.SnoozeUntil), unixNano(o.RetryAt))
	m.place(q, now)
	return nil
}

func (m *model) updatePriority(rs []Rescore, now int64) {
	m.applyPending(now)
	for _, r := range rs {
		if u := m.urls[r.URL]; u != nil {
			m.rescore(u, r.Update, r.Score)
		}
	}
}

func (m *model) blacklist(urls []string, now int64) {
	m.applyPending(now)
	var touched []*mQueue
	for _, url := range urls {
		u := m.urls[url]
		if u == nil {
			m.urls[url] = &mURL{state: stateBlacklisted}
			m.tot.Blacklisted++
			continue
		}
		switch u.state {
		case stateQueued:
			q := m.queues[u.queue]
			if !slices.Contains(touched, q) {
				touched = append(touched, q)
			}
			m.tot.Queued--
			u.state = stateBlacklisted
		case stateInFlight:
			u.state = stateBlacklistedInFlight
		case stateSucceeded, stateFailed, stateDisregarded:
			u.state = stateBlacklisted
		default:
			continue
		}
		m.tot.Blacklisted++
	}
	for _, q := range touched {
		m.place(q, now)
	}
}

// reopen is what a restart does: in-flight URLs go back to their queues.
func (m *model) reopen(now int64) {
	touched := map[string]bool{}
	for _, u := range m.urls {
		if u.state != stateInFlight && u.state != stateBlacklistedInFlight {
			continue
		}
		q := m.queues[u.queue]
		q.fly--
		m.tot.InFlight--
		touched[q.key] = true
		if u.state == stateBlacklistedInFlight {
			u.state = stateBlacklisted
		} else {
			u.state = stateQueued
			m.tot.Queued++
		}
	}
	for _, k := range m.qorder {
		if touched[k] {
			m.place(m.queues[k], now)
		}
	}
}

func (m *model) stats(now int64) []QueueStats {
	var out []QueueStats
	for _, k := range m.qorder {
		q := m.queues[k]
		s := QueueStats{Key: k, Size: m.size(q), InFlight: q.fly, Valence: q.valence, Budget: q.budget, BudgetUsed: q.used, LastFetch: q.lastFetch}
		switch {
		case q.budget > 0 && q.used >= q.budget:
			s.State = Exhausted
		case s.Size == 0 && q.fly == 0:
			s.State = Empty
		case s.Size == 0 || q.fly >= q.valence:
			s.State = Busy
		case q.readyAt > now:
			s.State = Snoozed
		default:
			s.State = Ready
		}
		if q.waiting {
			s.NextReady = time.Unix(0, q.readyAt)
		}
		out = append(out, s)
	}
	return out
}

func (m *model) inFlight() []string {
	var out []string
	for k, u := range m.urls {
		if u.state == stateInFlight || u.state == stateBlacklistedInFlight {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func modelPolicy(key string) QueuePolicy {
	switch key {
	case "h0":
		return QueuePolicy{Valence: 2}
	case "h1":
		return QueuePolicy{Budget: 6}
	}
	return QueuePolicy{Valence: 1}
}

// TestAgainstModel runs random operation sequences, with restarts and
// simulated crashes (a Pebble checkpoint taken mid-run and opened in place
// of the live directory), against the frontier and the model. ingestMin 1
// makes every seen pass ingest its new entries as a table and its new
// records as a seen-set run (of two-record pages, so that lookups cross
// pages), and runs are merged as they pile up; every pass of two or more
// candidates is checked as two hash ranges at once. Odd seeds checkpoint
// the queue journal every few batches and cache few URL records (evicting
// often), even seeds cache them all.
func TestAgainstModel(t *testing.T) {
	for _, seenBatch := range []int{1, 3, 64} {
		for _, ingestMin := range []int{0, 1} {
			for seed := range uint64(4) {
				t.Run(fmt.Sprintf("SeenBatch=%d/ingestMin=%d/seed=%d", seenBatch, ingestMin, seed), func(t *testing.T) {
					runModel(t, Options{SeenBatch: seenBatch, ingestMin: ingestMin, runPage: 2, seenSplit: 2, journalLimit: int(seed%2) * 150,
						recordCache: 4 + int(seed%2)*1000}, seed, 300)
				})
			}
		}
	}
}

func runModel(t *testing.T, opts Options, seed uint64, steps int) {
	seenBatch := opts.SeenBatch
	rng := rand.New(rand.NewPCG(seed, uint64(seenBatch)))
	clock := &fakeClock{t: epoch}
	opts.Clock, opts.QueuePolicy = clock, modelPolicy
	root := t.TempDir()
	dir := filepath.Join(root, "live")
	f := open(t, dir, opts)
	m := newModel(seenBatch, modelPolicy)
	scores := []float64{0, 0.25, 0.5, 1}
	url := func() string { i := rng.IntN(40); return fmt.Sprintf("http://h%d.test/p%d", i%5, i) }
	var log []string // operations so far, printed on failure
	claims := 0
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("after %d operations (last %d shown):\n  %s\n%s", len(log), min(len(log), 15),
			fmt.Sprint(log[max(0, len(log)-15):]), fmt.Sprintf(format, args...))
	}
	for step := range steps {
		now := clock.Now().UnixNano()
		switch r := rng.IntN(100); {
		case r < 30:
			var cs []Candidate
			for range 1 + rng.IntN(4) {
				u := url()
				var host string
				fmt.Sscanf(u, "http://%2s", &host)
				cs = append(cs, Candidate{URL: u, QueueKey: host, Score: scores[rng.IntN(len(scores))],
					Hops: "L" + string("LXE"[rng.IntN(3)]), Via: "http://" + host + ".test/", Update: UpdateFunc(rng.IntN(5))})
			}
			log = append(log, fmt.Sprintf("schedule %v", cs))
			if err := f.Schedule(cs); err != nil {
				fail("Schedule: %v", err)
			}
			m.schedule(cs, now)
		case r < 55:
			got, gotWake, err := f.Next(context.Background())
			want, wantWake := m.next(now)
			log = append(log, fmt.Sprintf("next → %v", want))
			if want != nil {
				claims++
			}
			if err != nil {
				fail("Next: %v", err)
			}
			if (got == nil) != (want == nil) || got != nil && !reflect.DeepEqual(*got, *want) || !gotWake.Equal(wantWake) {
				fail("Next = %+v, %v; model %+v, %v", got, gotWake, want, wantWake)
			}
		case r < 75:
			var target string
			if fl := m.inFlight(); len(fl) > 0 && rng.IntN(10) > 0 {
				target = fl[rng.IntN(len(fl))]
			} else {
				target = url()
			}
			o := Outcome{Status: Status(1 + rng.IntN(4)), FetchDuration: time.Duration(rng.IntN(3)) * time.Second}
			if rng.IntN(2) == 0 {
				o.SnoozeUntil = clock.Now().Add(time.Duration(rng.IntN(5)) * time.Second)
			}
			if o.Status == RetryLater {
				o.RetryAt = clock.Now().Add(time.Duration(rng.IntN(4)) * time.Second)
			}
			log = append(log, fmt.Sprintf("complete %s %+v", target, o))
			err, wantErr := f.Complete(target, o), m.complete(target, o, now)
			if !errors.Is(err, wantErr) || (err == nil) != (wantErr == nil) {
				fail("Complete(%s) = %v, model %v", target, err, wantErr)
			}
		case r < 85:
			d := time.Duration(1+rng.IntN(6)) * 500 * time.Millisecond
			log = append(log, fmt.Sprintf("advance %v", d))
			clock.advance(d)
		case r < 90:
			var rs []Rescore
			for range 1 + rng.IntN(3) {
				rs = append(rs, Rescore{URL: url(), Score: scores[rng.IntN(len(scores))], Update: UpdateFunc(rng.IntN(5))})
			}
			log = append(log, fmt.Sprintf("update %v", rs))
			if err := f.UpdatePriority(rs); err != nil {
				fail("UpdatePriority: %v", err)
			}
			m.updatePriority(rs, now)
		case r < 93:
			urls := []string{url(), fmt.Sprintf("http://h9.test/never%d", rng.IntN(3))}
			log = append(log, fmt.Sprintf("blacklist %v", urls))
			if err := f.Blacklist(urls); err != nil {
				fail("Blacklist: %v", err)
			}
			m.blacklist(urls, now)
		case r < 95:
			log = append(log, "flush")
			if err := f.Flush(); err != nil {
				fail("Flush: %v", err)
			}
			m.applyPending(now)
		case r < 98:
			log = append(log, "reopen")
			if err := f.Close(); err != nil {
				fail("Close: %v", err)
			}
			f = open(t, dir, opts)
			m.reopen(now)
		default:
			// Crash after the WAL reached the OS (as when the process
			// is killed right after a synced commit): copy the live
			// database and carry on from the copy, abandoning the live
			// one without closing. Crashes that lose the unsynced tail of
			// the WAL are tested by TestCrashMidCrawl.
			// Candidates scheduled since the last synced write are
			// only in memory and lost.
			log = append(log, "crash")
			crash := filepath.Join(root, fmt.Sprintf("crash%d", step))
			if err := f.db.Checkpoint(crash, pebble.WithFlushedWAL()); err != nil {
				fail("Checkpoint: %v", err)
			}
			old := f
			f = open(t, crash, opts)
			old.Close()
			dir = crash
			m.pending = m.pending[:m.logged]
			m.reopen(now)
		}
		if err := checkRecordCache(f); err != nil {
			fail("%v", err)
		}
		want := m.tot
		want.Pending, want.Queues = int64(len(m.pending)), int64(len(m.queues))
		if got := f.Totals(); got != want {
			fail("Totals = %+v\nmodel    %+v", got, want)
		}
		if step%10 == 0 {
			var got []QueueStats
			f.EachQueue(func(s QueueStats) bool { got = append(got, s); return true })
			if w := m.stats(clock.Now().UnixNano()); !slices.EqualFunc(got, w, queueStatsEqual) {
				fail("queues\n got %+v\nwant %+v", got, w)
			}
		}
	}
	// Nothing leaks: one data entry per queued or in-flight URL, one queue
	// entry per queued URL, one in-flight key per URL in flight.
	tot := f.Totals()
	for _, c := range []struct {
		prefix byte
		want   int64
	}{{prefixData, tot.Queued + tot.InFlight}, {prefixItem, tot.Queued}, {prefixInFlight, tot.InFlight}} {
		n := int64(0)
		if err := f.scan([]byte{c.prefix}, func(_, _ []byte) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
		if n != c.want {
			t.Errorf("%d keys with prefix %q, want %d (totals %+v)", n, c.prefix, c.want, tot)
		}
	}
	if claims < steps/20 {
		t.Errorf("only %d claims in %d operations: the sequence exercised too little", claims, steps)
	}
}

func queueStatsEqual(a, b QueueStats) bool {
	return a.Key == b.Key && a.State == b.State && a.Size == b.Size && a.InFlight == b.InFlight &&
		a.Valence == b.Valence && a.Budget == b.Budget && a.BudgetUsed == b.BudgetUsed &&
		a.NextReady.Equal(b.NextReady) && a.LastFetch == b.LastFetch
}

// checkRecordCache compares every cached URL record with the stored one.
func checkRecordCache(f *Frontier) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, err := f.newRecordReader()
	if err != nil {
		return err
	}
	defer r.Close()
	var hashes []urlHash
	for _, m := range []map[urlHash]urlRecord{f.records.cur, f.records.old} {
		for h := range m {
			hashes = append(hashes, h)
		}
	}
	slices.SortFunc(hashes, func(x, y urlHash) int { return bytes.Compare(x[:], y[:]) })
	for i := range hashes {
		cached, _ := f.records.get(&hashes[i])
		stored, found, err := r.find(&hashes[i])
		if err != nil {
			return err
		}
		if !found || stored != cached {
			return fmt.Errorf("record cache: %x cached %+v, stored %+v (found %v)", hashes[i], cached, stored, found)
		}
	}
	return nil
}
