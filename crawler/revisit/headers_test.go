package revisit

import (
	"net/http"
	"testing"
	"time"
)

func captured(etag, lm string) *State {
	return &State{HasDigest: true, ETag: etag, LastModified: lm}
}

func TestConditionalHeaders(t *testing.T) {
	if h := ConditionalHeaders(&State{}); h != nil {
		t.Errorf("no capture: %v", h)
	}
	if h := ConditionalHeaders(captured("", "")); h != nil {
		t.Errorf("no validators: %v", h)
	}
	lm := "Wed, 21 Oct 2015 07:28:00 GMT"
	h := ConditionalHeaders(captured(`"abc"`, lm))
	if h.Get("If-None-Match") != `"abc"` || h.Get("If-Modified-Since") != lm {
		t.Errorf("both validators: %v", h)
	}
	h = ConditionalHeaders(captured("", lm))
	if _, ok := h["If-None-Match"]; ok || h.Get("If-Modified-Since") != lm {
		t.Errorf("date only: %v", h)
	}
}

func TestScheme4(t *testing.T) {
	lm := "Wed, 21 Oct 2015 07:28:00 GMT"
	lm2 := "Thu, 22 Oct 2015 07:28:00 GMT"
	resp := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	for _, c := range []struct {
		name string
		s    *State
		code int
		resp http.Header
		want Prediction
	}{
		{"304", captured(`"a"`, lm), 304, resp(), PredictUnchanged},
		{"no capture", &State{}, 200, resp("ETag", `"a"`), NoPrediction},
		{"no shared indicator", captured(`"a"`, ""), 200, resp("Last-Modified", lm), NoPrediction},
		{"both agree unchanged", captured(`"a"`, lm), 200, resp("ETag", `"a"`, "Last-Modified", lm), PredictUnchanged},
		{"etag same, date differs", captured(`"a"`, lm), 200, resp("ETag", `"a"`, "Last-Modified", lm2), PredictChanged},
		{"etag differs, date same", captured(`"a"`, lm), 200, resp("ETag", `"b"`, "Last-Modified", lm), PredictChanged},
		{"etag alone decides", captured(`"a"`, lm), 200, resp("ETag", `"a"`), PredictUnchanged},
		{"date alone decides", captured("", lm), 200, resp("ETag", `"z"`, "Last-Modified", lm2), PredictChanged},
		{"weak etag compares weakly", captured(`W/"a"`, ""), 200, resp("ETag", `"a"`), PredictUnchanged},
		{"dates compare as instants", captured("", lm), 200, resp("Last-Modified", "Wednesday, 21-Oct-15 07:28:00 GMT"), PredictUnchanged},
		{"unparsable dates compare as text", captured("", "yesterday"), 200, resp("Last-Modified", "today"), PredictChanged},
	} {
		if got := Scheme4(c.s, c.code, c.resp); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestTrust(t *testing.T) {
	var tr Trust
	tr.Record(NoPrediction, Changed)
	tr.Record(PredictChanged, Unknown)
	if tr.Checked != 0 || tr.Ratio() != 0 {
		t.Fatalf("uninformative records counted: %+v", tr)
	}
	for range 19 {
		tr.Record(PredictUnchanged, Unchanged)
	}
	tr.Record(PredictChanged, Unchanged) // wrong, but loses nothing
	if tr.Checked != 20 || tr.Correct != 19 || tr.FalseUnchanged != 0 || tr.Ratio() != 0.95 {
		t.Fatalf("counts: %+v ratio %g", tr, tr.Ratio())
	}
	c := DefaultConfig()
	c.AbortOnHeaders = true
	if !c.MayAbort(PredictUnchanged, tr) || c.MayAbort(PredictChanged, tr) {
		t.Error("MayAbort with a trusted host")
	}
	tr.Record(PredictUnchanged, Changed) // a lost version
	if tr.FalseUnchanged != 1 || tr.Trusted(20, 0.9) || c.MayAbort(PredictUnchanged, tr) {
		t.Errorf("a wrong 'unchanged' must end trust: %+v", tr)
	}
	c.AbortOnHeaders = false
	if c.MayAbort(PredictUnchanged, Trust{Checked: 100, Correct: 100}) {
		t.Error("MayAbort with aborting off")
	}
}

func TestRecordKeepsValidatorsOn304(t *testing.T) {
	var s State
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s.Record(Visit{At: t0, Status: Changed, HasDigest: true, ETag: `"a"`, LastModified: "x"}, Adaptive{}, DefaultEvaluator())
	s.Record(Visit{At: t0.Add(time.Hour), Status: Unchanged, ETag: `"b"`}, Adaptive{}, DefaultEvaluator())
	if s.ETag != `"b"` || s.LastModified != "x" || !s.HasDigest {
		t.Errorf("after a 304 that repeats only the ETag: %q %q", s.ETag, s.LastModified)
	}
	s.Record(Visit{At: t0.Add(2 * time.Hour), Status: Changed, HasDigest: true}, Adaptive{}, DefaultEvaluator())
	if s.ETag != "" || s.LastModified != "" {
		t.Errorf("a new capture without validators kept old ones: %q %q", s.ETag, s.LastModified)
	}
}
