package revisit

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func TestRecordAndAnnotation(t *testing.T) {
	ev := DefaultEvaluator()
	ev.Initial = 45 * time.Second
	ev.Min = time.Second
	s := State{Due: t0} // discovered at t0
	s.Record(Visit{At: t0.Add(3 * time.Millisecond), Status: Changed, HasDigest: true}, Adaptive{}, ev)
	if got := Annotation(&s); got != "wt:45s0ms,1vis,1ver,ov:3ms" {
		t.Errorf("first visit: %s", got)
	}
	at := s.Due.Add(2 * time.Second)
	s.Record(Visit{At: at, Status: Unchanged}, Adaptive{}, ev)
	if s.Wait != 67500*time.Millisecond || s.Overdue != 2*time.Second || s.Visits != 2 || s.Versions != 1 {
		t.Errorf("second visit: %+v", s)
	}
	if got := Annotation(&s); got != "wt:1m7s500ms,2vis,1ver,ov:2s0ms" {
		t.Errorf("second visit: %s", got)
	}
	if !s.Due.Equal(at.Add(s.Wait)) || !s.LastVisit.Equal(at) || !s.LastChange.Equal(t0.Add(3*time.Millisecond)) {
		t.Errorf("times: due %v last %v change %v", s.Due, s.LastVisit, s.LastChange)
	}
	// Unknown status: default wait, no new version.
	s.Record(Visit{At: s.Due, Status: Unknown}, Adaptive{}, ev)
	if s.Wait != ev.Default || s.Versions != 1 || s.Overdue != 0 {
		t.Errorf("unknown: %+v", s)
	}
}

// The policy hears the time since the previous visit (0 for the first).
func TestRecordPassesInterval(t *testing.T) {
	var got []time.Duration
	p := policyFunc(func(_ *State, since time.Duration, _ Status, _ Evaluator) time.Duration {
		got = append(got, since)
		return time.Hour
	})
	var s State
	for _, at := range []time.Duration{0, time.Hour, 3 * time.Hour} {
		s.Record(Visit{At: t0.Add(at), Status: Changed, HasDigest: true}, p, DefaultEvaluator())
	}
	if want := []time.Duration{0, time.Hour, 2 * time.Hour}; !reflect.DeepEqual(got, want) {
		t.Errorf("intervals %v, want %v", got, want)
	}
}

type policyFunc func(*State, time.Duration, Status, Evaluator) time.Duration

func (policyFunc) Name() string { return "func" }
func (f policyFunc) Wait(s *State, since time.Duration, st Status, ev Evaluator) time.Duration {
	return f(s, since, st, ev)
}

func TestConventionalFormat(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                              "0ms",
		3 * time.Millisecond:           "3ms",
		time.Second:                    "1000ms", // Heritrix's strict "more than one unit"
		45 * time.Second:               "45s0ms",
		time.Minute:                    "60s0ms",
		90*time.Minute + 2*time.Second: "1h30m2s0ms",
		90*time.Minute + time.Second:   "1h30m1000ms",
		36 * time.Hour:                 "1d12h0ms",
		28 * 24 * time.Hour:            "28d0ms",
		-1500 * time.Millisecond:       "-1s500ms",
	} {
		if got := string(appendConventional(nil, d)); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}

func sample() State {
	s := State{
		Visits: 7, Versions: 3,
		LastVisit: t0.Add(5 * time.Hour), LastChange: t0.Add(time.Hour), Due: t0.Add(9 * time.Hour),
		Wait: 4 * time.Hour, Overdue: 1234 * time.Millisecond,
		HasDigest: true, ETag: `W/"xyz"`, LastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
		Sketch: []uint64{1, 1 << 40, 1<<64 - 1},
	}
	for i := range s.Digest {
		s.Digest[i] = byte(i * 7)
	}
	for i := range s.Belief {
		s.Belief[i] = byte(i * i)
	}
	return s
}

func TestStateRoundTrip(t *testing.T) {
	for _, s := range []State{{}, {Due: t0}, sample()} {
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got State
		if err := got.UnmarshalBinary(b); err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, s)
		}
	}
	s := sample()
	s.Sketch = nil
	b, _ := s.MarshalBinary()
	if len(b) > 256 {
		t.Errorf("a full record without sketch takes %d bytes", len(b))
	}
}

func TestStateDecodeErrors(t *testing.T) {
	s := sample()
	good, _ := s.MarshalBinary()
	for _, c := range []struct {
		data []byte
		want string
	}{
		{nil, "at least 2"},
		{[]byte{9, 0}, "format 9"},
		{good[:len(good)-3], "sketch"},
		{good[:30], "offset"},
		{append(append([]byte{}, good...), 0), "after its end"},
		{[]byte{stateFormat, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, "visits"},
		{[]byte{stateFormat, 0, 0x80, 0x80, 0x80, 0x80, 0x10}, "does not fit 32 bits"},
	} {
		var got State
		err := got.UnmarshalBinary(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("% x: %v, want an error mentioning %q", c.data, err, c.want)
		}
	}
}

func FuzzStateDecode(f *testing.F) {
	s := sample()
	b, _ := s.MarshalBinary()
	f.Add(b)
	f.Add([]byte{stateFormat, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var s State
		if s.UnmarshalBinary(data) != nil {
			return
		}
		// What decodes re-encodes to a record that decodes the same.
		again, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var s2 State
		if err := s2.UnmarshalBinary(again); err != nil || !reflect.DeepEqual(s, s2) {
			t.Fatalf("re-encode: %v\n%+v\n%+v", err, s, s2)
		}
	})
}

func TestConfig(t *testing.T) {
	c := DefaultConfig()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if !c.RevisitEmbeds(Changed) || c.RevisitEmbeds(Unchanged) || c.RevisitEmbeds(Unknown) {
		t.Error("embeds follow a changed page only")
	}
	c.EmbedsWithPage = false
	if c.RevisitEmbeds(Changed) {
		t.Error("embeds revisited with the option off")
	}
	c.Policy = "uniform"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "policy") {
		t.Errorf("uniform is a baseline, not a crawl policy: %v", err)
	}
}
