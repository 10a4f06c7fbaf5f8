package graph

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strconv"
	"unsafe"

	"github.com/mneme-archive/mneme/graph/kv"
	"github.com/mneme-archive/mneme/internal/civil"
	"github.com/mneme-archive/mneme/rdf"
)

// The value index orders the numeric and temporal literals of the
// dictionary by value, so that a range filter such as
// FILTER(?d >= "2008-03-01"^^xsd:date && ?d < "2008-04-01"^^xsd:date)
// finds the few literals in the range with one range scan, instead of
// decoding every object of the pattern and testing it. Term IDs are
// hashes and carry no order; this index is the order, kept beside the
// dictionary: one key per indexed term, written with its dictionary
// entry and, like it, never deleted.
//
// Key: 'v' class(1) key(8) id(8), empty value. The key is a monotone
// image of the value: a ≤ b implies key(a) ≤ key(b), never the reverse
// (decimals are rounded to float64, fractions of seconds dropped). A
// range of keys therefore holds every term whose value is in the
// matching range of values, and maybe a few around it: callers still
// test the terms they get, as the filter does.

// ValueClass names a value space the value index orders.
type ValueClass byte

const (
	// ValueNumber: xsd:integer, decimal, float, double and the types
	// derived from integer, compared by numeric value with each other.
	ValueNumber ValueClass = 'n'
	// ValueDateTime: xsd:dateTime, by instant; a value without a time
	// zone is placed as if in UTC.
	ValueDateTime ValueClass = 't'
	// ValueDate: xsd:date, by its starting instant, placed like a
	// dateTime.
	ValueDate ValueClass = 'd'
)

// tagValue starts the keys of the value index.
const tagValue = 'v'

// valueKeyWidth is the length of a value index key.
const valueKeyWidth = 1 + 1 + 8 + 8

// Value is the position of a literal in the value index: its class and
// its value, as a float64 for numbers and as seconds since 1970-01-01
// (UTC, fractions dropped) for dateTimes and dates.
type Value struct {
	Class ValueClass
	Num   float64
	Sec   int64
}

// Key is v's 8-byte ordered key: NumberKey or InstantKey.
func (v Value) Key() uint64 {
	if v.Class == ValueNumber {
		return NumberKey(v.Num)
	}
	return InstantKey(v.Sec)
}

