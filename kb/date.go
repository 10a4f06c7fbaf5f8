package kb

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ParseDate reads the dates forum and blog templates show: RFC 3339 and
// ISO 8601 ("2017-09-09T01:19:18+0100"), Unix seconds, and human dates in
// English, German, French, Spanish and Dutch ("Sep 14, 2017",
// "20. April 2020 11:20", "29.01.19", "04/02/2005, 12h25",
// "Thu Jan 02, 2020 8:48 pm"). All-numeric dates are read day first
// (22.02.2019) unless the second number cannot be a month (02/22/2019). A
// date without a zone is taken as UTC; relative dates ("yesterday") and
// dates without a year are not read.
func ParseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, layout := range isoLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	if unixRE.MatchString(s) {
		n, _ := strconv.ParseInt(s, 10, 64)
		return time.Unix(n, 0).UTC(), true
	}
	return parseHuman(strings.ToLower(s))
}

var isoLayouts = []string{
	time.RFC3339, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00",
	"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02",
}

var (
	unixRE  = regexp.MustCompile(`^1\d{9}$`)
	tokenRE = regexp.MustCompile(`\d+|[\p{L}]+`)
	timeRE  = regexp.MustCompile(`(\d{1,2})\s*[:h]\s*(\d{2})(?:\s*:\s*(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?`)
)

// months maps month names and their usual abbreviations, in the languages
// read, to month numbers; a token matches by its first three letters
// except where the languages clash.
var months = map[string]int{
	"jan": 1, "ene": 1, "jän": 1, "janv": 1, "janvier": 1, "enero": 1, "januari": 1, "januar": 1, "january": 1,
	"feb": 2, "fév": 2, "fev": 2, "février": 2, "febrero": 2, "februar": 2, "februari": 2, "february": 2,
	"mar": 3, "mär": 3, "mars": 3, "märz": 3, "marzo": 3, "maart": 3, "march": 3,
	"apr": 4, "avr": 4, "abr": 4, "avril": 4, "abril": 4, "april": 4,
	"may": 5, "mai": 5, "mayo": 5, "mei": 5,
	"jun": 6, "juin": 6, "junio": 6, "juni": 6, "june": 6,
	"jul": 7, "juil": 7, "juillet": 7, "julio": 7, "juli": 7, "july": 7,
	"aug": 8, "août": 8, "aout": 8, "ago": 8, "agosto": 8, "august": 8, "augustus": 8,
	"sep": 9, "sept": 9, "septembre": 9, "septiembre": 9, "september": 9,
	"oct": 10, "okt": 10, "octobre": 10, "octubre": 10, "oktober": 10, "october": 10,
	"nov": 11, "novembre": 11, "noviembre": 11, "november": 11,
	"dec": 12, "dez": 12, "déc": 12, "dic": 12, "décembre": 12, "diciembre": 12, "dezember": 12, "december": 12,
}

func monthOf(tok string) int {
	if m, ok := months[tok]; ok {
		return m
	}
	r := []rune(tok)
	if len(r) > 3 {
		return months[string(r[:3])]
	}
	return 0
}

func parseHuman(s string) (time.Time, bool) {
	hour, min, sec := 0, 0, 0
	if m := timeRE.FindStringSubmatchIndex(s); m != nil {
		hour, _ = strconv.Atoi(s[m[2]:m[3]])
		min, _ = strconv.Atoi(s[m[4]:m[5]])
		if m[6] >= 0 {
			sec, _ = strconv.Atoi(s[m[6]:m[7]])
		}
		if m[8] >= 0 {
			pm := s[m[8]] == 'p'
			if pm && hour < 12 {
				hour += 12
			} else if !pm && hour == 12 {
				hour = 0
			}
		}
		s = s[:m[0]] + " " + s[m[1]:]
	}
	var nums []int
	month := 0
	for _, tok := range tokenRE.FindAllString(s, -1) {
		if tok[0] >= '0' && tok[0] <= '9' {
			n, _ := strconv.Atoi(tok)
			nums = append(nums, n)
			continue
		}
		if month == 0 {
			month = monthOf(tok)
		}
	}
	year, day := 0, 0
	switch {
	case month != 0 && len(nums) >= 2:
		// "14 Sep 2017", "Sep 14, 2017", "2017 Sep 14"; with more
		// numbers ("#2 posted 21 Apr 2020"), the four-digit one is the
		// year and the day the last before it.
		if y := slices.IndexFunc(nums, func(n int) bool { return n > 999 }); y > 0 && len(nums) > 2 {
			year, day = nums[y], nums[y-1]
		} else if nums[0] > 31 {
			year, day = nums[0], nums[1]
		} else {
			day, year = nums[0], nums[1]
		}
	case month == 0 && len(nums) >= 3:
		a, b, c := nums[0], nums[1], nums[2]
		switch {
		case a > 31: // 2019-02-22
			year, month, day = a, b, c
		case b > 12: // 02/22/2019, month first
			month, day, year = a, b, c
		default: // 22.02.2019
			day, month, year = a, b, c
		}
	default:
		return time.Time{}, false
	}
	if year < 100 {
		year += 2000
	}
	if month < 1 || month > 12 || day < 1 || day > 31 || year < 1990 || year > 2100 || hour > 23 || min > 59 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, min, sec, 0, time.UTC), true
}
