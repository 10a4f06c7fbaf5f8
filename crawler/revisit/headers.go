package revisit

import (
	"net/http"
	"strings"
)

// ConditionalHeaders returns the request headers that let the server answer
// 304 Not Modified when the URL has not changed since the capture recorded
// in s: If-None-Match with its ETag and If-Modified-Since with its
// Last-Modified value, sent verbatim as RFC 9110 §13.1.3 advises. It is
// nil when there is no capture or it had no validators.
func ConditionalHeaders(s *State) http.Header {
	if !s.HasDigest || (s.ETag == "" && s.LastModified == "") {
		return nil
	}
	h := http.Header{}
	if s.ETag != "" {
		h.Set("If-None-Match", s.ETag)
	}
	if s.LastModified != "" {
		h.Set("If-Modified-Since", s.LastModified)
	}
	return h
}

// Prediction is what response headers say about a change before the body
// is read.
type Prediction uint8

const (
	// NoPrediction: the headers cannot tell (no validator to compare).
	NoPrediction Prediction = iota
	// PredictChanged: some validator differs from the last capture's.
	PredictChanged
	// PredictUnchanged: a 304, or every validator that both the capture
	// and the response have is the same.
	PredictUnchanged
)

func (p Prediction) String() string {
	switch p {
	case PredictChanged:
		return "changed"
	case PredictUnchanged:
		return "unchanged"
	}
	return "none"
}

// Scheme4 is the thesis's scheme 4 for predicting change from HTTP headers:
// a 304 response means unchanged; otherwise each indicator (ETag,
// Last-Modified) present in both the last capture s and the response
// votes, and the prediction is "unchanged" only when every vote is (both
// must agree when both are present; one alone decides when it is the only
// one). ETags compare weakly (RFC 9110 §8.8.3.2: a W/ prefix is ignored),
// dates as instants. The crawler may abort a download on PredictUnchanged
// for hosts whose [Trust] is high enough.
func Scheme4(s *State, statusCode int, resp http.Header) Prediction {
	if statusCode == http.StatusNotModified {
		return PredictUnchanged
	}
	if !s.HasDigest {
		return NoPrediction
	}
	votes, same := 0, 0
	if etag := resp.Get("ETag"); etag != "" && s.ETag != "" {
		votes++
		if weakETag(etag) == weakETag(s.ETag) {
			same++
		}
	}
	if lm := resp.Get("Last-Modified"); lm != "" && s.LastModified != "" {
		votes++
		if sameDate(lm, s.LastModified) {
			same++
		}
	}
	switch {
	case votes == 0:
		return NoPrediction
	case same == votes:
		return PredictUnchanged
	}
	return PredictChanged
}

func weakETag(t string) string { return strings.TrimPrefix(strings.TrimSpace(t), "W/") }

// sameDate compares HTTP dates as instants, falling back to the text when
// either does not parse.
func sameDate(a, b string) bool {
	ta, errA := http.ParseTime(a)
	tb, errB := http.ParseTime(b)
	if errA != nil || errB != nil {
		return strings.TrimSpace(a) == strings.TrimSpace(b)
	}
	return ta.Equal(tb)
}

// Trust counts how often a host's headers predicted correctly what the
// digest then found: the per-host figure that decides whether a prediction
// of "unchanged" may skip a download. Predictions of "unchanged" that were
// wrong lose a version, so they are counted apart.
type Trust struct {
	Checked        uint32 // predictions checked against a digest
	Correct        uint32
	FalseUnchanged uint32 // predicted unchanged, content had changed
}

// Record checks prediction p against the status the digest gave. It
// ignores NoPrediction and Unknown status, which say nothing.
func (t *Trust) Record(p Prediction, digest Status) {
	if p == NoPrediction || digest == Unknown {
		return
	}
	t.Checked++
	switch {
	case (p == PredictUnchanged) == (digest == Unchanged):
		t.Correct++
	case p == PredictUnchanged:
		t.FalseUnchanged++
	}
}

// Ratio is the fraction of correct predictions (0 before any).
func (t Trust) Ratio() float64 {
	if t.Checked == 0 {
		return 0
	}
	return float64(t.Correct) / float64(t.Checked)
}

// Trusted reports whether the host's headers have predicted well enough to
// act on: at least minChecked checks, a correct fraction of at least
// minRatio, and no wrong "unchanged" at all.
func (t Trust) Trusted(minChecked uint32, minRatio float64) bool {
	return t.Checked >= minChecked && t.FalseUnchanged == 0 && t.Ratio() >= minRatio
}