// NumberKey maps f to a key whose unsigned order is the numeric order
// of f (-0 and +0 share one; NaN has none and is never indexed).
func NumberKey(f float64) uint64 {
	if f == 0 {
		f = 0
	}
	b := math.Float64bits(f)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// InstantKey maps seconds to a key whose unsigned order is theirs.
func InstantKey(sec int64) uint64 { return uint64(sec) ^ 1<<63 }

// numericTypes are the datatypes of ValueNumber.
var numericTypes = map[string]bool{}

func init() {
	for _, n := range []string{"integer", "decimal", "float", "double", "nonPositiveInteger", "negativeInteger",
		"long", "int", "short", "byte", "nonNegativeInteger", "unsignedLong", "unsignedInt",
		"unsignedShort", "unsignedByte", "positiveInteger"} {
		numericTypes[rdf.XSDNS+n] = true
	}
}

// ParseValue returns the place of literal t in the value index; ok is
// false for terms the index does not hold (other datatypes, NaN, lexical
// forms that are no number or date). Dates are read by the parser the
// SPARQL engine compares with (civil.ParseDateTime). Numbers may be a
// little more than the XSD lexical spaces (e.g. "1." or hexadecimal
// floats): whatever strconv accepts is placed by the value it reads, and a
// term a SPARQL comparison rejects is filtered out after the scan anyway.
func ParseValue(t rdf.Term) (Value, bool) {
	if t.Kind != rdf.KindLiteral {
		return Value{}, false
	}
	return parseValue(t.Datatype, t.Value)
}

func parseValue(dt, lex string) (Value, bool) {
	switch {
	case dt == rdf.XSDDateTime:
		d, ok := civil.ParseDateTime(lex, false)
		return Value{Class: ValueDateTime, Sec: d.Unix()}, ok
	case dt == rdf.XSDDate:
		d, ok := civil.ParseDateTime(lex, true)
		return Value{Class: ValueDate, Sec: d.Unix()}, ok
	case !numericTypes[dt]:
		return Value{}, false
	}
	var f float64
	switch lex {
	case "INF", "+INF":
		f = math.Inf(1)
	case "-INF":
		f = math.Inf(-1)
	default:
		var err error
		f, err = strconv.ParseFloat(lex, 64)
		var ne *strconv.NumError
		if err != nil && (!errors.As(err, &ne) || ne.Err != strconv.ErrRange) || math.IsNaN(f) {
			return Value{}, false
		}
	}
	if dt == rdf.XSDNS+"float" {
		f = float64(float32(f)) // the value xsd:float holds
	}
	return Value{Class: ValueNumber, Num: f}, true
}

// valueEntry is one key of the value index.
type valueEntry struct {
	class ValueClass
	key   uint64
	id    ID
}

// valueEntryOf returns the value index entry of the term with ID id and
// dictionary encoding enc, ok false when the index does not hold it.
func valueEntryOf(id ID, enc string) (valueEntry, bool) {
	if enc == "" || enc[0] != encTyped {
		return valueEntry{}, false
	}
	n, w := binary.Uvarint([]byte(enc[1:min(len(enc), 1+binary.MaxVarintLen64)]))
	if w <= 0 || uint64(len(enc)-1-w) < n {
		return valueEntry{}, false
	}
	dt := enc[1+w : 1+w+int(n)]
	v, ok := parseValue(dt, enc[1+w+int(n):])
	if !ok {
		return valueEntry{}, false
	}
	return valueEntry{v.Class, v.Key(), id}, true
}

func (e valueEntry) appendKey(dst []byte) []byte {
	dst = append(dst, tagValue, byte(e.class))
	dst = binary.BigEndian.AppendUint64(dst, e.key)
	return binary.BigEndian.AppendUint64(dst, uint64(e.id))
}

// valueEntries returns the value index entries of the pending terms,
// sorted as their keys.
func valueEntries(p *pendingTerms) []valueEntry {
	var es []valueEntry
	for id, enc := range p.all() {
		if e, ok := valueEntryOf(id, unsafe.String(unsafe.SliceData(enc), len(enc))); ok {
			es = append(es, e)
		}
	}
	sortValueEntries(es)
	return es
}

func sortValueEntries(es []valueEntry) {
	slices.SortFunc(es, func(a, b valueEntry) int {
		switch {
		case a.class != b.class:
			return int(a.class) - int(b.class)
		case a.key != b.key:
			if a.key < b.key {
				return -1
			}
			return 1
		case a.id < b.id:
			return -1
		case a.id > b.id:
			return 1
		}
		return 0
	})
}

// ErrNoValueIndex is returned by ValueRange on a store written before
// the value index existed and opened read-only (so not upgraded).
var ErrNoValueIndex = errors.New("the store has no value index (written by an older version; open it once for writing to add one)")

// HasValueIndex reports whether ValueRange can be used.
func (v *View) HasValueIndex() bool { return !v.noValues }

// ValueRange returns the IDs of the indexed terms of class whose keys lie
// in [lo, hi] (see Value.Key), in key order, stopping after limit IDs
// (complete is then false). Every term whose value lies in the range of
// values the keys stand for is among them; a few outside may be too.
func (v *View) ValueRange(ctx context.Context, class ValueClass, lo, hi uint64, limit int) (ids []ID, complete bool, err error) {
	if v.noValues {
		return nil, false, ErrNoValueIndex
	}
	if lo > hi {
		return nil, true, nil
	}
	lower := valueEntry{class, lo, 0}.appendKey(nil)
	upper := valueEntry{class, hi, ^ID(0)}.appendKey(nil)
	upper = append(upper, 0) // inclusive of hi's last key
	it, err := v.r.NewIter(lower, upper)
	if err != nil {
		return nil, false, err
	}
	complete = true
	for ok := it.First(); ok; ok = it.Next() {
		if len(ids) == limit {
			complete = false
			break
		}
		if len(ids)%1024 == 0 {
			if err := ctx.Err(); err != nil {
				_ = it.Close()
				return nil, false, err
			}
		}
		k := it.Key()
		if len(k) != valueKeyWidth {
			_ = it.Close()
			return nil, false, errors.New("value index: bad key length")
		}
		ids = append(ids, ID(binary.BigEndian.Uint64(k[10:])))
	}
	return ids, complete, errors.Join(it.Err(), it.Close())
}

// addValueIndex writes the value index entries of every dictionary term,
// in batches, for a store written before the index existed; the format
// key changes after the last batch, so an interrupted upgrade starts over
// (its keys are written again, harmlessly) at the next Open.
func addValueIndex(db kv.Store) error {
	it, err := db.NewIter([]byte{tagDict}, []byte{tagDict + 1})
	if err != nil {
		return err
	}
	b := db.NewBatch()
	defer func() { b.Close() }()
	key := make([]byte, 0, valueKeyWidth)
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		if len(k) != 9 {
			continue
		}
		e, ok := valueEntryOf(ID(binary.BigEndian.Uint64(k[1:])), string(it.Value()))
		if !ok {
			continue
		}
		b.Set(e.appendKey(key[:0]), nil)
		if b.Len() >= 1<<16 {
			if err := b.Commit(); err != nil {
				_ = it.Close()
				return err
			}
			b.Close()
			b = db.NewBatch()
		}
	}
	if err := errors.Join(it.Err(), it.Close()); err != nil {
		return err
	}
	b.Set(formatKey, []byte(formatValue))
	return b.Commit()
}
