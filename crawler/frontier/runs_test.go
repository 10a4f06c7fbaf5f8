package frontier

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSeenRuns schedules thousands of URLs in small seen passes, so that
// their records are spread over many runs of many pages that get merged,
// then rediscovers, rescores and blacklists them across flushes and a
// reopen, and claims everything: each URL comes out exactly once, with the
// score the update functions give, and blacklisted ones never.
func TestSeenRuns(t *testing.T) {
	const n = 3000
	dir := t.TempDir()
	opts := Options{Clock: &fakeClock{t: epoch}, SeenBatch: 40, ingestMin: 1, runPage: 3, seenSplit: 5,
		QueuePolicy: func(string) QueuePolicy { return QueuePolicy{Valence: 1 << 20} }}
	f := open(t, dir, opts)
	url := func(i int) string { return fmt.Sprintf("http://h%d.test/page/%d", i%7, i) }
	cand := func(i int, score float64, u UpdateFunc) Candidate {
		return Candidate{URL: url(i), QueueKey: fmt.Sprintf("h%d", i%7), Score: score, Update: u}
	}
	want := map[string]float64{}
	var cs []Candidate
	for i := range n {
		cs = append(cs, cand(i, float64(i%10), UpdateFirst))
		want[url(i)] = float64(i % 10)
		if len(cs) == 7 || i == n-1 {
			schedule(t, f, cs...)
			cs = nil
		}
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	// Size classes of runFanIn: at most runFanIn-1 runs of each class.
	classes := sizeClass(n, uint64(opts.SeenBatch)) + 1
	if got := len(f.meta.runs); got < 2 || got > classes*(runFanIn-1) {
		t.Errorf("%d runs for %d URLs in passes of %d, want 2 to %d", got, n, opts.SeenBatch, classes*(runFanIn-1))
	}
	total := uint64(0)
	for _, r := range f.meta.runs {
		total += r.records
	}
	if total != n {
		t.Errorf("runs hold %d records, want %d", total, n)
	}

	// Rediscover every third URL with SUM +100 in one pass, and some with
	// MAX in the next (which only raises the lower scores).
	for i := 0; i < n; i += 3 {
		schedule(t, f, cand(i, 100, UpdateSum))
		want[url(i)] += 100
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f = open(t, dir, opts)
	for i := 1; i < n; i += 5 {
		schedule(t, f, cand(i, 50, UpdateMax))
		want[url(i)] = math.Max(want[url(i)], 50)
	}
	var black []string
	for i := 2; i < n; i += 11 {
		black = append(black, url(i))
		delete(want, url(i))
	}
	if err := f.Blacklist(black); err != nil {
		t.Fatal(err)
	}
	// Blacklisted URLs stay out when rediscovered; new ones still come in.
	for i := 2; i < n; i += 11 {
		schedule(t, f, cand(i, 1000, UpdateLast))
	}
	for i := n; i < n+100; i++ {
		schedule(t, f, cand(i, 1, UpdateFirst))
		want[url(i)] = 1
	}
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := f.Totals(); got.Queued != int64(len(want)) || got.Blacklisted != int64(len(black)) {
		t.Fatalf("totals %+v, want %d queued and %d blacklisted", got, len(want), len(black))
	}
	for range len(want) {
		c := next(t, f)
		s, ok := want[c.URL]
		if !ok {
			t.Fatalf("claimed %s, which is blacklisted or was claimed before", c.URL)
		}
		if c.Score != s {
			t.Errorf("%s: score %v, want %v", c.URL, c.Score, s)
		}
		delete(want, c.URL)
	}
	if c := tryNext(t, f); c != nil {
		t.Errorf("claimed %s after every URL was", c.URL)
	}
}

// TestUnreferencedRunDropped: a run ingested by a seen pass whose batch
// never committed (a crash in between) is deleted by Open, and its id is
// reused without mixing its records into the new run.
func TestUnreferencedRunDropped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "f")
	opts := Options{SeenBatch: 8, ingestMin: 1, runPage: 2}
	f := open(t, dir, opts)
	schedule(t, f, Candidate{URL: "http://a.test/1", QueueKey: "a"}, Candidate{URL: "http://a.test/2", QueueKey: "a"})
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	committed := f.meta.nextRun
	// What a pass does before its batch: write and ingest a run.
	w := f.newRunWriter()
	var hs []urlHash
	for i := range 5 {
		hs = append(hs, hashURL(fmt.Sprintf("http://lost.test/%d", i)))
	}
	slices.SortFunc(hs, func(x, y urlHash) int { return bytes.Compare(x[:], y[:]) })
	var e []byte
	for _, h := range hs {
		e = appendRunEntry(e[:0], &h, &urlRecord{state: stateQueued, count: 1, seq: 99})
		if err := w.add(e); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := w.finish()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.ingest(paths); err != nil {
		t.Fatal(err)
	}
	f.meta.nextRun = committed // the meta record on disk still says so
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	f = open(t, dir, opts)
	n := 0
	err = f.scan([]byte{prefixRun}, func(k, v []byte) error {
		if k[5] == pageRecords {
			n += len(v) / runEntrySize
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("%d run records after reopen, want the 2 committed", n)
	}
	schedule(t, f, Candidate{URL: "http://lost.test/3", QueueKey: "l"})
	if err := f.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := f.Totals().Queued; got != 3 {
		t.Errorf("queued %d, want 3: a URL of the dropped run was taken as seen", got)
	}
}

// TestHasFingerprint checks the interpolation search of index pages
// against a plain membership test, on sorted pages of random fingerprints
// (with repeats, and skewed ones) and on every value near their entries.
func TestHasFingerprint(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		n := 1 + rng.IntN(300)
		fps := make([]uint32, n)
		for i := range fps {
			switch round % 3 {
			case 0:
				fps[i] = rng.Uint32()
			case 1:
				fps[i] = uint32(rng.IntN(50)) // many repeats
			default:
				fps[i] = uint32(rng.ExpFloat64() * 1e6) // not uniform
			}
		}
		slices.Sort(fps)
		page := make([]byte, 0, n*fingerprintSize)
		for _, v := range fps {
			page = binary.BigEndian.AppendUint32(page, v)
		}
		probes := []uint32{0, math.MaxUint32, rng.Uint32()}
		for _, v := range fps {
			probes = append(probes, v-1, v, v+1)
		}
		for _, p := range probes {
			var h urlHash
			binary.BigEndian.PutUint32(h[:], p)
			if got, want := hasFingerprint(page, &h), slices.Contains(fps, p); got != want {
				t.Fatalf("round %d: fingerprint %d in %v: got %v, want %v", round, p, fps, got, want)
			}
		}
	}
}

// TestOldFormatRefused: a database whose runs are in the format before
// index pages (prefix U) is refused rather than read as an empty
// seen-set, which would schedule every URL again.
func TestOldFormatRefused(t *testing.T) {
	dir := t.TempDir()
	f := open(t, dir, Options{})
	if err := f.db.Set(runKeyV1(), make([]byte, runEntrySize), nil); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	g, err := Open(dir, Options{})
	if err == nil {
		g.Close()
		t.Fatal("Open accepted a seen-set in the old format")
	}
	if !strings.Contains(err.Error(), "earlier version") {
		t.Errorf("error %q does not say the format is old", err)
	}
}

// runKeyV1 is a page key of the old format: U run(4) lastHash(16).
func runKeyV1() []byte {
	return append([]byte{prefixOldRun, 0, 0, 0, 0}, make([]byte, 16)...)
}
