package kb

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

//go:generate node ../scripts/gen/cldr-dates.mjs

// cldrLocale is one language's date words from CLDR (cldr_dates_gen.go),
// lower-cased: month names January first, weekday names Sunday first,
// the past relative-time patterns per unit (second, minute, hour, day,
// week, month, year; "{0}" stands for the number, and a phrase ending
// in "{=2}" says its number, 2, in words), the relative day words as
// days before now (-1: now itself), the words of a 12-hour clock's
// halves and day periods ("pm", "शाम") and of the night, on both sides
// of midnight ("রাত"), and the order of a short numeric date ("dmy",
// "mdy", "ymd").
type cldrLocale struct {
	months   [12][]string
	weekdays [7][]string
	past     [7][]string
	days     map[string]int
	am, pm   []string
	night    []string
	order    string
}

// pastPattern is one CLDR relative-time pattern split at its number:
// "vor {0} Stunden" is prefix "vor", suffix "stunden" of unit hour; a
// phrase that says its number ("قبل شهرين") is the prefix alone, with
// its count.
type pastPattern struct {
	lang           string
	unit           int
	prefix, suffix string
	count          int
}

var (
	// cldrWordRE finds words of any script, with their combining marks
	// (Thai, Devanagari); a script without spaces gives one word per run.
	cldrWordRE = regexp.MustCompile(`[\pL\pM]+`)

	// The generated tables, and every table derived from them, are
	// built on the first date read, not at start-up: a process that
	// reads no date pays nothing for them.
	// Their words are folded as texts are (foldDate).
	cldrLocales = sync.OnceValue(func() map[string]cldrLocale {
		t := cldrLocaleTable()
		for lang, loc := range t {
			foldLists(loc.months[:])
			foldLists(loc.weekdays[:])
			foldLists(loc.past[:])
			foldLists([][]string{loc.am, loc.pm, loc.night})
			days := make(map[string]int, len(loc.days))
			for w, n := range loc.days {
				days[foldDate(w)] = n
			}
			loc.days = days
			t[lang] = loc
		}
		return t
	})
	dateFnsPast = sync.OnceValue(func() map[string][7][]string {
		t := dateFnsTable()
		for _, past := range t {
			foldLists(past[:])
		}
		return t
	})
	localeMonths = sync.OnceValue(func() map[string][12][]string {
		t := localeMonthTable()
		for _, names := range t {
			foldLists(names[:])
		}
		return t
	})
	localeWeekdays = sync.OnceValue(func() map[string][7][]string {
		t := localeWeekdayTable()
		for _, names := range t {
			foldLists(names[:])
		}
		return t
	})
)

// foldLists folds every word of lists in place.
func foldLists(lists [][]string) {
	for _, l := range lists {
		for i, w := range l {
			l[i] = foldDate(w)
		}
	}
}

// foldDate writes a date text as the tables are written: digits of any
// script as ASCII ones, format characters (zero-width spaces and
// joiners, direction marks) dropped, and typographic apostrophes as
// "'" (the letter apostrophe "ʼ" stays: Breton's "cʼhwevrer"). Templates
// and CLDR differ in these alone: "aujourd’hui" and
// "aujourd'hui", "ថ្ងៃនេះ" with and without a zero-width space.
func foldDate(s string) string {
	s = asciiDigits(s)
	if !strings.ContainsFunc(s, foldable) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.Is(unicode.Cf, r):
			return -1
		case r == '’' || r == '‘':
			return '\''
		}
		return r
	}, s)
}

func foldable(r rune) bool {
	return r == '’' || r == '‘' || r > 0x7f && unicode.Is(unicode.Cf, r)
}

// nightWords are CLDR's words of the night (cldrLocale.night) that no
// language gives a clock's half.
var nightWords = sync.OnceValue(func() map[string]bool {
	am, pm := halfWords()
	out := map[string]bool{}
	for _, loc := range cldrLocales() {
		for _, w := range loc.night {
			if utf8.RuneCountInString(w) >= 2 && !slices.Contains(am, w) && !slices.Contains(pm, w) {
				out[w] = true
			}
		}
	}
	for _, loc := range cldrLocales() {
		for _, w := range slices.Concat(loc.am, loc.pm) {
			delete(out, w)
		}
	}
	return out
})

