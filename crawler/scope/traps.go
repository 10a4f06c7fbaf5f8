package scope

import (
	"fmt"
	"strings"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// limits applies the hop, depth and trap rules to an in-scope URL.
func (s *Scope) limits(u canon.URL, hopPath string, v verdict) (Decision, bool) {
	c := s.cfg
	if n := strings.Count(hopPath, "L") + strings.Count(hopPath, "R"); c.MaxHops > 0 && n > c.MaxHops {
		return v.reject("max-hops", func() string {
			return fmt.Sprintf("max-hops %d exceeded (%d link and redirect hops)", c.MaxHops, n)
		}), true
	}
	if n := len(hopPath) - len(strings.TrimRight(hopPath, "R")); c.MaxRedirects > 0 && n > c.MaxRedirects {
		return v.reject("max-redirects", func() string {
			return fmt.Sprintf("max-redirects %d exceeded (%d redirects in a row)", c.MaxRedirects, n)
		}), true
	}
	var buf [24]string
	segs := segments(u.Path, buf[:0])
	if c.MaxPathDepth > 0 && len(segs) > c.MaxPathDepth {
		return v.reject("max-path-depth", func() string {
			return fmt.Sprintf("max-path-depth %d exceeded (%d segments)", c.MaxPathDepth, len(segs))
		}), true
	}
	if c.MaxRepeats > 0 {
		if run, n := repeatedRun(segs, c.MaxRepeats); n > 0 {
			return v.reject("repeated-segments", func() string {
				return fmt.Sprintf("path run %q repeats %d times back to back (max %d)", run, n, c.MaxRepeats)
			}), true
		}
	}
	if c.MaxSegmentCount > 0 && len(segs) > c.MaxSegmentCount {
		if seg, ok := overused(segs, c.MaxSegmentCount); ok {
			return v.reject("segment-count", func() string {
				return fmt.Sprintf("path segment %q occurs more than %d times", seg, c.MaxSegmentCount)
			}), true
		}
	}
	if c.MaxQueryParams > 0 && u.Query != "" {
		if n := countParams(u.Query); n > c.MaxQueryParams {
			return v.reject("max-query-params", func() string {
				return fmt.Sprintf("max-query-params %d exceeded (%d parameters)", c.MaxQueryParams, n)
			}), true
		}
	}
	if lo, hi := c.CalendarYears[0], c.CalendarYears[1]; lo > 0 && hi > 0 {
		if y, ok := calendarYear(u.Path + "?" + u.Query); ok && (y < lo || y > hi) {
			return v.reject("calendar-trap", func() string {
				return fmt.Sprintf("dated %d, outside the calendar years %d-%d", y, lo, hi)
			}), true
		}
	}
	return Decision{}, false
}

// segments appends the segments of "/a/b/" (["a", "b"]) to dst; inner
// empty segments ("a//b") are kept, as repeating them is a trap of its
// own.
func segments(path string, dst []string) []string {
	path = strings.TrimPrefix(path, "/")
	path = strings.TrimSuffix(path, "/")
	if path == "" {
		return dst
	}
	for {
		seg, rest, more := strings.Cut(path, "/")
		dst = append(dst, seg)
		if !more {
			return dst
		}
		path = rest
	}
}

// overused finds a segment occurring more than max times. Paths are short:
// counting by comparison needs no map.
func overused(segs []string, max int) (string, bool) {
	for i, seg := range segs {
		n := 1
		for _, other := range segs[i+1:] {
			if other == seg {
				n++
			}
		}
		if n > max {
			return seg, true
		}
	}
	return "", false
}

// repeatedRun finds a run of 1 to 3 segments occurring more than max times
// back to back, the signature of relative links that resolve against
// themselves (Heritrix's PathologicalPathDecideRule checks single segments
// only; this also catches "/a/b/a/b/a/b").
func repeatedRun(segs []string, max int) (string, int) {
	for k := 1; k <= 3; k++ {
		for i := 0; i+k*(max+1) <= len(segs); i++ {
			n := 1
			for j := i + k; j+k <= len(segs) && equalRun(segs, i, j, k); j += k {
				n++
			}
			if n > max {
				return strings.Join(segs[i:i+k], "/"), n
			}
		}
	}
	return "", 0
}

func equalRun(segs []string, i, j, k int) bool {
	for d := 0; d < k; d++ {
		if segs[i+d] != segs[j+d] {
			return false
		}
	}
	return true
}

// countParams counts the non-empty "&"-separated parameters of q.
func countParams(q string) int {
	n := 0
	for q != "" {
		p, rest, _ := strings.Cut(q, "&")
		if p != "" {
			n++
		}
		q = rest
	}
	return n
}

// calendarYear finds the year of the first date in s: "YYYY-MM", "YYYY/MM",
// "YYYY_MM" or "YYYY.MM" with a valid month, a compact "YYYYMMDD", or a
// "year=YYYY" parameter. Bare four-digit numbers are not dates: they are
// as often product or page ids.
func calendarYear(s string) (int, bool) {
	lower := strings.ToLower(s)
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || i > 0 && isDigit(s[i-1]) {
			continue
		}
		n := i
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		digits := s[i:n]
		switch {
		case len(digits) == 8 && validMonth(digits[4:6]) && digits[6:8] >= "01" && digits[6:8] <= "31":
			return atoi(digits[:4]), true
		case len(digits) == 4 && n+3 <= len(s) && strings.IndexByte("-/_.", s[n]) >= 0 &&
			isDigit(s[n+1]) && isDigit(s[n+2]) && (n+3 == len(s) || !isDigit(s[n+3])) && validMonth(s[n+1:n+3]):
			return atoi(digits), true
		case len(digits) == 4 && strings.HasSuffix(lower[:i], "year="):
			return atoi(digits), true
		}
		i = n
	}
	return 0, false
}

func validMonth(mm string) bool { return mm >= "01" && mm <= "12" }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }

func atoi(digits string) int {
	n := 0
	for i := 0; i < len(digits); i++ {
		n = n*10 + int(digits[i]-'0')
	}
	return n
}
