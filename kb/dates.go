package kb

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
	"unicode"

	dps "github.com/markusmobius/go-dateparser"
	"github.com/markusmobius/go-dateparser/date"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// dateLanguages are the languages go-dateparser tries on a date ParseDate
// cannot read: naming them keeps a failed parse near a millisecond
// (automatic detection over its 200 locales takes tens).
var dateLanguages = []string{"en", "de", "fr", "es", "it", "nl", "pt", "ru", "pl", "sv", "fi", "da", "nb", "cs", "tr", "uk", "ja", "zh"}

// ParseDateAt reads a date as ParseDate does and, failing that, with
// go-dateparser: localised month and weekday names in many languages and
// dates relative to now, the capture time ("2 hours ago", "vor 3 Tagen",
// "yesterday at 10:20", "Sunday at 3:15 PM"). With a zero now, relative
// dates are not read. A time of day alone is read as that time on now's
// day.
func ParseDateAt(s string, now time.Time) (time.Time, bool) {
	if t, ok := ParseDate(s); ok {
		return t, true
	}
	s = strings.TrimSpace(s)
	if !dateLike(s) {
		return time.Time{}, false
	}
	cfg := &dps.Configuration{
		Languages:       dateLanguages,
		DefaultTimezone: time.UTC,
		CurrentTime:     now,
		// Incomplete dates take the capture's day, not the day after.
		PreferredDateSource: dps.Past,
		ReturnTimeAsPeriod:  true,
	}
	if now.IsZero() {
		// Read the date against two times: one that moves with them is
		// relative ("Sunday 8th March", "2 days ago") and unknown.
		a, okA := parseLib(cfg, s, refTimes[0])
		b, okB := parseLib(cfg, s, refTimes[1])
		if !okA || !okB || !a.Equal(b) {
			return time.Time{}, false
		}
		return a, true
	}
	return parseLib(cfg, s, now)
}

var refTimes = [2]time.Time{time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2013, 7, 1, 0, 0, 0, 0, time.UTC)}

func parseLib(cfg *dps.Configuration, s string, now time.Time) (time.Time, bool) {
	c := *cfg
	c.CurrentTime = now
	d, err := dps.Parse(&c, s)
	if err != nil || d.IsZero() || d.Period == date.Month || d.Period == date.Year {
		return time.Time{}, false // no day: "Joined Jan 2010"
	}
	return d.Time.UTC(), true
}

// RelativeDate reports a date that can be read only against the capture
// time ("2 hours ago", "Sunday 8th March"): one ParseDateAt reads with a
// capture time and not without.
func RelativeDate(s string) bool {
	if _, ok := ParseDateAt(s, time.Time{}); ok {
		return false
	}
	_, ok := ParseDateAt(s, refTimes[1])
	return ok
}

// dateLike is a cheap test that s could be a date go-dateparser reads:
// short, a few words, with a digit or a word of the relative dates the
// forums show without one ("yesterday", "gestern", "hier", "ayer").
func dateLike(s string) bool {
	if len(s) < 3 || len(s) > 64 || len(strings.Fields(s)) > 8 {
		return false
	}
	if strings.ContainsFunc(s, unicode.IsDigit) {
		return strings.ContainsFunc(s, unicode.IsLetter) || strings.Contains(s, ":")
	}
	l := strings.ToLower(s)
	for _, w := range []string{"yesterday", "today", "just now", "gestern", "heute", "hier", "aujourd", "ayer", "hoy", "ieri", "oggi", "gisteren", "vandaag", "вчера", "сегодня", "ontem", "hoje", "wczoraj", "dzisiaj", "igår", "idag", "eilen", "tänään"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// CaptureTime is when doc was fetched, from its Date header; zero when
// it has none.
func CaptureTime(doc *vdoc.Doc) time.Time {
	if doc == nil || doc.Header == nil {
		return time.Time{}
	}
	t, err := http.ParseTime(doc.Header.Get("Date"))
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// PageDate is the publication date a page states in machine-readable
// form: JSON-LD (datePublished, dateCreated), microdata
// (itemprop=datePublished), Open Graph and Dublin Core meta tags, then the
// first <time datetime> of an article; zero when none.
func PageDate(doc *vdoc.Doc) time.Time {
	var found time.Time
	var meta, micro, timeEl time.Time
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		if n.Type == html.ElementNode {
			switch {
			case n.DataAtom == atom.Script && attr(n, "type") == "application/ld+json" && n.FirstChild != nil:
				if t := jsonLDDate(n.FirstChild.Data); !t.IsZero() {
					found = t
					return true
				}
				return false
			case n.DataAtom == atom.Meta && meta.IsZero():
				switch strings.ToLower(attr(n, "property") + attr(n, "name")) {
				case "article:published_time", "dc.date", "dcterms.created", "dc.date.issued", "date", "pubdate":
					if t, ok := ParseDate(attr(n, "content")); ok {
						meta = t
					}
				}
			}
			if ip := attr(n, "itemprop"); (ip == "datePublished" || ip == "dateCreated") && micro.IsZero() {
				for _, a := range []string{"datetime", "content"} {
					if t, ok := ParseDate(attr(n, a)); ok {
						micro = t
						break
					}
				}
			}
			if n.DataAtom == atom.Time && timeEl.IsZero() {
				if t, ok := ParseDate(attr(n, "datetime")); ok {
					timeEl = t
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				return true
			}
		}
		return false
	}
	walk(doc.Root)
	for _, t := range []time.Time{found, micro, meta, timeEl} {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// jsonLDDate finds datePublished (else dateCreated) in a JSON-LD block,
// in its top object, a @graph or a list.
func jsonLDDate(src string) time.Time {
	var v any
	if json.Unmarshal([]byte(src), &v) != nil {
		return time.Time{}
	}
	var find func(v any, depth int) time.Time
	find = func(v any, depth int) time.Time {
		if depth > 4 {
			return time.Time{}
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range []string{"datePublished", "dateCreated"} {
				if s, ok := x[k].(string); ok {
					if t, ok := ParseDate(s); ok {
						return t
					}
				}
			}
			for _, k := range []string{"@graph", "mainEntity"} {
				if t := find(x[k], depth+1); !t.IsZero() {
					return t
				}
			}
		case []any:
			for _, e := range x {
				if t := find(e, depth+1); !t.IsZero() {
					return t
				}
			}
		}
		return time.Time{}
	}
	return find(v, 0)
}