// wordIn tells w found in s between word bounds.
func wordIn(s, w string) bool {
	for from := 0; from < len(s); {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return false
		}
		i += from
		if boundBefore(s, i) && boundAfter(s, i+len(w)) {
			return true
		}
		from = i + 1
	}
	return false
}

// pastTable holds every language's past patterns (CLDR's and
// date-fns's); index finds them by the words of their literal text.
type pastTable struct {
	patterns []pastPattern
	index    map[string][]int
	cjkKeys  []string // index words of scripts without spaces, found in a text's runs
}

var pastTables = sync.OnceValue(func() *pastTable {
	t := &pastTable{index: map[string][]int{}}
	// In a fixed order, so that ties between languages fall alike on
	// every run.
	for _, lang := range slices.Sorted(maps.Keys(cldrLocales())) {
		t.add(lang, cldrLocales()[lang].past)
	}
	for _, lang := range slices.Sorted(maps.Keys(dateFnsPast())) {
		t.add(lang, dateFnsPast()[lang])
	}
	for w := range t.index {
		if cjkWord(w) {
			t.cjkKeys = append(t.cjkKeys, w)
		}
	}
	slices.Sort(t.cjkKeys)
	return t
})

// add adds a language's past relative-time patterns.
func (t *pastTable) add(lang string, past [7][]string) {
	for unit, pats := range past {
		for _, p := range pats {
			count := 0
			if phrase, n, ok := strings.Cut(p, "{="); ok {
				if _, day := dayWords()[strings.TrimSpace(phrase)]; day {
					continue // "yesterday": a day, read with its time by parseNamedDay
				}
				count, _ = strconv.Atoi(strings.TrimSuffix(n, "}"))
				p = phrase + "{0}"
			}
			before, after, ok := strings.Cut(p, "{0}")
			if !ok {
				continue
			}
			pp := pastPattern{lang, unit, undotted(before), undotted(after), count}
			if pp.prefix == "" && pp.suffix == "" {
				continue
			}
			id := len(t.patterns)
			t.patterns = append(t.patterns, pp)
			seen := map[string]bool{}
			for _, w := range cldrWordRE.FindAllString(pp.prefix+" "+pp.suffix, -1) {
				if !seen[w] {
					seen[w] = true
					t.index[w] = append(t.index[w], id)
				}
			}
		}
	}
}

// nowWords say "now" ("jetzt", "ahora") in some language.
var nowWords = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, loc := range cldrLocales() {
		for w, back := range loc.days {
			if back < 0 {
				out[w] = true
			}
		}
	}
	return out
})

// claimWord records that a language gives word w the value v: a word
// two languages give different values is marked -2 (no one value).
func claimWord(m map[string]int, w string, v int) {
	if c, ok := m[w]; ok && c != v {
		m[w] = -2
	} else if !ok {
		m[w] = v
	}
}

// dayWords are the relative day words read whatever the language, as
// days before now: baseDayWords, and CLDR's ("vorgestern", "dünən") of
// every language where no language gives them another meaning.
var dayWords = sync.OnceValue(func() map[string]int {
	out, days := maps.Clone(baseDayWords), map[string]int{}
	for _, loc := range cldrLocales() {
		for w, back := range loc.days {
			if back >= 0 {
				claimWord(days, w, back)
			}
		}
	}
	for w, back := range days {
		if _, ok := out[w]; !ok && back >= 0 && monthWords()[""][w] == 0 {
			out[w] = back
		}
	}
	return out
})

// addCLDRWeekdays adds to weekdays CLDR's weekday names of every
// language that wholeName finds safe in text of unknown language and no
// language gives another meaning.
func addCLDRWeekdays(weekdays map[string]time.Weekday) {
	wds := map[string]int{}
	for _, loc := range cldrLocales() {
		for i, ws := range loc.weekdays {
			for _, w := range ws {
				claimWord(wds, w, i)
			}
		}
	}
	for w, d := range wds {
		if _, ok := weekdays[w]; !ok && d >= 0 && wholeName(w) && monthWords()[""][w] == 0 && dayWords()[w] == 0 {
			weekdays[w] = time.Weekday(d)
		}
	}
}

