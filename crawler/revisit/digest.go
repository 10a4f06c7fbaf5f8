package revisit

import (
	"crypto/sha1"
	"regexp"
)

// StripRule removes volatile sections (dates, counters, session tokens,
// ads) from the content of matching URLs before it is digested, so they do
// not count as changes. It mirrors Heritrix's HTTPContentDigest.
type StripRule struct {
	URL   *regexp.Regexp   // URLs the rule applies to (a host is a URL pattern); nil: every URL
	Strip []*regexp.Regexp // each match is removed
	// MaxSize skips stripping for larger content, which is then digested
	// as is: regular expressions over huge bodies cost more than the
	// occasional spurious change. 0 means DefaultStripMaxSize.
	MaxSize int
}

// DefaultStripMaxSize is Heritrix's default limit for stripping (1 MiB).
const DefaultStripMaxSize = 1 << 20

// FuzzyRule turns on "close enough" comparison for matching URLs: content
// whose shingle resemblance to the last capture is at least Threshold is
// Unchanged. Off by default: an archive wants every version, and the
// thesis keeps strict comparison as the default for that reason.
type FuzzyRule struct {
	URL       *regexp.Regexp // nil: every URL
	Threshold float64        // resemblance in [0, 1], e.g. 0.95
}

// Detector decides whether fetched content changed since the last capture.
// The first matching rule of each list applies.
type Detector struct {
	Strip []StripRule
	Fuzzy []FuzzyRule
}

// Compare digests body (after stripping) and compares it with the last
// capture recorded in s, returning the Visit fields for [State.Record]
// (the caller adds the time and validators). Without a previous capture the
// content is a new version (Changed).
func (d *Detector) Compare(s *State, url string, body []byte) Visit {
	content := d.stripped(url, body)
	v := Visit{Status: Changed, HasDigest: true, Digest: sha1.Sum(content)}
	var fuzzy *FuzzyRule
	for i := range d.Fuzzy {
		if r := &d.Fuzzy[i]; r.URL == nil || r.URL.MatchString(url) {
			fuzzy = r
			break
		}
	}
	if fuzzy != nil {
		v.Sketch = Sketch(content)
	}
	switch {
	case !s.HasDigest:
	case s.Digest == v.Digest:
		v.Status = Unchanged
	case fuzzy != nil && s.Sketch != nil && Resemblance(s.Sketch, v.Sketch) >= fuzzy.Threshold:
		// Close enough: keep the stored capture as the reference, so slow
		// drift accumulates into a change instead of hiding forever.
		v.Status, v.Digest, v.Sketch = Unchanged, s.Digest, s.Sketch
	}
	return v
}

// Digest returns the SHA-1 of body after the strip rules for url.
func (d *Detector) Digest(url string, body []byte) [sha1.Size]byte {
	return sha1.Sum(d.stripped(url, body))
}

func (d *Detector) stripped(url string, body []byte) []byte {
	for _, r := range d.Strip {
		if r.URL != nil && !r.URL.MatchString(url) {
			continue
		}
		limit := r.MaxSize
		if limit <= 0 {
			limit = DefaultStripMaxSize
		}
		if len(body) > limit {
			return body
		}
		for _, re := range r.Strip {
			body = re.ReplaceAllLiteral(body, nil)
		}
		return body
	}
	return body
}
