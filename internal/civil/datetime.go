package civil

import (
	"strconv"
	"strings"
)

// DateTime is a parsed xsd:dateTime (or xsd:date, with a zero time).
// Frac keeps the fractional seconds' digits as written, without trailing
// zeros, so that comparisons and SECONDS stay exact.
type DateTime struct {
	Year                          int64
	Month, Day, Hour, Minute, Sec int
	Frac                          string
	TZ                            int // offset in minutes when HasTZ
	HasTZ                         bool
}

// maxYear keeps the day arithmetic far from int64 overflow; years beyond
// it are treated as ill-formed.
const maxYear = 1_000_000_000

// ParseDateTime reads the xsd:dateTime lexical form
// -?YYYY-MM-DDThh:mm:ss(.s+)?(Z|(+|-)hh:mm)?; with date set, the xsd:date
// form -?YYYY-MM-DD(Z|(+|-)hh:mm)?. 24:00:00 is read as the next day's
// midnight.
func ParseDateTime(s string, date bool) (DateTime, bool) {
	var d DateTime
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
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
	d.Year = y
	s = s[i:]
	var ok bool
	if d.Month, s, ok = field(s, '-', 1, 12); !ok {
		return d, false
	}
	if d.Day, s, ok = field(s, '-', 1, 31); !ok || d.Day > DaysIn(d.Year, d.Month) {
		return d, false
	}
	if !date {
		if d.Hour, s, ok = field(s, 'T', 0, 24); !ok {
			return d, false
		}
		if d.Minute, s, ok = field(s, ':', 0, 59); !ok {
			return d, false
		}
		if d.Sec, s, ok = field(s, ':', 0, 59); !ok {
			return d, false
		}
		if strings.HasPrefix(s, ".") {
			j := 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j == 1 {
				return d, false
			}
			d.Frac = strings.TrimRight(s[1:j], "0")
			s = s[j:]
		}
		if d.Hour == 24 {
			if d.Minute != 0 || d.Sec != 0 || d.Frac != "" {
				return d, false
			}
			d.Hour = 0
			d.Year, d.Month, d.Day = FromDays(Days(d.Year, int64(d.Month), int64(d.Day)) + 1)
		}
	}
	switch {
	case s == "":
	case s == "Z":
		d.HasTZ = true
	case len(s) == 6 && (s[0] == '+' || s[0] == '-') && s[3] == ':':
		h, _, ok1 := field(s[0:3], s[0], 0, 14)
		m, _, ok2 := field(s[3:6], ':', 0, 59)
		if !ok1 || !ok2 || h == 14 && m != 0 {
			return d, false
		}
		d.TZ, d.HasTZ = h*60+m, true
		if s[0] == '-' {
			d.TZ = -d.TZ
		}
	default:
		return d, false
	}
	return d, true
}

// Unix returns the instant in seconds since 1970-01-01T00:00:00Z, the
// fraction dropped, a missing timezone read as UTC.
func (d DateTime) Unix() int64 {
	return Days(d.Year, int64(d.Month), int64(d.Day))*86400 + int64(d.Hour*3600+d.Minute*60+d.Sec) - int64(d.TZ)*60
}

// field reads sep followed by exactly two digits in [lo, hi].
func field(s string, sep byte, lo, hi int) (int, string, bool) {
	if len(s) < 3 || s[0] != sep || !isDigit(s[1]) || !isDigit(s[2]) {
		return 0, s, false
	}
	v := int(s[1]-'0')*10 + int(s[2]-'0')
	return v, s[3:], v >= lo && v <= hi
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isLeap reports whether y is a leap year of the proleptic Gregorian
// calendar.
func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// DaysIn returns the number of days of month m of year y.
func DaysIn(y int64, m int) int {
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

// FromDays is the inverse of Days.
func FromDays(z int64) (int64, int, int) {
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
