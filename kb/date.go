package kb

import (
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ParseDate reads the dates forum and blog templates show: RFC 3339 and
// ISO 8601 ("2017-09-09T01:19:18+0100"), Unix seconds and milliseconds,
// and human dates in
// English, German, French, Spanish and Dutch ("Sep 14, 2017",
// "20. April 2020 11:20", "29.01.19", "04/02/2005, 12h25",
// "Thu Jan 02, 2020 8:48 pm"). All-numeric dates are read day first
// (22.02.2019) unless the second number cannot be a month (02/22/2019). A
// date without a zone is taken as UTC; relative dates ("yesterday") and
// dates without a year are not read.
func ParseDate(s string) (time.Time, bool) { return ParseDateIn(s, "") }

// ParseDateIn is ParseDate for text in language lang (a BCP 47 tag such
// as "de" or "fr-CA", as a page's lang attribute gives it): month words
// are read in that language, or in any of the languages read when lang
// is "" or another language.
func ParseDateIn(s, lang string) (time.Time, bool) { return parseDateIn(s, lang, numericOrder(lang)) }

// parseDateIn is ParseDateIn with all-numeric dates read in order (the
// page's, DateContext).
func parseDateIn(s, lang string, order int) (time.Time, bool) {
	s = strings.TrimSpace(foldDate(s))
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
	if unixMilliRE.MatchString(s) {
		n, _ := strconv.ParseInt(s, 10, 64)
		return time.UnixMilli(n).UTC(), true
	}
	// Month names are inflected in languages other than the ones of
	// monthNames, where "market" is no March.
	inflect := ""
	if _, known := monthWords()[langKey(lang)]; known {
		if _, plain := monthNames[langKey(lang)]; !plain {
			inflect = langKey(lang)
		}
	}
	return parseHuman(strings.ToLower(s), monthsOf(lang), order, inflect)
}

var isoLayouts = []string{
	time.RFC3339, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00",
	"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02",
}

var (
	unixRE      = regexp.MustCompile(`^1\d{9}$`)
	unixMilliRE = regexp.MustCompile(`^1\d{12}$`) // JavaScript's Date.now()
	tokenRE     = regexp.MustCompile(`\d+|[\pL\pM]+`)
	timeRE      = regexp.MustCompile(`(\d{1,2})\s*(?:[:h]|[点點时時])\s*(\d{2})(?:\s*:\s*(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?`)
)

// monthNames lists, per language (ISO 639-1), the month names and their
// usual abbreviations, January first. A word is a month only when it is
// one of these words whole (a trailing dot dropped): "market" or
// "modified" are not March or May.
var monthNames = map[string][12][]string{
	"en": {{"january", "jan"}, {"february", "feb"}, {"march", "mar"}, {"april", "apr"}, {"may"}, {"june", "jun"},
		{"july", "jul"}, {"august", "aug"}, {"september", "sep", "sept"}, {"october", "oct"}, {"november", "nov"}, {"december", "dec"}},
	"de": {{"januar", "jan", "jän", "jänner"}, {"februar", "feb"}, {"märz", "mär", "mrz"}, {"april", "apr"}, {"mai"}, {"juni", "jun"},
		{"juli", "jul"}, {"august", "aug"}, {"september", "sep", "sept"}, {"oktober", "okt"}, {"november", "nov"}, {"dezember", "dez"}},
	"fr": {{"janvier", "janv", "jan"}, {"février", "fevrier", "févr", "fevr", "fév", "fev"}, {"mars", "mar"}, {"avril", "avr"}, {"mai"}, {"juin"},
		{"juillet", "juil"}, {"août", "aout"}, {"septembre", "sept", "sep"}, {"octobre", "oct"}, {"novembre", "nov"}, {"décembre", "decembre", "déc", "dec"}},
	"es": {{"enero", "ene"}, {"febrero", "feb"}, {"marzo", "mar"}, {"abril", "abr"}, {"mayo", "may"}, {"junio", "jun"},
		{"julio", "jul"}, {"agosto", "ago"}, {"septiembre", "setiembre", "sep", "sept"}, {"octubre", "oct"}, {"noviembre", "nov"}, {"diciembre", "dic"}},
	"nl": {{"januari", "jan"}, {"februari", "feb"}, {"maart", "mrt", "mar"}, {"april", "apr"}, {"mei"}, {"juni", "jun"},
		{"juli", "jul"}, {"augustus", "aug"}, {"september", "sep", "sept"}, {"oktober", "okt"}, {"november", "nov"}, {"december", "dec"}},
}

// monthWords maps each language's month words to month numbers: the
// words of monthNames and of the C library's locales (localeMonths).
// Under "" are the words any text may be read with when its language is
// unknown: every word of monthNames, and the locales' names of four
// letters or more (or of two CJK characters or more) that no language
// gives another month; short abbreviations ("sie", "lis") are words of
// other languages too often.
var monthWords = sync.OnceValue(func() map[string]map[string]int {
	all := map[string]int{}
	m := map[string]map[string]int{"": all}
	add := func(lang string, names [12][]string) {
		words := m[lang]
		if words == nil {
			words = map[string]int{}
			m[lang] = words
		}
		for i, ws := range names {
			for _, w := range ws {
				if _, ok := words[w]; !ok {
					words[w] = i + 1
				}
			}
		}
	}
	for lang, names := range monthNames {
		add(lang, names)
		for i, ws := range names {
			for _, w := range ws {
				all[w] = i + 1
			}
		}
	}
	for lang, names := range localeMonths() {
		add(lang, names)
	}
	for lang, loc := range cldrLocales() {
		// Months written as numbers ("3月") are no words: such a
		// language reads any language's.
		if slices.ContainsFunc(loc.months[:], func(ws []string) bool { return len(ws) > 0 }) {
			add(langKey(lang), loc.months)
		}
	}
	for w, month := range localeMonthClaims() {
		if _, ok := all[w]; ok || month < 0 || !wholeName(w) {
			continue
		}
		all[w] = month
	}
	return m
})

// localeMonthClaims returns each month word of the C library's locales
// and of CLDR its month, -1 when the languages writing it disagree.
func localeMonthClaims() map[string]int {
	claimed := map[string]int{}
	all := make([][12][]string, 0, len(localeMonths())+len(cldrLocales()))
	for _, names := range localeMonths() {
		all = append(all, names)
	}
	for _, loc := range cldrLocales() {
		all = append(all, loc.months)
	}
	for _, names := range all {
		for i, ws := range names {
			for _, w := range ws {
				if c, ok := claimed[w]; ok && c != i+1 {
					claimed[w] = -1
				} else if !ok {
					claimed[w] = i + 1
				}
			}
		}
	}
	return claimed
}

// wholeName tells a name safe to read in text of unknown language: four
// letters or more, or two or more of a script written without spaces.
func wholeName(w string) bool {
	n, cjk := 0, false
	for _, r := range w {
		n++
		cjk = cjk || unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana, unicode.Thai)
	}
	return n >= 4 || cjk && n >= 2
}

