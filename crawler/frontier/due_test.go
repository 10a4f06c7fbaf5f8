package frontier

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func complete(t *testing.T, f *Frontier, url string, o Outcome) {
	t.Helper()
	if err := f.Complete(url, o); err != nil {
		t.Fatal(err)
	}
}

func queueStats(t *testing.T, f *Frontier, key string) QueueStats {
	t.Helper()
	q, ok := f.Queue(key)
	if !ok {
		t.Fatalf("no queue %q", key)
	}
	return q
}

func wantState(t *testing.T, f *Frontier, key string, want QueueState) {
	t.Helper()
	if q := queueStats(t, f, key); q.State != want {
		t.Fatalf("queue %s: %s, want %s (%+v)", key, q.State, want, q)
	}
}

// A queue of an incremental crawl goes empty → ready → busy → snoozed
// (politeness) → snoozed (its first URL not due) → ready at the due time,
// and its URLs are never done.
func TestDueQueueStates(t *testing.T) {
	f, clock := newTestFrontier(t, Options{SeenBatch: 1, Incremental: true})
	schedule(t, f, cand("http://a/1", "a", 0))
	wantState(t, f, "a", Ready)
	c := next(t, f)
	if c.History != nil || !c.Due.IsZero() {
		t.Fatalf("a first visit carries history %q, due %v", c.History, c.Due)
	}
	wantState(t, f, "a", Busy)
	now := clock.Now()
	complete(t, f, c.URL, Outcome{Status: Succeeded, SnoozeUntil: now.Add(time.Second),
		Due: now.Add(time.Hour), History: []byte("v1")})
	q := queueStats(t, f, "a")
	if q.State != Snoozed || q.Size != 0 || q.Waiting != 1 || !q.NextDue.Equal(now.Add(time.Hour)) || !q.NextReady.Equal(now.Add(time.Hour)) {
		t.Fatalf("after the visit: %+v", q)
	}
	clock.advance(2 * time.Second) // politeness has passed, the URL is not due
	wantState(t, f, "a", Snoozed)
	if c, wake, err := f.Next(context.Background()); err != nil || c != nil || !wake.Equal(now.Add(time.Hour)) {
		t.Fatalf("Next before the due time: %v %v %v", c, wake, err)
	}
	clock.advance(time.Hour)
	wantState(t, f, "a", Ready)
	c = next(t, f)
	if c.URL != "http://a/1" || string(c.History) != "v1" || !c.Due.Equal(now.Add(time.Hour)) {
		t.Fatalf("revisit claim %+v", c)
	}
	wantState(t, f, "a", Busy)
	// Failed (or disregarded) URLs are parked: the queue empties.
	complete(t, f, c.URL, Outcome{Status: Failed})
	wantState(t, f, "a", Empty)
	if tot := f.Totals(); tot.Waiting != 0 || tot.Succeeded != 1 || tot.Failed != 1 || tot.Queued != 0 {
		t.Fatalf("totals %+v", tot)
	}
}

// Waiting URLs are served by due time; URLs never visited come first.
func TestDueOrder(t *testing.T) {
	f, clock := newTestFrontier(t, Options{SeenBatch: 1, Incremental: true})
	start := clock.Now()
	for i, d := range []time.Duration{3 * time.Hour, time.Hour, 2 * time.Hour} {
		u := "http://a/" + string(rune('1'+i))
		schedule(t, f, cand(u, "a", 0))
		c := next(t, f)
		complete(t, f, c.URL, Outcome{Status: Succeeded, Due: start.Add(d)})
	}
	clock.advance(5 * time.Hour)
	schedule(t, f, cand("http://a/new", "a", 0))
	got := drain(t, f) // drain completes as done
	want := []string{"http://a/new", "http://a/2", "http://a/3", "http://a/1"}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	if tot := f.Totals(); tot.Waiting != 0 || tot.Succeeded != 7 {
		t.Fatalf("totals %+v", tot)
	}
}

// Among queues whose URLs fall due, the one that has been ready the longest
// is served first.
func TestDueQueuesServedByAge(t *testing.T) {
	f, clock := newTestFrontier(t, Options{SeenBatch: 1, Incremental: true})
	start := clock.Now()
	dues := map[string]time.Duration{"a": 3 * time.Minute, "b": time.Minute, "c": 2 * time.Minute}
	for _, k := range []string{"a", "b", "c"} {
		schedule(t, f, cand("http://"+k+"/", k, 0))
		c := next(t, f)
		complete(t, f, c.URL, Outcome{Status: Succeeded, Due: start.Add(dues[c.QueueKey])})
	}
	clock.advance(time.Hour)
	var got []string
	for range 3 {
		c := next(t, f)
		got = append(got, c.QueueKey)
		complete(t, f, c.URL, Outcome{Status: Succeeded, Due: clock.Now().Add(time.Hour)})
	}
	if want := []string{"b", "c", "a"}; !slices.Equal(got, want) {
		t.Fatalf("queues served %v, want %v", got, want)
	}
}

