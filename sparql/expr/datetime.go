package expr

import (
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/internal/civil"
	"github.com/mneme-archive/mneme/rdf"
)

// dateTime is a parsed xsd:dateTime (or xsd:date, with a zero time).
// Fractional seconds keep all their digits as written, without trailing
// zeros, so that comparisons and SECONDS are exact.
type dateTime struct {
	year                          int64
	month, day, hour, minute, sec int
	frac                          string
	tz                            int // offset in minutes when hasTZ
	hasTZ                         bool
}

// maxYear keeps the day arithmetic far from int64 overflow; years beyond
// it are treated as ill-formed.
const maxYear = 1_000_000_000

// parseDateTime reads the xsd:dateTime lexical form
// -?YYYY-MM-DDThh:mm:ss(.s+)?(Z|(+|-)hh:mm)?; with date set, the xsd:date
// form -?YYYY-MM-DD(Z|(+|-)hh:mm)?.
func parseDateTime(s string, date bool) (dateTime, bool) {
	var d dateTime
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i < 4 || i > 4 && s[0] == '0' || i > 10 {
		return d, false
	}
	y, _ := strconv.ParseInt(s[:i], 10, 64)
	if y > maxYear || y == 0 && neg {
		return d, false
	}
	if neg {
		y = -y
	}
	d.year = y
	s = s[i:]
	var ok bool
	if d.month, s, ok = field(s, '-', 1, 12); !ok {
		return d, false
	}
	if d.day, s, ok = field(s, '-', 1, 31); !ok || d.day > daysIn(d.year, d.month) {
		return d, false
	}
	if !date {
		if d.hour, s, ok = field(s, 'T', 0, 24); !ok {
			return d, false
		}
		if d.minute, s, ok = field(s, ':', 0, 59); !ok {
			return d, false
		}
		if d.sec, s, ok = field(s, ':', 0, 59); !ok {
			return d, false
		}
		if strings.HasPrefix(s, ".") {
			j := 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j == 1 {
				return d, false
			}
			d.frac = strings.TrimRight(s[1:j], "0")
			s = s[j:]
		}
		if d.hour == 24 {
			if d.minute != 0 || d.sec != 0 || d.frac != "" {
				return d, false
			}
			d.hour = 0
			d.year, d.month, d.day = fromDays(civil.Days(d.year, int64(d.month), int64(d.day)) + 1)
		}
	}
	switch {
	case s == "":
	case s == "Z":
		d.hasTZ = true
	case len(s) == 6 && (s[0] == '+' || s[0] == '-') && s[3] == ':':
		h, err1 := strconv.Atoi(s[1:3])
		m, err2 := strconv.Atoi(s[4:6])
		if err1 != nil || err2 != nil || !allDigits(s[1:3]+s[4:6]) || m > 59 || h > 14 || h == 14 && m != 0 {
			return d, false
		}
		d.tz, d.hasTZ = h*60+m, true
		if s[0] == '-' {
			d.tz = -d.tz
		}
	default:
		return d, false
	}
	return d, true
}

// field reads sep followed by exactly two digits in [lo, hi].
func field(s string, sep byte, lo, hi int) (int, string, bool) {
	if len(s) < 3 || s[0] != sep || !allDigits(s[1:3]) {
		return 0, s, false
	}
	v := int(s[1]-'0')*10 + int(s[2]-'0')
	return v, s[3:], v >= lo && v <= hi
}

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysIn(y int64, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// fromDays is the inverse of civil.Days.
func fromDays(z int64) (int64, int, int) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := int(doy - (153*mp+2)/5 + 1)
	m := int(mp + 3)
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// minutes returns the instant in minutes since the epoch, reading a
// missing timezone as offset (in minutes).
func (d dateTime) minutes(offset int) int64 {
	if d.hasTZ {
		offset = d.tz
	}
	return civil.Days(d.year, int64(d.month), int64(d.day))*1440 + int64(d.hour*60+d.minute) - int64(offset)
}

// cmpInstant compares at the given offsets for timezone-less values.
func cmpInstant(a, b dateTime, offA, offB int) int {
	ma, mb := a.minutes(offA), b.minutes(offB)
	switch {
	case ma != mb:
		return cmpInt64(ma, mb)
	case a.sec != b.sec:
		return cmpInt64(int64(a.sec), int64(b.sec))
	}
	return strings.Compare(a.frac, b.frac) // trimmed fraction digits compare as strings
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
	if a.hasTZ == b.hasTZ {
		return cmpInstant(a, b, 0, 0), false
	}
	const w = 14 * 60
	if !a.hasTZ {
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
	s := strconv.Itoa(d.sec)
	if d.frac != "" {
		s += "." + d.frac
	}
	r, _ := new(big.Rat).SetString(s)
	return decNum(r)
}

// timezone returns TIMEZONE's xsd:dayTimeDuration ("PT0S", "-PT5H30M").
func (d dateTime) timezone() rdf.Term {
	tz := d.tz
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
	if !d.hasTZ {
		return ""
	}
	if d.tz == 0 {
		return "Z"
	}
	tz, sign := d.tz, byte('+')
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