// halfWords mark a 12-hour clock's half: baseAmWords and basePmWords,
// and CLDR's words of every language for the halves and day periods
// ("vm.", "शाम") where no language gives them the other half.
var halfWords = sync.OnceValues(func() (am, pm []string) {
	am, pm = slices.Clone(baseAmWords), slices.Clone(basePmWords)
	halves := map[string]string{}
	for _, loc := range cldrLocales() {
		for half, ws := range map[string][]string{"am": loc.am, "pm": loc.pm} {
			for _, w := range ws {
				if h, ok := halves[w]; ok && h != half {
					halves[w] = ""
				} else if !ok {
					halves[w] = half
				}
			}
		}
	}
	for _, w := range slices.Sorted(maps.Keys(halves)) {
		half := halves[w]
		if half == "" || utf8.RuneCountInString(w) < 2 || strings.Contains(w, " ") || monthWords()[""][w] != 0 ||
			slices.Contains(am, w) || slices.Contains(pm, w) {
			continue
		}
		if half == "am" {
			am = append(am, w)
		} else {
			pm = append(pm, w)
		}
	}
	return am, pm
})

// cldrUnits are the lengths of the units of cldrLocale.past; months and
// years are counted on the calendar (cldrUnitMonths).
var (
	cldrUnits      = [7]time.Duration{time.Second, time.Minute, time.Hour, 24 * time.Hour, 7 * 24 * time.Hour}
	cldrUnitMonths = [7]int{5: 1, 6: 12}
)

// parseCLDRAgo reads a past relative date by CLDR's patterns: "vor 3
// Stunden", "3 ساعت پیش", "2 дня назад", "3 小時前", and with a word for
// the number ("vor einer Stunde", "a few seconds ago", one). The
// patterns of the language lang come first; with another or no language,
// every language's are tried, the one with the longest text winning.
func parseCLDRAgo(l, lang string, now time.Time) (time.Time, bool) {
	if utf8.RuneCountInString(l) > 60 {
		return time.Time{}, false
	}
	key := langKey(lang)
	if _, ok := cldrLocales()[strings.ToLower(lang)]; ok {
		key = strings.ToLower(lang)
	}
	best, bestLen, bestN, bestOwn := -1, 0, 0, false
	l = undotted(l)
	past := pastTables()
	words := cldrWordRE.FindAllString(l, -1)
	if cjkWord(l) {
		// A run of a script without spaces holds its words unsplit
		// ("មួយនាទីមុន").
		for _, w := range past.cjkKeys {
			if strings.Contains(l, w) {
				words = append(words, w)
			}
		}
	}
	for _, w := range words {
		for _, id := range past.index[w] {
			p := past.patterns[id]
			n, ok := matchPast(l, p)
			if !ok {
				continue
			}
			own := p.lang == key || langKey(p.lang) == key
			size := len(p.prefix) + len(p.suffix)
			if best < 0 || own && !bestOwn || own == bestOwn && size > bestLen {
				best, bestLen, bestN, bestOwn = id, size, n, own
			}
		}
	}
	if best < 0 {
		return time.Time{}, false
	}
	u := past.patterns[best].unit
	if m := cldrUnitMonths[u]; m > 0 {
		return now.AddDate(0, -bestN*m, 0), true
	}
	return now.Add(-time.Duration(bestN) * cldrUnits[u]), true
}