// Expedite brings waiting URLs forward (embedded resources of a changed
// page); URLs due sooner stay.
func TestExpedite(t *testing.T) {
	f, clock := newTestFrontier(t, Options{SeenBatch: 1, Incremental: true})
	start := clock.Now()
	for _, u := range []string{"http://a/img", "http://a/css"} {
		schedule(t, f, cand(u, "a", 0))
		c := next(t, f)
		due := start.Add(48 * time.Hour)
		if u == "http://a/css" {
			due = start.Add(time.Minute)
		}
		complete(t, f, c.URL, Outcome{Status: Succeeded, Due: due, History: []byte(u)})
	}
	at := start.Add(10 * time.Minute)
	if err := f.Expedite([]string{"http://a/img", "http://a/css", "http://a/unknown"}, at); err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Minute)
	c := next(t, f)
	if c.URL != "http://a/css" || !c.Due.Equal(start.Add(time.Minute)) {
		t.Fatalf("first claim %+v", c)
	}
	complete(t, f, c.URL, Outcome{Status: Succeeded})
	if c, wake, _ := f.Next(context.Background()); c != nil || !wake.Equal(at) {
		t.Fatalf("the expedited URL is not next at %v: %v %v", at, c, wake)
	}
	clock.advance(9 * time.Minute)
	if c := next(t, f); c.URL != "http://a/img" || !c.Due.Equal(at) || string(c.History) != "http://a/img" {
		t.Fatalf("expedited claim %+v", c)
	}
}

// Blacklisting a waiting URL takes it out of its queue.
func TestBlacklistWaiting(t *testing.T) {
	f, clock := newTestFrontier(t, Options{SeenBatch: 1, Incremental: true})
	start := clock.Now()
	for i, u := range []string{"http://a/1", "http://a/2"} {
		schedule(t, f, cand(u, "a", 0))
		c := next(t, f)
		complete(t, f, c.URL, Outcome{Status: Succeeded, Due: start.Add(time.Duration(i+1) * time.Hour)})
	}
	if err := f.Blacklist([]string{"http://a/1"}); err != nil {
		t.Fatal(err)
	}
	q := queueStats(t, f, "a")
	if q.Waiting != 1 || !q.NextDue.Equal(start.Add(2*time.Hour)) {
		t.Fatalf("after blacklisting the first: %+v", q)
	}
	clock.advance(3 * time.Hour)
	if got := drain(t, f); !slices.Equal(got, []string{"http://a/2"}) {
		t.Fatalf("claimed %v", got)
	}
}

// Schedules, history and queue data survive a crash; a revisit in flight
// goes back to its queue with its history.
func TestDueSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	clock := &fakeClock{t: epoch}
	opts := Options{SeenBatch: 1, Incremental: true, Clock: clock}
	f := open(t, dir, opts)
	schedule(t, f, cand("http://a/1", "a", 0), cand("http://a/2", "a", 0))
	for range 2 {
		c := next(t, f)
		complete(t, f, c.URL, Outcome{Status: Succeeded, Due: epoch.Add(time.Hour), History: []byte("h " + c.URL), QueueData: []byte("stats")})
	}
	clock.advance(time.Hour)
	inFlight := next(t, f)
	f.db.Close() // as a crash would leave it: nothing flushed by Close
	f.db = nil

	f = open(t, dir, opts)
	if d, err := f.QueueData("a"); err != nil || string(d) != "stats" {
		t.Fatalf("queue data %q %v", d, err)
	}
	if tot := f.Totals(); tot.Waiting != 1 || tot.Queued != 1 || tot.InFlight != 0 {
		t.Fatalf("totals after reopening %+v", tot)
	}
	var got []string
	for c := tryNext(t, f); c != nil; c = tryNext(t, f) {
		if string(c.History) != "h "+c.URL {
			t.Fatalf("%s lost its history: %q", c.URL, c.History)
		}
		got = append(got, c.URL)
		complete(t, f, c.URL, Outcome{Status: Succeeded, Due: clock.Now().Add(time.Hour)})
	}
	if len(got) != 2 || got[0] != inFlight.URL {
		t.Fatalf("claims after reopening %v (in flight was %s)", got, inFlight.URL)
	}
	if tot := f.Totals(); tot.Waiting != 2 {
		t.Fatalf("totals %+v", tot)
	}
}

func TestDueNeedsIncremental(t *testing.T) {
	f, clock := newTestFrontier(t, Options{SeenBatch: 1})
	schedule(t, f, cand("http://a/1", "a", 0))
	c := next(t, f)
	err := f.Complete(c.URL, Outcome{Status: Succeeded, Due: clock.Now().Add(time.Hour)})
	if err == nil || errors.Is(err, ErrNotInFlight) {
		t.Fatalf("a due time without Options.Incremental: %v", err)
	}
}

// dueModel is what one queue of an incremental crawl should hand out: URLs
// to visit (new or retried) by insertion order first, then waiting URLs by
// due time and insertion order once due.
type dueModel struct {
	seq   map[string]int
	state map[string]string // queued, waiting, flight, done, black, blackFlight
	due   map[string]time.Time
}

