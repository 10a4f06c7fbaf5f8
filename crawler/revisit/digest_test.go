package revisit

import (
	"crypto/sha1"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func TestDetectorStrict(t *testing.T) {
	var d Detector
	var s State
	v := d.Compare(&s, "http://a.example/", []byte("hello"))
	if v.Status != Changed || !v.HasDigest || v.Digest != sha1.Sum([]byte("hello")) || v.Sketch != nil {
		t.Fatalf("first capture: %+v", v)
	}
	s.Record(v, Adaptive{}, DefaultEvaluator())
	if v := d.Compare(&s, "http://a.example/", []byte("hello")); v.Status != Unchanged {
		t.Errorf("same content: %v", v.Status)
	}
	if v := d.Compare(&s, "http://a.example/", []byte("hello!")); v.Status != Changed {
		t.Errorf("one byte more: %v", v.Status)
	}
}

func TestDetectorStripRules(t *testing.T) {
	d := Detector{Strip: []StripRule{
		{URL: regexp.MustCompile(`^https?://news\.example/`), Strip: []*regexp.Regexp{
			regexp.MustCompile(`<span class="clock">[^<]*</span>`),
			regexp.MustCompile(`visitors: \d+`),
		}, MaxSize: 200},
	}}
	page := func(clock string, visitors int, body string) []byte {
		return fmt.Appendf(nil, `<p>%s</p><span class="clock">%s</span> visitors: %d`, body, clock, visitors)
	}
	url := "http://news.example/front"
	var s State
	s.Record(d.Compare(&s, url, page("10:00", 5, "story")), Adaptive{}, DefaultEvaluator())
	if v := d.Compare(&s, url, page("10:05", 9, "story")); v.Status != Unchanged {
		t.Errorf("only volatile parts differ: %v", v.Status)
	}
	if v := d.Compare(&s, url, page("10:05", 9, "new story")); v.Status != Changed {
		t.Errorf("real change: %v", v.Status)
	}
	if d.Digest(url, page("1", 1, "x")) != d.Digest(url, page("2", 2, "x")) {
		t.Error("Digest does not strip")
	}
	// Another host: no stripping, so the clock counts.
	other := "http://other.example/"
	if d.Digest(other, page("1", 1, "x")) == d.Digest(other, page("2", 1, "x")) {
		t.Error("rule applied to a URL it does not match")
	}
	// Over the size cap: digested as is.
	big := strings.Repeat("z", 300)
	if d.Digest(url, page("1", 1, big)) == d.Digest(url, page("2", 1, big)) {
		t.Error("content over MaxSize was stripped")
	}
	if d.Digest(url, page("1", 1, big)) != sha1.Sum(page("1", 1, big)) {
		t.Error("content over MaxSize: digest is not of the raw content")
	}
}

func words(n, from int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "word%d ", from+i)
	}
	return []byte(b.String())
}

func TestShingleResemblance(t *testing.T) {
	a := Sketch(words(1000, 0))
	if len(a) != sketchSize {
		t.Fatalf("sketch of 1000 words has %d hashes", len(a))
	}
	if r := Resemblance(a, a); r != 1 {
		t.Errorf("self resemblance %g", r)
	}
	if r := Resemblance(a, Sketch(words(1000, 5000))); r > 0.05 {
		t.Errorf("disjoint documents: %g", r)
	}
	// Half the shingles shared: true resemblance 1/3.
	if r := Resemblance(a, Sketch(words(1000, 500))); r < 0.15 || r > 0.5 {
		t.Errorf("half overlap: %g, want about 1/3", r)
	}
	if r := Resemblance(nil, nil); r != 1 {
		t.Errorf("two empty documents: %g", r)
	}
	if r := Resemblance(Sketch([]byte("a b")), nil); r != 0 {
		t.Errorf("empty against non-empty: %g", r)
	}
}

func TestDetectorCloseEnough(t *testing.T) {
	d := Detector{Fuzzy: []FuzzyRule{{URL: regexp.MustCompile(`^http://blog\.example/`), Threshold: 0.9}}}
	url := "http://blog.example/post"
	base := words(2000, 0)
	var s State
	first := d.Compare(&s, url, base)
	if first.Sketch == nil {
		t.Fatal("fuzzy rule did not sketch")
	}
	s.Record(first, Adaptive{}, DefaultEvaluator())
	edited := append([]byte("one small edit "), base...)
	v := d.Compare(&s, url, edited)
	if v.Status != Unchanged || v.Digest != s.Digest {
		t.Errorf("small edit: %v (digest kept: %v)", v.Status, v.Digest == s.Digest)
	}
	if v := d.Compare(&s, url, words(2000, 1000)); v.Status != Changed {
		t.Errorf("half rewritten: %v", v.Status)
	}
	// Strict elsewhere.
	var s2 State
	s2.Record(d.Compare(&s2, "http://strict.example/", base), Adaptive{}, DefaultEvaluator())
	if v := d.Compare(&s2, "http://strict.example/", edited); v.Status != Changed {
		t.Errorf("strict host, small edit: %v", v.Status)
	}
}
