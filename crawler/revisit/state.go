package revisit

import (
	"crypto/sha1"
	"time"
)

// Status is what a visit found out about a URL's content.
type Status uint8

const (
	// Unknown: the visit could not tell (no content to compare).
	Unknown Status = iota
	// Changed: the content differs from the last capture. A first capture
	// is Changed: it is a new version.
	Changed
	// Unchanged: the content is the same as the last capture (or a 304).
	Unchanged
)

func (s Status) String() string {
	switch s {
	case Changed:
		return "changed"
	case Unchanged:
		return "unchanged"
	}
	return "unknown"
}

// State is everything the crawler remembers about one URL between visits.
// The frontier stores it (see [State.MarshalBinary]) and hands it back with
// the URL when the URL is due.
type State struct {
	Visits   uint32 // successful visits
	Versions uint32 // distinct versions captured (the first capture is one)

	LastVisit  time.Time // time of the last visit (zero: never visited)
	LastChange time.Time // time of the last visit that found a change
	Due        time.Time // time of next processing
	Wait       time.Duration
	Overdue    time.Duration // how late the last visit was against its due time

	HasDigest    bool
	Digest       [sha1.Size]byte // of the last capture, after stripping
	ETag         string          // validators of the last capture
	LastModified string
	Sketch       []uint64 // shingle sketch of the last capture, when close-enough comparison is on

	Belief Belief // what the visits say about the change rate (Poisson policy)
}

// Visit is what one fetch of a URL produced.
type Visit struct {
	At     time.Time
	Status Status
	// Digest and Sketch are those of the content fetched; HasDigest is
	// false when no content was downloaded (e.g. a 304), and the previous
	// capture's digest is kept.
	HasDigest    bool
	Digest       [sha1.Size]byte
	Sketch       []uint64
	ETag         string
	LastModified string
}

// Record updates s with visit v and schedules the next one: p decides the
// wait, with the evaluator ev chosen for the URL's content type and host.
func (s *State) Record(v Visit, p Policy, ev Evaluator) {
	if !s.Due.IsZero() {
		s.Overdue = max(0, v.At.Sub(s.Due))
	}
	var since time.Duration
	if s.Visits > 0 {
		since = max(0, v.At.Sub(s.LastVisit))
	}
	s.Visits++
	if v.Status == Changed {
		s.Versions++
		s.LastChange = v.At
	}
	if v.HasDigest {
		// A new capture: its validators replace the old ones, even empty.
		s.HasDigest, s.Digest, s.Sketch = true, v.Digest, v.Sketch
		s.ETag, s.LastModified = v.ETag, v.LastModified
	} else {
		// A 304 may refresh the validators it repeats.
		if v.ETag != "" {
			s.ETag = v.ETag
		}
		if v.LastModified != "" {
			s.LastModified = v.LastModified
		}
	}
	s.LastVisit = v.At
	s.Wait = p.Wait(s, since, v.Status, ev)
	s.Due = v.At.Add(s.Wait)
}
