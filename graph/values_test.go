package graph

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mneme-archive/mneme/graph/kv/pebblekv"
	"github.com/mneme-archive/mneme/rdf"
)

// randomValueLiteral draws a literal of a type the value index orders or
// not, with valid and invalid lexical forms, time zones and without.
func randomValueLiteral(r *rand.Rand) rdf.Term {
	tz := []string{"", "Z", "+02:00", "-11:30", "+14:00"}[r.IntN(5)]
	day := fmt.Sprintf("%04d-%02d-%02d", 1990+r.IntN(30), 1+r.IntN(12), 1+r.IntN(28))
	switch r.IntN(10) {
	case 0:
		return rdf.Literal(fmt.Sprint(r.IntN(2000)-1000), rdf.XSDInteger)
	case 1:
		return rdf.Literal(fmt.Sprintf("%d.%03d", r.IntN(200)-100, r.IntN(1000)), rdf.XSDDecimal)
	case 2:
		return rdf.Literal(fmt.Sprintf("%.3e", r.NormFloat64()*1e3), rdf.XSDDouble)
	case 3:
		return rdf.Literal([]string{"INF", "-INF", "NaN", "1e400", "0.1"}[r.IntN(5)], rdf.XSDNS+"float")
	case 4:
		return rdf.Literal(day+tz, rdf.XSDDate)
	case 5:
		return rdf.Literal(fmt.Sprintf("%sT%02d:%02d:%02d.%d%s", day, r.IntN(25), r.IntN(60), r.IntN(60), r.IntN(10), tz), rdf.XSDDateTime)
	case 6:
		return rdf.Literal([]string{"12x", "", "1.2.3", "2001-13-45", "tomorrow"}[r.IntN(5)], []string{rdf.XSDInteger, rdf.XSDDecimal, rdf.XSDDate, rdf.XSDDateTime}[r.IntN(4)])
	case 7:
		return rdf.Literal(fmt.Sprint(r.IntN(300)), rdf.XSDNS+"unsignedByte")
	case 8:
		return rdf.String(day)
	}
	return rdf.IRI(fmt.Sprintf("http://e.org/v%d", r.IntN(100)))
}

// TestValueRangeHoldsEveryValueInRange writes random literals through a
// small batch, a batch written as sorted files and the loader, and checks
// that ValueRange finds every indexed term whose value lies in random
// ranges, that Check agrees with the index, and that terms the index
// must not hold are absent.
func TestValueRangeHoldsEveryValueInRange(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, path := range []string{"batch", "ingest", "loader"} {
		t.Run(path, func(t *testing.T) {
			s := openTest(t, defaultHash)
			var quads []rdf.Quad
			for i := range 600 {
				quads = append(quads, rdf.Quad{S: rdf.IRI(fmt.Sprintf("http://e.org/s%d", i)), P: rdf.IRI("http://e.org/p"), O: randomValueLiteral(r)})
			}
			switch path {
			case "loader":
				loadAll(t, s, quads, LoadOptions{})
			default:
				if path == "ingest" {
					s.ingestMin = 1
				}
				for chunk := range slices.Chunk(quads, 200) {
					b := s.NewBatch()
					for _, q := range chunk {
						b.Add(q)
					}
					if _, err := b.Commit(context.Background()); err != nil {
						t.Fatal(err)
					}
				}
			}
			rep, err := s.Check(context.Background())
			if err != nil || !rep.OK() {
				t.Fatalf("check: %v %v", err, rep.Problems)
			}
			for range 50 {
				lo, hi := randomValueLiteral(r), randomValueLiteral(r)
				lv, ok1 := ParseValue(lo)
				hv, ok2 := ParseValue(hi)
				if !ok1 || !ok2 || lv.Class != hv.Class {
					continue
				}
				ids, complete, err := s.ValueRange(context.Background(), lv.Class, lv.Key(), hv.Key(), 1<<20)
				if err != nil || !complete {
					t.Fatal(err, complete)
				}
				got := map[ID]bool{}
				for _, id := range ids {
					got[id] = true
				}
				for _, q := range quads {
					v, ok := ParseValue(q.O)
					id, _, err := s.Lookup(q.O)
					if err != nil {
						t.Fatal(err)
					}
					in := ok && v.Class == lv.Class && inRange(v, lv, hv)
					if in != got[id] {
						t.Fatalf("%v in [%v, %v]: range has it %v, want %v", q.O, lo, hi, got[id], in)
					}
				}
			}
		})
	}
}

func inRange(v, lo, hi Value) bool {
	if v.Class == ValueNumber {
		return v.Num >= lo.Num && v.Num <= hi.Num || v.Num == 0 && lo.Num == 0 && hi.Num == 0
	}
	return v.Sec >= lo.Sec && v.Sec <= hi.Sec
}

