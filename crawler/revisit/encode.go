package revisit

import (
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"math"
	"time"
)

// The binary form of a State, for the frontier's Pebble records: a format
// byte, a flag byte, then varints (times as Unix nanoseconds), the raw
// digest, the validators as length-prefixed strings, the change-rate
// belief (Bins bytes) and the sketch. A record without sketch is about 120
// bytes plus the validators, and does not grow with the visits.
const stateFormat = 2

const (
	flagDigest = 1 << iota
	flagSketch
	flagLastVisit
	flagLastChange
	flagDue
)

// maxSketch bounds the sketch length a record may claim, so a corrupt
// record cannot make the decoder allocate without limit.
const maxSketch = 1024

// MarshalBinary encodes s compactly.
func (s *State) MarshalBinary() ([]byte, error) {
	var flags byte
	if s.HasDigest {
		flags |= flagDigest
	}
	if len(s.Sketch) > 0 {
		flags |= flagSketch
	}
	times := [...]struct {
		t    time.Time
		flag byte
	}{{s.LastVisit, flagLastVisit}, {s.LastChange, flagLastChange}, {s.Due, flagDue}}
	for _, t := range times {
		if !t.t.IsZero() {
			flags |= t.flag
		}
	}
	b := make([]byte, 0, 64+len(s.ETag)+len(s.LastModified)+8*len(s.Sketch))
	b = append(b, stateFormat, flags)
	b = binary.AppendUvarint(b, uint64(s.Visits))
	b = binary.AppendUvarint(b, uint64(s.Versions))
	for _, t := range times {
		if !t.t.IsZero() {
			b = binary.AppendVarint(b, t.t.UnixNano())
		}
	}
	b = binary.AppendVarint(b, int64(s.Wait))
	b = binary.AppendVarint(b, int64(s.Overdue))
	if s.HasDigest {
		b = append(b, s.Digest[:]...)
	}
	b = binary.AppendUvarint(b, uint64(len(s.ETag)))
	b = append(b, s.ETag...)
	b = binary.AppendUvarint(b, uint64(len(s.LastModified)))
	b = append(b, s.LastModified...)
	b = append(b, s.Belief[:]...)
	if len(s.Sketch) > 0 {
		b = binary.AppendUvarint(b, uint64(len(s.Sketch)))
		for _, x := range s.Sketch {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
	}
	return b, nil
}

// UnmarshalBinary decodes a record written by MarshalBinary.
func (s *State) UnmarshalBinary(data []byte) error {
	d := decoder{b: data}
	if len(data) < 2 {
		return fmt.Errorf("revisit: state record of %d bytes, want at least 2", len(data))
	}
	if data[0] != stateFormat {
		return fmt.Errorf("revisit: state record format %d, want %d", data[0], stateFormat)
	}
	flags := data[1]
	d.off = 2
	var r State
	r.Visits = d.uint32("visits")
	r.Versions = d.uint32("versions")
	for _, t := range [...]struct {
		dst  *time.Time
		flag byte
	}{{&r.LastVisit, flagLastVisit}, {&r.LastChange, flagLastChange}, {&r.Due, flagDue}} {
		if flags&t.flag != 0 {
			*t.dst = time.Unix(0, d.varint("time")).UTC()
		}
	}
	r.Wait = time.Duration(d.varint("wait"))
	r.Overdue = time.Duration(d.varint("overdue"))
	if flags&flagDigest != 0 {
		r.HasDigest = true
		copy(r.Digest[:], d.bytes(sha1.Size, "digest"))
	}
	r.ETag = string(d.bytes(d.length(1<<16, "ETag length"), "ETag"))
	r.LastModified = string(d.bytes(d.length(1<<16, "Last-Modified length"), "Last-Modified"))
	copy(r.Belief[:], d.bytes(Bins, "belief"))
	if flags&flagSketch != 0 {
		n := d.length(maxSketch, "sketch length")
		if n == 0 {
			d.fail("sketch length", "0 with the sketch flag set")
		}
		r.Sketch = make([]uint64, n)
		for i := range r.Sketch {
			r.Sketch[i] = d.fixed64("sketch")
		}
	}
	if d.err == nil && d.off != len(data) {
		d.err = fmt.Errorf("revisit: state record has %d bytes after its end at offset %d", len(data)-d.off, d.off)
	}
	if d.err != nil {
		return d.err
	}
	*s = r
	return nil
}

// decoder reads fields in order and keeps the first error, which names the
// field and its offset.
type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) fail(what string, format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("revisit: state record: %s at offset %d: %s", what, d.off, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) uvarint(what string) uint64 { return readVarint(d, what, binary.Uvarint) }

func (d *decoder) varint(what string) int64 { return readVarint(d, what, binary.Varint) }

// readVarint reads one varint with read (binary.Uvarint or binary.Varint).
func readVarint[T uint64 | int64](d *decoder, what string, read func([]byte) (T, int)) T {
	if d.err != nil {
		return 0
	}
	v, n := read(d.b[d.off:])
	if n <= 0 {
		d.fail(what, "truncated or overlong varint")
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) uint32(what string) uint32 {
	v := d.uvarint(what)
	if v > math.MaxUint32 {
		d.fail(what, "%d does not fit 32 bits", v)
		return 0
	}
	return uint32(v)
}

func (d *decoder) length(limit int, what string) int {
	v := d.uvarint(what)
	if v > uint64(limit) {
		d.fail(what, "%d exceeds the limit %d", v, limit)
		return 0
	}
	return int(v)
}

// bytes returns the next n bytes; on error, an empty slice.
func (d *decoder) bytes(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if len(d.b)-d.off < n {
		d.fail(what, "want %d bytes, have %d", n, len(d.b)-d.off)
		return nil
	}
	d.off += n
	return d.b[d.off-n : d.off]
}

func (d *decoder) fixed64(what string) uint64 {
	if b := d.bytes(8, what); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}