// monthsOf returns the month words of a language tag ("de-AT" reads as
// "de"); a language whose month names are not known gets every
// language's.
func monthsOf(lang string) map[string]int {
	if m, ok := monthWords()[langKey(lang)]; ok {
		return m
	}
	return monthWords()[""]
}

// langKey is the primary subtag of a BCP 47 tag, lower-cased ("de" of
// "de-AT").
func langKey(lang string) string {
	lang, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(lang)), "-")
	lang, _, _ = strings.Cut(lang, "_")
	return lang
}

// DocLang is a page's language as it declares it: the lang attribute of
// its <html> element, else its Content-Language header; "" if neither.
func DocLang(root *html.Node, header http.Header) string {
	var find func(n *html.Node) string
	find = func(n *html.Node) string {
		for ; n != nil; n = n.NextSibling {
			if n.Type == html.ElementNode && n.DataAtom == atom.Html {
				for _, a := range n.Attr {
					if a.Key == "lang" || a.Key == "xml:lang" || a.Namespace == "xml" && a.Key == "lang" {
						return a.Val
					}
				}
				return ""
			}
			if l := find(n.FirstChild); l != "" {
				return l
			}
		}
		return ""
	}
	if root != nil {
		if l := find(root.FirstChild); l != "" {
			return l
		}
	}
	l, _, _ := strings.Cut(header.Get("Content-Language"), ",")
	return strings.TrimSpace(l)
}

// Orders of all-numeric dates: day first, month first (US English), year
// first (East Asian, Hungarian, Lithuanian, Basque).
const (
	dayFirst = iota
	monthFirst
	yearFirst
)

// numericOrder is the order CLDR's short date patterns give a language
// (cldrLocales): English without a region is read as the United States'
// (CLDR's "en"), a region other than the US or the Philippines as day
// first; a language with a region, or one CLDR lacks, as day first.
func numericOrder(lang string) int {
	l := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(lang), "_", "-"))
	switch langKey(l) {
	case "en":
		if l == "en" || l == "en-us" || l == "en-ph" {
			return monthFirst
		}
	case "ja", "ko", "zh", "hu", "lt", "eu", "mn":
		return yearFirst
	}
	if loc, ok := cldrLocales()[langKey(l)]; ok && l == langKey(l) {
		switch loc.order[0] {
		case 'm':
			return monthFirst
		case 'y':
			return yearFirst
		}
	}
	return dayFirst
}

