package frontier

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestOrderedFloat(t *testing.T) {
	fs := []float64{math.Inf(-1), -math.MaxFloat64, -2, -0.5, -math.SmallestNonzeroFloat64, 0, math.SmallestNonzeroFloat64, 0.25, 1, 1e300, math.Inf(1)}
	for i := 1; i < len(fs); i++ {
		if orderedFloat(fs[i-1]) >= orderedFloat(fs[i]) {
			t.Errorf("orderedFloat(%g) >= orderedFloat(%g)", fs[i-1], fs[i])
		}
	}
	if orderedFloat(math.Copysign(0, -1)) != orderedFloat(0) {
		t.Error("-0 and +0 order differently")
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	r := urlRecord{state: stateInFlight, qid: 70000, score: -0.75, count: 3, seq: 1 << 40, retries: 2}
	got, err := decodeURLRecord(r.encode(nil))
	if err != nil || got != r {
		t.Errorf("URL record round trip: %+v, %v", got, err)
	}
	q := queueRecord{key: "example.org", size: 5, inFlight: 1, valence: 2, budget: 9, used: 4,
		snoozeUntil: 1e18, readyAt: -1, readySeq: 77, inHeap: true, lastFetch: 3e9}
	gotQ, err := decodeQueueRecord(q.encode(nil))
	if err != nil || gotQ != q {
		t.Errorf("queue record round trip: %+v, %v", gotQ, err)
	}
	cs := []Candidate{{URL: "http://a/", QueueKey: "a", Score: 0.5, Hops: "L", Via: "http://b/", Update: UpdateAvg}, {URL: "http://c/", QueueKey: "c"},
		{URL: "http://d/x", QueueKey: "zz", Hops: "LX", Via: "http://d/x/longer"}, {URL: "http://e/", QueueKey: "e", Via: "ftp://f/"}}
	buf := []byte{byte(len(cs))}
	for i := range cs {
		buf = cs[i].encode(buf)
	}
	gotC, err := decodeCandidates(buf)
	if err != nil || !slices.Equal(gotC, cs) {
		t.Errorf("candidates round trip: %+v, %v", gotC, err)
	}
}

// TestCorruptRecords: every truncation of a valid record is an error with
// context, never a panic or a silently wrong value.
func TestCorruptRecords(t *testing.T) {
	e := entry{url: "http://a/x", hops: "LL", via: "http://a/"}
	for _, e := range []entry{e, {url: "http://b/", via: "https://b/"}, {url: "http://c/"}} {
		if got, err := decodeEntry(e.encode(nil)); err != nil || got != e {
			t.Errorf("entry round trip: %+v, %v", got, err)
		}
	}
	r := urlRecord{state: stateQueued, qid: 1, score: 1, count: 1, seq: 9}
	q := queueRecord{key: "a", size: 1, valence: 1}
	m := meta{seq: 3, readySeq: 4, nextQID: 2, totals: Totals{Queued: 1}, nextRun: 3, runs: []runInfo{{id: 2, records: 7}}}
	c := Candidate{URL: "http://a/", QueueKey: "a"}
	for _, tc := range []struct {
		what   string
		data   []byte
		decode func([]byte) error
	}{
		{"URL entry", e.encode(nil), func(b []byte) error { _, err := decodeEntry(b); return err }},
		{"URL record", r.encode(nil), func(b []byte) error { _, err := decodeURLRecord(b); return err }},
		{"queue record", q.encode(nil), func(b []byte) error { _, err := decodeQueueRecord(b); return err }},
		{"meta record", m.encode(nil), func(b []byte) error { _, err := decodeMeta(b); return err }},
		{"pending record", c.encode([]byte{1}), func(b []byte) error { _, err := decodeCandidates(b); return err }},
	} {
		if err := tc.decode(tc.data); err != nil {
			t.Fatalf("%s: valid record rejected: %v", tc.what, err)
		}
		for n := range len(tc.data) {
			err := tc.decode(tc.data[:n])
			if err == nil || !strings.Contains(err.Error(), "corrupt "+tc.what) {
				t.Errorf("%s truncated to %d bytes: %v", tc.what, n, err)
			}
		}
		if err := tc.decode(append(slices.Clone(tc.data), 0)); err == nil {
			t.Errorf("%s with a trailing byte accepted", tc.what)
		}
	}
	if _, err := decodeURLRecord([]byte{99, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}); err == nil || !strings.Contains(err.Error(), "unknown URL state") {
		t.Errorf("unknown state: %v", err)
	}
}

// TestSortByHash checks the bucket sort of the seen pass against a
// comparison sort, with repeated hashes (a URL seen many times) and hashes
// that share their top bits.
func TestSortByHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []sortEntry
	var count []int
	for _, n := range []int{0, 1, 2, 3, 100, 5000} {
		order := make([]sortEntry, n)
		for i := range order {
			switch {
			case i > 0 && rng.IntN(4) == 0: // a repeated sighting
				order[i] = order[rng.IntN(i)]
			case rng.IntN(8) == 0: // same top bits, different low bits
				order[i] = sortEntry{hi: rng.Uint64() >> 40, lo: rng.Uint64()}
			default:
				order[i] = sortEntry{hi: rng.Uint64(), lo: rng.Uint64()}
			}
			order[i].idx = uint32(i)
		}
		want := slices.Clone(order)
		slices.SortFunc(want, compareSortEntries)
		var got []sortEntry
		got, out, count = sortByHash(slices.Clone(order), out, count)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: sortByHash order differs from a comparison sort", n)
		}
	}
}
