package frontier

import (
	"errors"
	"fmt"
	"testing"
)

// TestRelease hands a queue over: its queued URLs leave with their state,
// best first; a failed send releases nothing; URLs in flight and other
// queues stay; a released URL scheduled again is queued anew, a done one
// is not; all of it survives a reopen. Both seen-set paths (overlay and
// ingested runs) are covered by the two batch sizes.
func TestRelease(t *testing.T) {
	for _, ingestMin := range []int{1, 1 << 20} {
		t.Run(fmt.Sprint("ingestMin=", ingestMin), func(t *testing.T) {
			dir := t.TempDir()
			f := open(t, dir, Options{SeenBatch: 1, ingestMin: ingestMin})
			for i := range 10 {
				schedule(t, f, Candidate{URL: fmt.Sprintf("http://a.test/%d", i), QueueKey: "a.test", Hops: "LL", Via: "http://a.test/", Score: float64(i)})
			}
			schedule(t, f, Candidate{URL: "http://b.test/", QueueKey: "b.test", Score: 1})
			done := next(t, f) // a.test's best, 9: its queue was ready first
			if done.URL != "http://a.test/9" {
				t.Fatalf("claimed %s first", done.URL)
			}
			if _, err := f.Release("a.test", 0, func([]Queued) error { return errors.New("stream down") }); err == nil {
				t.Fatal("a failed send released the queue")
			}
			if got := f.Totals().Queued; got != 10 {
				t.Fatalf("after a failed send: %d queued, want 10", got)
			}
			var got []Queued
			send := func(qs []Queued) error { got = append(got, qs...); return nil }
			for {
				n, err := f.Release("a.test", 4, send)
				if err != nil {
					t.Fatal(err)
				}
				if n < 4 {
					break
				}
			}
			if len(got) != 9 {
				t.Fatalf("released %d URLs, want 9: %+v", len(got), got)
			}
			for i, q := range got {
				want := Queued{URL: fmt.Sprintf("http://a.test/%d", 8-i), QueueKey: "a.test", Hops: "LL", Via: "http://a.test/", Score: float64(8 - i)}
				if q != want {
					t.Fatalf("released #%d = %+v, want %+v", i, q, want)
				}
			}
			if tot := f.Totals(); tot.Queued != 1 || tot.InFlight != 1 {
				t.Fatalf("after the release: %+v", tot)
			}
			if c := next(t, f); c.URL != "http://b.test/" {
				t.Fatalf("claimed %s after a.test was released", c.URL)
			} else if err := f.Complete(c.URL, Outcome{Status: Succeeded}); err != nil {
				t.Fatal(err)
			}
			if err := f.Complete(done.URL, Outcome{Status: Succeeded}); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			f = open(t, dir, Options{SeenBatch: 1, ingestMin: ingestMin})
			// The domain comes back: released URLs are queued again, the
			// fetched one is not.
			schedule(t, f, Candidate{URL: "http://a.test/3", QueueKey: "a.test", Score: 7}, Candidate{URL: done.URL, QueueKey: "a.test"})
			if err := f.Flush(); err != nil {
				t.Fatal(err)
			}
			c := next(t, f)
			if c.URL != "http://a.test/3" || c.Score != 7 {
				t.Fatalf("claimed %+v, want the released http://a.test/3 with its new score", c)
			}
			if c := tryNext(t, f); c != nil {
				t.Fatalf("claimed %s, fetched before its queue was released", c.URL)
			}
		})
	}
}
