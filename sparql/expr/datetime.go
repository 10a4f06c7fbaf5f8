package expr

import (
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/internal/civil"
	"github.com/mneme-archive/mneme/rdf"
)

// dateTime is a parsed xsd:dateTime (or xsd:date, with a zero time), the
// form the store's value index reads too.
type dateTime struct{ civil.DateTime }

func parseDateTime(s string, date bool) (dateTime, bool) {
	d, ok := civil.ParseDateTime(s, date)
	return dateTime{d}, ok
}

// minutes returns the instant in minutes since the epoch, reading a
// missing timezone as offset (in minutes).
func (d dateTime) minutes(offset int) int64 {
	if d.HasTZ {
		offset = d.TZ
	}
	return civil.Days(d.Year, int64(d.Month), int64(d.Day))*1440 + int64(d.Hour*60+d.Minute) - int64(offset)
}

// cmpInstant compares at the given offsets for timezone-less values.
func cmpInstant(a, b dateTime, offA, offB int) int {
	ma, mb := a.minutes(offA), b.minutes(offB)
	switch {
	case ma != mb:
		return cmpInt64(ma, mb)
	case a.Sec != b.Sec:
		return cmpInt64(int64(a.Sec), int64(b.Sec))
	}
	return strings.Compare(a.Frac, b.Frac) // trimmed fraction digits compare as strings
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpDateTime orders two dateTimes as XSD §3.2.7.4 does; indeterminate
// is true when exactly one has a timezone and the 14-hour window of
// possible offsets leaves the order open.
func cmpDateTime(a, b dateTime) (c int, indeterminate bool) {
	if a.HasTZ == b.HasTZ {
		return cmpInstant(a, b, 0, 0), false
	}
	const w = 14 * 60
	if !a.HasTZ {
		c, ind := cmpDateTime(b, a)
		return -c, ind
	}
	// a has a timezone, b has none: b lies somewhere in [b-14h, b+14h].
	if cmpInstant(a, b, 0, w) < 0 {
		return -1, false
	}
	if cmpInstant(a, b, 0, -w) > 0 {
		return 1, false
	}
	return 0, true
}

// seconds returns the seconds field with its fraction as a decimal.
func (d dateTime) seconds() number {
	s := strconv.Itoa(d.Sec)
	if d.Frac != "" {
		s += "." + d.Frac
	}
	r, _ := new(big.Rat).SetString(s)
	return decNum(r)
}

// timezone returns TIMEZONE's xsd:dayTimeDuration ("PT0S", "-PT5H30M").
func (d dateTime) timezone() rdf.Term {
	tz := d.TZ
	var b strings.Builder
	if tz < 0 {
		b.WriteByte('-')
		tz = -tz
	}
	b.WriteString("PT")
	if tz == 0 {
		b.WriteString("0S")
	}
	if h := tz / 60; h > 0 {
		b.WriteString(strconv.Itoa(h) + "H")
	}
	if m := tz % 60; m > 0 {
		b.WriteString(strconv.Itoa(m) + "M")
	}
	return rdf.Literal(b.String(), xsdDayTimeDuration)
}

// tzString returns TZ's form: "Z", "+05:30", "-08:00", or "".
func (d dateTime) tzString() string {
	if !d.HasTZ {
		return ""
	}
	if d.TZ == 0 {
		return "Z"
	}
	tz, sign := d.TZ, byte('+')
	if tz < 0 {
		tz, sign = -tz, '-'
	}
	return string([]byte{sign, byte('0' + tz/600), byte('0' + tz/60%10), ':', byte('0' + tz%60/10), byte('0' + tz%10)})
}

// nowTerm formats the query time for NOW() with nanoseconds trimmed.
func nowTerm(t time.Time) rdf.Term {
	s := t.Format("2006-01-02T15:04:05.999999999Z07:00")
	return rdf.Literal(s, rdf.XSDDateTime)
}
