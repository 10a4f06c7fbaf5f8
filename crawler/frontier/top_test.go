package frontier

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTop checks Top against a sort of everything scheduled: scores of
// both signs over several queues, limits below and above the number
// queued, and URLs leaving the queues by claim and blacklist.
func TestTop(t *testing.T) {
	f, _ := newTestFrontier(t, Options{SeenBatch: 1, QueuePolicy: func(string) QueuePolicy { return QueuePolicy{Valence: 100} }})
	r := rand.New(rand.NewPCG(1, 2))
	var want []Queued
	for i := range 60 {
		c := Candidate{
			URL: fmt.Sprintf("http://h%d.example/p%d", i%4, i), QueueKey: fmt.Sprintf("h%d.example", i%4),
			Hops: "L", Via: "http://seed.example/", Score: float64(r.IntN(21)-10) / 4,
		}
		schedule(t, f, c)
		want = append(want, Queued{URL: c.URL, QueueKey: c.QueueKey, Hops: c.Hops, Via: c.Via, Score: c.Score})
	}
	order := func() {
		slices.SortStableFunc(want, func(a, b Queued) int { return cmp.Compare(b.Score, a.Score) })
	}
	check := func(limit int) {
		t.Helper()
		got, err := f.Top(limit)
		if err != nil {
			t.Fatal(err)
		}
		n := min(limit, len(want))
		if len(got) != n {
			t.Fatalf("Top(%d): %d URLs, want %d", limit, len(got), n)
		}
		for i, g := range got {
			// Equal scores may come in any queue order: compare scores, and
			// that each URL is one queued with that score.
			if g.Score != want[i].Score {
				t.Fatalf("Top(%d)[%d] score %v, want %v", limit, i, g.Score, want[i].Score)
			}
			if j := slices.IndexFunc(want, func(w Queued) bool { return w.URL == g.URL }); j < 0 || want[j] != g {
				t.Fatalf("Top(%d)[%d] = %+v, not a queued URL", limit, i, g)
			}
		}
	}
	order()
	for _, limit := range []int{1, 5, 17, 60, 100} {
		check(limit)
	}
	c := next(t, f) // a claimed URL is no longer queued
	if err := f.Blacklist([]string{want[len(want)-1].URL}); err != nil {
		t.Fatal(err)
	}
	want = slices.DeleteFunc(want[:len(want)-1], func(q Queued) bool { return q.URL == c.URL })
	check(10)
	check(100)
	if got, err := f.Top(0); err != nil || len(got) != 0 {
		t.Errorf("Top(0) = %v, %v", got, err)
	}
}