// basePmWords and baseAmWords mark a 12-hour clock's half in the
// languages whose dates name it in words ("PM 2:05", "2:05 μ.μ.");
// halfWords adds CLDR's.
var (
	basePmWords = []string{"pm", "p.m.", "μ.μ.", "오후", "午後", "下午", "ptg", "ch", "du"}
	baseAmWords = []string{"am", "a.m.", "π.μ.", "오전", "午前", "上午", "pg", "sa", "de"}
)

// dotTimeRE is a time written with a dot after a word that announces a
// time (Finnish "klo 14.05", Danish "kl. 14.05", Indonesian "pukul
// 14.05") or after a comma at the end ("23 Nov 2021, 09.41"); a dot
// elsewhere separates a date's numbers.
var dotTimeRE = regexp.MustCompile(`(?:\b(?:klo|kl\.?|pukul|pada|om)\s*|,\s*)(\d{1,2})\.(\d{2})(?:$|[^.\d])`)

// parseHuman reads a date written for people, its month words in months
// (inflected forms too when months are the words of one language, the
// language inflect).
func parseHuman(s string, months map[string]int, order int, inflect string) (time.Time, bool) {
	hour, min, sec := 0, 0, 0
	if m := dotTimeRE.FindStringSubmatchIndex(s); m != nil {
		s = s[:m[2]] + s[m[2]:m[3]] + ":" + s[m[4]:]
	}
	if m := timeRE.FindStringSubmatchIndex(s); m != nil {
		hour, _ = strconv.Atoi(s[m[2]:m[3]])
		min, _ = strconv.Atoi(s[m[4]:m[5]])
		if m[6] >= 0 {
			sec, _ = strconv.Atoi(s[m[6]:m[7]])
		}
		half := ""
		if m[8] >= 0 {
			half = s[m[8]:m[9]]
		} else {
			half = clockHalf(s)
		}
		hour = clockHour(hour, half)
		s = s[:m[0]] + " " + s[m[1]:]
	}
	var nums []int
	month := 0
	if m, rest, ok := phraseMonth(s, months); ok {
		month, s = m, rest
	}
	for _, tok := range tokenRE.FindAllString(s, -1) {
		if tok[0] >= '0' && tok[0] <= '9' {
			n, _ := strconv.Atoi(tok)
			nums = append(nums, n)
			continue
		}
		if month == 0 {
			month = months[tok]
			if month == 0 && inflect != "" {
				month = inflected(tok, months, inflect)
			}
		}
	}
	year, day := 0, 0
	switch {
	case month != 0 && len(nums) >= 2:
		// "14 Sep 2017", "Sep 14, 2017", "2017 Sep 14"; with more
		// numbers ("#2 posted 21 Apr 2020", "#171193 by ann Sun Dec 15,
		// 2019"), the four-digit one is the year and the day the last
		// before it.
		if y := slices.IndexFunc(nums, func(n int) bool { return n > 999 && n < 10000 }); y > 0 && len(nums) > 2 {
			year, day = nums[y], nums[y-1]
		} else if nums[0] > 31 {
			year, day = nums[0], nums[1]
		} else {
			day, year = nums[0], nums[1]
		}
	case month == 0 && len(nums) >= 3:
		a, b, c := nums[0], nums[1], nums[2]
		switch {
		case a > 31 || order == yearFirst && c <= 31: // 2019-02-22, 19. 3. 7.
			year, month, day = a, b, c
		case b > 12 || order == monthFirst && a <= 12 && strings.Contains(s, "/"): // 02/22/2019, 3/7/19 in the US
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

// monthPhrases are the month names of several words ("an dùbhlachd",
// "арван хоёрдугаар сар") of every language, split in words (tokenRE),
// by their first word, the longest first.
var monthPhrases = sync.OnceValue(func() map[string][][]string {
	seen, out := map[string]bool{}, map[string][][]string{}
	for _, words := range monthWords() {
		for w := range words {
			if f := tokenRE.FindAllString(w, -1); len(f) > 1 && !seen[w] {
				seen[w] = true
				out[f[0]] = append(out[f[0]], f)
			}
		}
	}
	for _, ps := range out {
		slices.SortFunc(ps, func(a, b []string) int { return len(b) - len(a) })
	}
	return out
})

// phraseMonth finds in s a month name of several words that months
// holds, its last word inflected too ("арван хоёрдугаар сарын"), and
// returns the month and s without the name.
func phraseMonth(s string, months map[string]int) (int, string, bool) {
	index := monthPhrases()
	toks := tokenRE.FindAllStringIndex(s, -1)
	for i, t := range toks {
		for _, p := range index[s[t[0]:t[1]]] {
			if i+len(p) > len(toks) {
				continue
			}
			last := toks[i+len(p)-1]
			ok := true
			for j, w := range p {
				tw := s[toks[i+j][0]:toks[i+j][1]]
				if tw != w && (j < len(p)-1 || !stemOf(tw, w)) {
					ok = false
					break
				}
			}
			if m := months[strings.Join(p, " ")]; ok && m != 0 {
				return m, s[:t[0]] + " " + s[last[1]:], true
			}
		}
	}
	return 0, s, false
}

// clockHour is the hour of a 24-hour clock for hour read with half
// ("am", "pm", "night" or none): at night, 12 is midnight and 6 to 11
// are evening hours ("রাত ১২:০০", "रात 10 बजे").
func clockHour(hour int, half string) int {
	switch {
	case half == "pm" && hour < 12, half == "night" && hour >= 6 && hour < 12:
		return hour + 12
	case (half == "am" || half == "night") && hour == 12:
		return 0
	}
	return hour
}

// clockHalf is "am" or "pm" when s names a 12-hour clock's half in words,
// "night" when it names the night, "" otherwise.
func clockHalf(s string) string {
	t := halfTables()
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == ',' }) {
		if h := t.whole[w]; h != "" {
			return h
		}
	}
	// Words of scripts without spaces, anywhere ("日下午5点45分"), and
	// the night's words.
	for _, e := range t.anywhere {
		if strings.Contains(s, e[0]) && (e[1] != "night" || cjkWord(e[0]) || wordIn(s, e[0])) {
			return e[1]
		}
	}
	// With or without the dots of an abbreviation ("ΜΜ" of "μ.μ.").
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == '.' }) {
		if h := t.undotted[w]; h != "" {
			return h
		}
	}
	return ""
}