func (m *dueModel) next(now time.Time) (string, time.Time) {
	best, bestDue := "", time.Time{}
	for u, st := range m.state {
		if st == "queued" && (best == "" || m.state[best] != "queued" || m.seq[u] < m.seq[best]) {
			best = u
		}
	}
	if best != "" {
		return best, time.Time{}
	}
	for u, st := range m.state {
		if st != "waiting" {
			continue
		}
		d := m.due[u]
		if best == "" || d.Before(bestDue) || d.Equal(bestDue) && m.seq[u] < m.seq[best] {
			best, bestDue = u, d
		}
	}
	if best != "" && bestDue.After(now) {
		return "", bestDue
	}
	return best, time.Time{}
}

// Random schedules, claims, completions (revisit, done, failed, retry),
// expedites, blacklists and crashes on one queue agree with the model.
func TestDueAgainstModel(t *testing.T) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 7))
		dir := t.TempDir()
		clock := &fakeClock{t: epoch}
		opts := Options{SeenBatch: 1, Incremental: true, Clock: clock, QueuePolicy: func(string) QueuePolicy { return QueuePolicy{Valence: 3} },
			journalLimit: int(seed%2) * 150}
		f := open(t, dir, opts)
		m := &dueModel{seq: map[string]int{}, state: map[string]string{}, due: map[string]time.Time{}}
		var flight []string
		for op := range 400 {
			now := clock.Now()
			switch r := rng.IntN(100); {
			case r < 15:
				u := fmt.Sprintf("http://a/%d", rng.IntN(40))
				schedule(t, f, cand(u, "a", 0))
				if _, ok := m.state[u]; !ok {
					m.seq[u], m.state[u] = len(m.seq), "queued"
				}
			case r < 50:
				want, wake := "", time.Time{}
				if len(flight) < 3 {
					want, wake = m.next(now)
				}
				c, gotWake, err := f.Next(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				got := ""
				if c != nil {
					got = c.URL
				}
				if got != want || len(flight) < 3 && !gotWake.Equal(wake) {
					t.Fatalf("seed %d op %d: Next = %q (wake %v), model %q (wake %v)", seed, op, got, gotWake, want, wake)
				}
				if c != nil {
					m.state[got] = "flight"
					if !m.due[got].Equal(c.Due) {
						t.Fatalf("seed %d op %d: %s claimed with due %v, model %v", seed, op, got, c.Due, m.due[got])
					}
					flight = append(flight, got)
				}
			case r < 75 && len(flight) > 0:
				i := rng.IntN(len(flight))
				u := flight[i]
				flight = slices.Delete(flight, i, i+1)
				o := Outcome{Status: Succeeded, Due: now.Add(time.Duration(rng.IntN(5)) * time.Minute)}
				next := "waiting"
				switch rng.IntN(5) {
				case 0:
					o, next = Outcome{Status: Failed}, "done"
				case 1:
					o, next = Outcome{Status: RetryLater}, "queued"
				case 2:
					o.Due, next = time.Time{}, "done"
				}
				complete(t, f, u, o)
				switch {
				case m.state[u] == "blackFlight":
					m.state[u] = "black"
				case next == "waiting":
					m.state[u], m.due[u] = next, o.Due
				default:
					m.state[u], m.due[u] = next, time.Time{}
				}
			case r < 85:
				clock.advance(time.Duration(rng.IntN(3)) * time.Minute)
			case r < 90:
				u := fmt.Sprintf("http://a/%d", rng.IntN(40))
				at := now.Add(time.Duration(rng.IntN(2)) * time.Minute)
				if err := f.Expedite([]string{u}, at); err != nil {
					t.Fatal(err)
				}
				if m.state[u] == "waiting" && m.due[u].After(at) {
					m.due[u] = at
				}
			case r < 95:
				u := fmt.Sprintf("http://a/%d", rng.IntN(40))
				if err := f.Blacklist([]string{u}); err != nil {
					t.Fatal(err)
				}
				switch m.state[u] {
				case "flight":
					m.state[u] = "blackFlight"
				case "black", "blackFlight":
				default:
					m.state[u] = "black"
				}
				if _, ok := m.seq[u]; !ok {
					m.seq[u] = len(m.seq)
				}
			default: // crash: in-flight URLs go back to be visited
				f.db.Close()
				f.db = nil
				f = open(t, dir, opts)
				for _, u := range flight {
					if m.state[u] == "blackFlight" {
						m.state[u] = "black"
					} else {
						m.state[u], m.due[u] = "queued", time.Time{}
					}
				}
				flight = nil
			}
			var waiting int64
			for _, st := range m.state {
				if st == "waiting" {
					waiting++
				}
			}
			if tot := f.Totals(); tot.Waiting != waiting {
				t.Fatalf("seed %d op %d: %d waiting, model %d", seed, op, tot.Waiting, waiting)
			}
		}
	}
}