// matchPast finds pattern p in l and reads the number between its prefix
// and suffix: digits, or one or two words standing for one ("a", "einer",
// "ein paar"). Prefix and suffix must stand at word bounds.
func matchPast(l string, p pastPattern) (int, bool) {
	if p.count > 0 {
		for from := 0; from < len(l); {
			i := strings.Index(l[from:], p.prefix)
			if i < 0 {
				return 0, false
			}
			i += from
			from = i + 1
			if boundBefore(l, i) && (boundAfter(l, i+len(p.prefix)) || endsWithNonLetter(p.prefix)) {
				return p.count, true
			}
		}
		return 0, false
	}
	for from := 0; from <= len(l); {
		var mid string
		if p.suffix != "" {
			i := strings.Index(l[from:], p.suffix)
			if i < 0 {
				return 0, false
			}
			i += from
			end := i + len(p.suffix)
			from = i + 1
			if !boundAfter(l, end) && !endsWithNonLetter(p.suffix) {
				continue
			}
			before := l[:i]
			if p.prefix != "" {
				j := strings.LastIndex(before, p.prefix)
				if j < 0 || !boundBefore(l, j) {
					continue
				}
				mid = before[j+len(p.prefix):]
			} else {
				mid = lastWords(before)
			}
		} else {
			j := strings.Index(l[from:], p.prefix)
			if j < 0 {
				return 0, false
			}
			j += from
			from = j + 1
			if !boundBefore(l, j) {
				continue
			}
			mid = firstWord(l[j+len(p.prefix):])
		}
		if n, ok := countOf(mid); ok {
			return n, true
		}
	}
	return 0, false
}

// countOf reads the number a relative date counts: digits, or one or two
// short words that stand for one.
func countOf(mid string) (int, bool) {
	mid = strings.TrimSpace(mid)
	if mid == "" {
		return 1, true // "minuta ilu", "fyrir mínútu síðan": one, unsaid
	}
	if n, err := strconv.Atoi(mid); err == nil {
		return n, n >= 0
	}
	words := strings.Fields(mid)
	if len(words) > 2 {
		return 0, false
	}
	for _, w := range words {
		if utf8.RuneCountInString(w) > 10 || strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) }) {
			return 0, false
		}
	}
	return 1, true
}

// lastWords is the number or the last two words that end s (a number
// written without a space before a CJK unit included).
func lastWords(s string) string {
	if d := trailingDigitsRE.FindString(s); d != "" {
		return d
	}
	f := strings.Fields(s)
	if len(f) > 2 {
		f = f[len(f)-2:]
	}
	return strings.Join(f, " ")
}

// firstWord is the number or word that begins s.
func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

var trailingDigitsRE = regexp.MustCompile(`\d+\s*$`)

func boundBefore(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !unicode.IsLetter(r) && !unicode.IsMark(r)
}

func boundAfter(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !unicode.IsLetter(r) && !unicode.IsMark(r)
}

// endsWithNonLetter: a suffix ending in a dot or a script without spaces
// ("std.", "前") needs no bound after it.
func endsWithNonLetter(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return !unicode.IsLetter(r) || cjkWord(string(r))
}

// isNow reports a text that says "now" in some language ("jetzt", "just
// now", "à l'instant"): a now word with at most one other word.
func isNow(l string) bool {
	words := cldrWordRE.FindAllString(l, -1)
	if len(words) == 0 || len(words) > 3 || strings.ContainsFunc(l, unicode.IsDigit) {
		return false
	}
	if nowWords()[strings.Join(words, " ")] {
		return true
	}
	for _, w := range words {
		if nowWords()[w] {
			return len(words) <= 2
		}
	}
	return false
}

// asciiDigits rewrites the decimal digits of other scripts ("١٥",
// "१७") as ASCII ones.
func asciiDigits(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r > 0x7f && unicode.IsDigit(r) }) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r <= 0x7f || !unicode.IsDigit(r) {
			return r
		}
		// Unicode's decimal digits come in runs of ten, zero first.
		for _, rg := range unicode.Nd.R16 {
			if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
				return '0' + (r-rune(rg.Lo))%10
			}
		}
		for _, rg := range unicode.Nd.R32 {
			if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
				return '0' + (r-rune(rg.Lo))%10
			}
		}
		return r
	}, s)
}

