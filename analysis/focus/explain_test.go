package focus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mneme-archive/mneme/crawler/frontier"
)

// TestExplainMergeSameAsFold records sightings through the store's
// buffer and Pebble's merges, with memtable flushes, compactions and a reopening in between (so that
// partial merges happen), and checks every link's record against
// combine applied to its sightings in order.
func TestExplainMergeSameAsFold(t *testing.T) {
	for _, u := range []frontier.UpdateFunc{frontier.UpdateFirst, frontier.UpdateMax, frontier.UpdateAvg} {
		dir := t.TempDir()
		e, err := openExplain(dir, u)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(7, 22))
		want := map[string]record{}
		found := map[string]bool{}
		for step := range 40 {
			var urls []string
			var vals []Values
			var scores []float64
			for range 20 {
				url := fmt.Sprintf("http://example.org/%d", r.IntN(30))
				v := noValues()
				for m := range v {
					if r.IntN(3) > 0 {
						v[m] = r.Float64()
					}
				}
				s := r.Float64()
				urls, vals, scores = append(urls, url), append(vals, v), append(scores, s)
				want[url] = combine(want[url], found[url], u, v, s)
				found[url] = true
			}
			if err := e.add(urls, vals, scores); err != nil {
				t.Fatal(err)
			}
			switch step % 10 {
			case 1, 4:
				// Buffered sightings out as merges (each URL's list of
				// sightings one operand), between the steps above.
				if err := e.flushBuffered(); err != nil {
					t.Fatal(err)
				}
			case 3:
				if err := e.db.Flush(); err != nil {
					t.Fatal(err)
				}
			case 6:
				if err := e.db.Compact(t.Context(), []byte("h"), []byte("i"), false); err != nil {
					t.Fatal(err)
				}
			case 9:
				if err := e.close(); err != nil {
					t.Fatal(err)
				}
				if e, err = openExplain(dir, u); err != nil {
					t.Fatal(err)
				}
			}
		}
		for url, w := range want {
			got, ok, err := e.lookup(url)
			if err != nil || !ok {
				t.Fatalf("%v %s: %v %v", u, url, ok, err)
			}
			same := got.n == w.n && math.Abs(got.score-w.score) < 1e-12
			for m := range got.values {
				a, b := got.values[m], w.values[m]
				same = same && (math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) < 1e-12)
			}
			if !same {
				t.Fatalf("%v %s: record %+v, combined in order %+v", u, url, got, w)
			}
		}
		e.close()
	}
}

// TestExplainAverageOverValued: under AVG a module's value is the mean
// over the sightings that gave one, the score the mean over all, however
// the sightings were grouped on their way to the store.
func TestExplainAverageOverValued(t *testing.T) {
	e, err := openExplain("", frontier.UpdateAvg)
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	url := "http://example.org/a"
	sight := func(anchor, score float64) {
		v := noValues()
		v[modAnchor] = anchor
		if err := e.add([]string{url}, []Values{v}, []float64{score}); err != nil {
			t.Fatal(err)
		}
	}
	sight(0.2, 0.1)
	if err := e.flushBuffered(); err != nil {
		t.Fatal(err)
	}
	sight(math.NaN(), 0.4)
	sight(0.8, 0.7)
	r, ok, err := e.lookup(url)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if r.n != 3 || math.Abs(r.values[modAnchor]-0.5) > 1e-12 || math.Abs(r.score-0.4) > 1e-12 || !math.IsNaN(r.values[modParagraph]) {
		t.Errorf("record %+v: want 3 sightings, anchor 0.5, score 0.4, no paragraph", r)
	}
}