// halfTable is halfWords and nightWords arranged for clockHalf: whole
// words, words found anywhere (of scripts without spaces, and the
// night's) with their half, and words without their dots.
type halfTable struct {
	whole, undotted map[string]string
	anywhere        [][2]string
}

var halfTables = sync.OnceValue(func() halfTable {
	am, pm := halfWords()
	t := halfTable{whole: map[string]string{}, undotted: map[string]string{}}
	for _, e := range []struct {
		half  string
		words []string
	}{{"am", am}, {"pm", pm}} {
		for _, w := range e.words {
			t.whole[w] = e.half // pm last: a word of both is pm
			if u := strings.ReplaceAll(w, ".", ""); u != w && !strings.Contains(u, " ") && utf8.RuneCountInString(u) >= 2 {
				t.undotted[u] = e.half
			}
		}
	}
	for _, e := range []struct {
		half  string
		words []string
	}{{"pm", pm}, {"am", am}} {
		for _, w := range e.words {
			if cjkWord(w) {
				t.anywhere = append(t.anywhere, [2]string{w, e.half})
			}
		}
	}
	for _, w := range slices.Sorted(maps.Keys(nightWords())) {
		t.anywhere = append(t.anywhere, [2]string{w, "night"})
	}
	return t
})

// inflected reads a word as a month of the language lang, months its
// month words, when it is inflected (the Finnish "maaliskuuta" of
// "maaliskuu", the Slovak "novembra" of "november") or abbreviated as
// CLDR abbreviates ("нояб." of "ноября"): the word and a name share three
// letters or more and differ in endings of at most three, or the word
// (four letters or more) begins a name. Every such name must be of one
// month, and the word no weekday's ("martes" is not "marzo").
func inflected(w string, months map[string]int, lang string) int {
	n := utf8.RuneCountInString(w)
	if n < 3 || weekdayWord(w, lang) {
		return 0
	}
	found := 0
	for name, m := range months {
		p := commonPrefix(w, name)
		wt, nt := n-p, utf8.RuneCountInString(name)-p
		if p >= 3 && wt <= 3 && (nt <= 3 || wt == 0 && n >= 4) {
			if found != 0 && found != m {
				return 0
			}
			found = m
		}
	}
	return found
}

// commonPrefix is the number of runes a and b begin with alike.
func commonPrefix(a, b string) int {
	n := 0
	for a != "" && b != "" {
		ra, sa := utf8.DecodeRuneInString(a)
		rb, sb := utf8.DecodeRuneInString(b)
		if ra != rb {
			break
		}
		n++
		a, b = a[sa:], b[sb:]
	}
	return n
}

// weekdayWord reports a weekday name of lang, or a form of one (five
// letters alike).
func weekdayWord(w, lang string) bool {
	if _, ok := weekdays()[w]; ok {
		return true
	}
	for _, names := range localeWeekdays()[lang] {
		for _, d := range names {
			if w == d || commonPrefix(w, d) >= 5 {
				return true
			}
		}
	}
	return false
}