// dayPhrases are the day words found anywhere in a text rather than as
// whole words: phrases ("i dag", "aujourd'hui", "an-diugh") and words of
// scripts without spaces ("เมื่อวานนี้").
var dayPhrases = sync.OnceValue(func() []string {
	var out []string
	for w := range dayWords() {
		if phraseWord(w) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
})

// phraseWord tells a name that is no single letter run, to be found in
// a text rather than among its words: several words ("thứ sáu", "e
// premte"), words joined by a hyphen or an apostrophe ("an-diugh"), or a
// word of a script without spaces ("金曜日").
func phraseWord(w string) bool {
	return len(cldrWordRE.FindAllString(w, 2)) > 1 || cjkWord(w)
}

// weekdayPhrases are the weekday names of weekdays that phraseWord
// finds in a text rather than among its words.
var weekdayPhrases = sync.OnceValue(func() []string {
	var out []string
	for w := range weekdays() {
		if phraseWord(w) {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return out
})

// weekdayPhraseIn finds in l the longest weekday name that is a phrase
// (phraseWord): the language lang's first, then any language's
// (weekdayPhrases).
func weekdayPhraseIn(l, lang string) (string, time.Weekday, bool) {
	found, day := "", time.Weekday(0)
	if loc, ok := cldrLocales()[langKey(lang)]; ok {
		for d, names := range loc.weekdays {
			for _, name := range names {
				if len(name) > len(found) && phraseWord(name) && utf8.RuneCountInString(name) >= 2 && strings.Contains(l, name) {
					found, day = name, time.Weekday(d)
				}
			}
		}
	}
	if found == "" {
		for _, w := range weekdayPhrases() {
			if len(w) > len(found) && strings.Contains(l, w) {
				found, day = w, weekdays()[w]
			}
		}
	}
	return found, day, found != ""
}

// weekdayIn reads a weekday name: first as one of the language lang's
// (CLDR's), also inflected ("пятніцу" of "пятніца", "vendredon" of
// "vendredo": five letters alike, endings of at most two), then as any
// language's that no other gives another day (weekdays).
func weekdayIn(w, lang string) (time.Weekday, bool) {
	if loc, ok := cldrLocales()[langKey(lang)]; ok {
		n := utf8.RuneCountInString(w)
		for d, names := range loc.weekdays {
			for _, name := range names {
				if w == name {
					return time.Weekday(d), true
				}
				p, nn := commonPrefix(w, name), utf8.RuneCountInString(name)
				if p >= 5 && n-p <= 2 && nn-p <= 2 || p >= 3 && nn >= 5 && nn-p <= 2 && n-p <= 2 {
					return time.Weekday(d), true
				}
			}
		}
	}
	wd, ok := weekdays()[w]
	return wd, ok
}

// undotted drops the dots of abbreviations ("3 ч. назад", "vor 3 Std."),
// apostrophes ("3 eur ʼzo") and the marks that end words (bareEnd), and
// collapses spaces: text and patterns abbreviate, elide and spell alike
// with or without them.
func undotted(s string) string {
	f := strings.Fields(undotter.Replace(s))
	for i, w := range f {
		f[i] = bareEnd(w)
	}
	return strings.Join(f, " ")
}

// bareEnd drops the nonspacing marks that end a word: the nasal mark
// or vowel sign some spellings add ("પહેલાં" and "પહેલા", "સાંજે" and
// "સાંજ"), the tanwin of Arabic ("ثوانٍ").
func bareEnd(w string) string {
	return strings.TrimRightFunc(w, func(r rune) bool { return unicode.Is(unicode.Mn, r) })
}

var undotter = strings.NewReplacer(".", " ", "'", " ", "ʼ", " ")

// stemPast is one language's past relative-time words split as its
// patterns use them: marker words stand in the patterns of four units or
// more ("vor", "ago", "назад", "ಹಿಂದೆ"), unit words in fewer ("stunden").
type stemPast struct {
	markers map[string]bool
	units   map[string]int // word → unit; -1 for a word of several units
}

// stemTables are the words of every language's past patterns (CLDR's and
// date-fns's), and the languages of each marker word.
var stemTables = sync.OnceValues(func() (map[string]*stemPast, map[string][]string) {
	units := map[string]map[string]map[int]bool{} // lang → word → units
	for _, p := range pastTables().patterns {
		lang := langKey(p.lang)
		if units[lang] == nil {
			units[lang] = map[string]map[int]bool{}
		}
		for _, w := range cldrWordRE.FindAllString(p.prefix+" "+p.suffix, -1) {
			if units[lang][w] == nil {
				units[lang][w] = map[int]bool{}
			}
			units[lang][w][p.unit] = true
		}
	}
	out, markers := map[string]*stemPast{}, map[string][]string{}
	for lang, words := range units {
		sp := &stemPast{markers: map[string]bool{}, units: map[string]int{}}
		for w, us := range words {
			switch {
			case len(us) >= 4:
				if utf8.RuneCountInString(w) >= 2 {
					sp.markers[w] = true
					markers[w] = append(markers[w], lang)
				}
			case len(us) == 1:
				for u := range us {
					sp.units[w] = u
				}
			default:
				sp.units[w] = -1
			}
		}
		out[lang] = sp
	}
	for _, langs := range markers {
		slices.Sort(langs)
	}
	return out, markers
})

// stemOf: w is a form of word: they share three letters or more and
// differ only in endings of at most three ("mìosan" of "mìos",
// "ನಿಮಿಷ" of "ನಿಮಿಷಗಳ").
func stemOf(w, word string) bool {
	p := commonPrefix(w, word)
	return p >= 3 && utf8.RuneCountInString(w)-p <= 3 && utf8.RuneCountInString(word)-p <= 3
}

// parseStemAgo reads a past relative date whose unit word is inflected
// otherwise than the patterns have it ("bho chionn 2 mìosan", "5 ನಿಮಿಷ
// ಹಿಂದೆ"): a short text with a marker word of a language, a form of one
// of that language's unit words, a number or none (one), and at most one
// word more ("ein", "a"). The page's language is tried first.
func parseStemAgo(l, lang string, now time.Time) (time.Time, bool) {
	if timeRE.MatchString(l) {
		return time.Time{}, false // a time of day: a named day's ("جمعه پیش ساعت 14:05")
	}
	l = undotted(l)
	words := cldrWordRE.FindAllString(l, -1)
	if len(words) == 0 || len(words) > 5 {
		return time.Time{}, false
	}
	stemPasts, stemMarkers := stemTables()
	var langs []string
	if _, ok := stemPasts[langKey(lang)]; ok {
		langs = append(langs, langKey(lang))
	}
	for _, w := range words {
		langs = append(langs, stemMarkers[w]...)
	}
	for _, lg := range langs {
		sp := stemPasts[lg]
		unit, marked, others := -1, false, 0
		for _, w := range words {
			// The page's language's units take any language's marker
			// ("5 منٹ قبل": an Urdu unit, an Arabic marker).
			if sp.markers[w] || lg == langKey(lang) && len(stemMarkers[w]) > 0 {
				marked = true
				continue
			}
			u, ok := sp.units[w]
			if !ok {
				u = -1
				for word, wu := range sp.units {
					if stemOf(w, word) {
						if ok && u != wu {
							u = -1
							break
						}
						u, ok = wu, true
					}
				}
			}
			if ok && u >= 0 && unit < 0 {
				unit = u
			} else {
				others++
			}
		}
		if marked && unit < 0 && others >= 1 && others <= 3 && !strings.ContainsFunc(l, unicode.IsDigit) {
			// A few moments before now, in words no unit names ("कुछ
			// ही क्षण पहले", "a little while ago").
			return now, true
		}
		if !marked || unit < 0 || others > 1 {
			continue
		}
		n := 1
		if d := digitRunRE.FindString(l); d != "" {
			n, _ = strconv.Atoi(d)
		}
		if m := cldrUnitMonths[unit]; m > 0 {
			return now.AddDate(0, -n*m, 0), true
		}
		return now.Add(-time.Duration(n) * cldrUnits[unit]), true
	}
	return time.Time{}, false
}