// TestParseValueOrder checks keys against values: numbers across
// datatypes, dates and dateTimes across time zones.
func TestParseValueOrder(t *testing.T) {
	ordered := [][]rdf.Term{
		{rdf.Literal("-INF", rdf.XSDDouble), rdf.Literal("-1e10", rdf.XSDDouble), rdf.Literal("-3", rdf.XSDInteger),
			rdf.Literal("-0.5", rdf.XSDDecimal), rdf.Literal("0", rdf.XSDInteger), rdf.Literal("0.25", rdf.XSDNS+"float"),
			rdf.Literal("7", rdf.XSDNS+"unsignedByte"), rdf.Literal("123456789012345678901234567890", rdf.XSDInteger),
			rdf.Literal("INF", rdf.XSDNS+"float")},
		{rdf.Literal("-0044-03-15T12:00:00Z", rdf.XSDDateTime), rdf.Literal("1969-12-31T23:59:59Z", rdf.XSDDateTime),
			rdf.Literal("2008-03-01T10:00:00+02:00", rdf.XSDDateTime), rdf.Literal("2008-03-01T09:00:00Z", rdf.XSDDateTime),
			rdf.Literal("2008-03-01T24:00:00Z", rdf.XSDDateTime), rdf.Literal("2008-03-02T00:00:01.5Z", rdf.XSDDateTime)},
		{rdf.Literal("2000-02-28", rdf.XSDDate), rdf.Literal("2000-02-29-05:00", rdf.XSDDate), rdf.Literal("2000-03-01", rdf.XSDDate)},
	}
	for _, terms := range ordered {
		for i := 1; i < len(terms); i++ {
			a, ok1 := ParseValue(terms[i-1])
			b, ok2 := ParseValue(terms[i])
			if !ok1 || !ok2 || a.Class != b.Class || a.Key() >= b.Key() {
				t.Errorf("%v (%v) should be before %v (%v)", terms[i-1], a, terms[i], b)
			}
		}
	}
	if v, ok := ParseValue(rdf.Literal("1970-01-02T00:00:00Z", rdf.XSDDateTime)); !ok || v.Sec != 86400 {
		t.Errorf("1970-01-02: %v %v", v, ok)
	}
	if NumberKey(math.Copysign(0, -1)) != NumberKey(0) {
		t.Error("-0 and +0 differ")
	}
	for _, bad := range []rdf.Term{rdf.Literal("NaN", rdf.XSDDouble), rdf.Literal("x", rdf.XSDInteger), rdf.String("1"),
		rdf.Literal("2008-03-01T10:00", rdf.XSDDateTime), rdf.Literal("2008-03-01+2:00", rdf.XSDDate)} {
		if v, ok := ParseValue(bad); ok {
			t.Errorf("%v indexed as %v", bad, v)
		}
	}
}

// TestOpenAddsValueIndex makes a store of the format before the value
// index and checks that a read-only opening says it has none and a
// writable one adds it.
func TestOpenAddsValueIndex(t *testing.T) {
	dir := t.TempDir()
	s := openDir(t, dir, defaultHash)
	b := s.NewBatch()
	for i := range 50 {
		b.Add(rdf.Quad{S: rdf.IRI("http://e.org/s"), P: rdf.IRI("http://e.org/p"), O: rdf.Literal(fmt.Sprint(i), rdf.XSDInteger)})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Back to the old format: no value keys, the old format name.
	w := s.kv.NewBatch()
	w.Set(formatKey, []byte(formatNoValues))
	ids, _, err := s.ValueRange(context.Background(), ValueNumber, 0, math.MaxUint64, 1000)
	if err != nil || len(ids) != 50 {
		t.Fatal(len(ids), err)
	}
	for _, id := range ids {
		v, _ := ParseValue(mustTerm(t, s, id))
		w.Delete(valueEntry{ValueNumber, v.Key(), id}.appendKey(nil))
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := pebblekv.Open(dir, pebblekv.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ro, err := newStore(db, dir, defaultHash, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	snap := ro.Snapshot()
	if ro.HasValueIndex() || snap.HasValueIndex() {
		t.Error("an old store opened read-only claims a value index")
	}
	_ = snap.Close()
	if _, _, err := ro.ValueRange(context.Background(), ValueNumber, 0, math.MaxUint64, 10); err == nil {
		t.Error("ValueRange on an old store: no error")
	}
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}

	s = openDir(t, dir, defaultHash)
	defer s.Close()
	if !s.HasValueIndex() {
		t.Fatal("no value index after a writable opening")
	}
	ids, complete, err := s.ValueRange(context.Background(), ValueNumber, NumberKey(10), NumberKey(19.5), 1000)
	if err != nil || !complete || len(ids) != 10 {
		t.Fatalf("after the upgrade: %d ids in [10, 19.5], %v %v", len(ids), complete, err)
	}
	rep, err := s.Check(context.Background())
	if err != nil || !rep.OK() {
		t.Fatalf("check: %v %v", err, rep.Problems)
	}
}

func mustTerm(t *testing.T, s *Store, id ID) rdf.Term {
	t.Helper()
	term, err := s.Term(id)
	if err != nil {
		t.Fatal(err)
	}
	return term
}
