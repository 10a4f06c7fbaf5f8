package kb

import (
	"encoding/json"
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

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// ParseDateAt reads a date as ParseDate does and, failing that, as
// templates across the long tail print them: month names of more
// languages (Italian, Portuguese, Russian, Polish, Czech, Swedish,
// Danish, Norwegian, Finnish, Turkish), a post number before the date
// ("#2 21. Apr 2020"), and dates relative to now, the capture time: "2
// hours ago", "vor 3 Tagen", "il y a 2 jours", "hace 5 minutos", "3
// giorni fa", "2 dagen geleden", "há 2 dias", "5 дней назад",
// "yesterday at 10:20", "gestern, 18:03", "Sunday at 3:15 PM", a time
// alone ("14:05", today's), and a day and month without a year ("March
// 30", the latest such day up to now). Relative phrases, day words and
// day periods are read in every language of CLDR's data
// (cldrLocales) and date-fns's (dateFnsPast) besides the hand-written
// ones below; month and weekday names in every language of the C
// library's locales (localeMonths) and of CLDR. Digits of any script
// are read.
// With a zero now, relative dates are not read.
func ParseDateAt(s, lang string, now time.Time) (time.Time, bool) {
	return parseDateAt(s, lang, numericOrder(lang), now)
}

// parseDateAt is ParseDateAt with all-numeric dates read in order. A
// date the language lang does not read is read in any language: pages
// declare the language of their template, not always of their posts
// (lang="en" over "3. März 2020").
func parseDateAt(s, lang string, order int, now time.Time) (time.Time, bool) {
	if t, ok := readDateAt(s, lang, order, now); ok || langKey(lang) == "" {
		return t, ok
	}
	return readDateAt(s, "", order, now)
}

func readDateAt(s, lang string, order int, now time.Time) (time.Time, bool) {
	if t, ok := parseDateIn(s, lang, order); ok {
		return t, true
	}
	l := strings.ToLower(strings.TrimSpace(foldDate(s)))
	if l == "" || len(l) > 80 {
		return time.Time{}, false
	}
	// Month words of the further languages are read as English ones,
	// unless the page is in a language whose own words ParseDateIn knows.
	months, local := monthsOf(lang), l
	if _, known := monthWords()[langKey(lang)]; !known || langKey(lang) == "" {
		local, months = localMonths(l), monthWords()[""]
		if t, ok := parseHuman(local, months, order, ""); ok {
			return t, true
		}
	}
	if t, ok := parseShortMonth(l, lang, order); ok {
		return t, true
	}
	if now.IsZero() {
		return time.Time{}, false
	}
	now = now.UTC()
	if t, ok := parseCLDRAgo(l, lang, now); ok {
		return t, true
	}
	if isNow(l) {
		return now, true
	}
	if t, ok := parseAgo(l, now); ok {
		return t, true
	}
	if t, ok := parseStemAgo(l, lang, now); ok {
		return t, true
	}
	if t, ok := parseNamedDay(l, lang, now); ok {
		return t, true
	}
	if timeOnlyRE.MatchString(l) {
		// A time alone is today's ("14:05" beside yesterday's dates),
		// yesterday's when later than now.
		t, _ := parseNamedDay("today "+l, "", now)
		if t.After(now) {
			t = t.AddDate(0, 0, -1)
		}
		return t, true
	}
	return parseYearless(local, months, now)
}

// localMonths rewrites the whole words of l that are month names of the
// languages months lacks into English abbreviations.
func localMonths(l string) string {
	return letterRunRE.ReplaceAllStringFunc(l, func(w string) string {
		if m, ok := moreMonths()[w]; ok {
			return monthAbbr[m-1]
		}
		return w
	})
}

var (
	letterRunRE = regexp.MustCompile(`[\pL\pM]+`)
	monthAbbr   = [12]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	moreMonths  = sync.OnceValue(func() map[string]int {
		out := map[string]int{}
		for _, names := range []string{
			"gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
			"janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
			"января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
			"январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",
			"stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia",
			"ledna února března dubna května června července srpna září října listopadu prosince",
			"januari februari mars april maj juni juli augusti september oktober november december",
			"januar februar marts april maj juni juli august september oktober november december",
			"januar februar mars april mai juni juli august september oktober november desember",
			"tammikuuta helmikuuta maaliskuuta huhtikuuta toukokuuta kesäkuuta heinäkuuta elokuuta syyskuuta lokakuuta marraskuuta joulukuuta",
			"ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık",
		} {
			for i, n := range strings.Fields(names) {
				if _, ok := out[n]; !ok {
					out[n] = i + 1
				}
			}
		}
		return out
	})
)

// Relative dates ("3 days ago", "vor 3 Tagen", "il y a 2 jours", "3 天前")
// are read as a past marker, a unit and a number (one when a word such
// as "an" or none stands for it), in a short text. The words are the
// ones CLDR's relative-time patterns use in the languages below; they
// are matched whole, or as a stem for the units' inflected forms.

// agoMarkers say "before now": words and phrases matched whole, and
// markers of scripts written without spaces (前, 전) matched anywhere.
var (
	agoMarkers = []string{"ago", "vor", "il y a", "hace", "fa", "geleden", "há", "назад", "тому", "temu", "před",
		"pred", "sedan", "siden", "sitten", "önce", "lalu", "trước", "πριν", "לפני", "منذ", "tagasi", "atpakaļ",
		"prieš", "ezelőtt", "în urmă", "prije", "пре", "преди", "yang lalu", "acum", "hai", "duela", "gelede", "eest",
		"pirms", "pre", "pred"}
	agoMarkersCJK = []string{"前", "전"}
)

// agoUnits: per unit, stems matched at a word's start (four letters or
// more, or whole words when shorter) and units of scripts without spaces.
var agoUnits = []struct {
	stems, whole, cjk []string
	d                 time.Duration
	month             int
}{
	{[]string{"sec", "sek", "seg", "sekund", "saniye", "másodperc", "giây", "detik", "сек", "δευτ"}, nil, []string{"秒", "초"}, time.Second, 0},
	{[]string{"min", "perc", "dakika", "phút", "menit", "мин", "хвилин", "λεπτ"}, nil, []string{"分", "분"}, time.Minute, 0},
	{[]string{"hour", "stund", "heure", "hora", "uur", "godzin", "hodin", "timm", "time", "tunti", "tuntia", "saat", "óra", "órá", "giờ", "час", "годин", "ώρ", "שע", "ساع", "tund", "tunni", "valand", "sati", "ceas", "ore", "ordu", "urami", "uri", "hores"}, []string{"hr", "hrs", "h", "ora", "jam", "t", "uur", "ur"}, []string{"時間", "小时", "小時", "시간"}, time.Hour, 0},
	{[]string{"day", "tag", "jour", "día", "dia", "giorn", "dag", "dni", "dzień", "dny", "dnem", "den", "päiv", "gün", "nap", "ngày", "hari", "дн", "ден", "день", "μέρ", "ημέρ", "יום", "ימים", "يوم", "أيام", "päev", "dien", "zile", "dae", "dana", "dnevi", "dňami", "døgn", "egun", "dies"}, []string{"d", "zi", "dag", "dan"}, []string{"天", "日", "일"}, 24 * time.Hour, 0},
	{[]string{"week", "woche", "semaine", "semana", "settiman", "tydz", "tygod", "týd", "tyd", "veck", "uge", "uke", "viik", "hafta", "hét", "tuần", "minggu", "недел", "тижн", "εβδομ", "שבוע", "أسبوع", "nädal", "nedēļ", "savait", "săptăm", "tjed", "weke", "weken", "tedn", "týždň", "nedelj", "седмиц", "aste", "setman"}, []string{"wk", "wks", "w"}, []string{"周", "週", "주"}, 7 * 24 * time.Hour, 0},
	{[]string{"month", "monat", "mois", "mes", "mese", "mesi", "maand", "mês", "meses", "miesi", "měsí", "mesí", "månad", "måned", "kuukau", "hónap", "tháng", "bulan", "месяц", "місяц", "μήν", "μην", "חוד", "شهر", "mēneš", "mėnes", "luni", "luna", "mjesec", "mesec", "месец", "maande", "hilabete"}, []string{"mo", "mos", "ay", "kuu"}, []string{"个月", "個月", "か月", "ヶ月", "ケ月", "개월", "달"}, 0, 1},
	{[]string{"year", "jahr", "année", "año", "anno", "anni", "jaar", "ano", "anos", "lata", "roky", "roku", "vuo", "yıl", "năm", "tahun", "год", "лет", "рок", "χρόν", "שנ", "سن", "aasta", "gad", "godin", "rok", "urte", "έτ", "рік", "let", "év", "jaar", "metu", "metų", "metai"}, []string{"an", "ans", "any", "anys", "yr", "yrs", "y", "lat", "år"}, []string{"年", "년"}, 0, 12},
}

// oneWords stand for the number one ("an hour ago", "vor einer Stunde").
var oneWords = map[string]bool{"a": true, "an": true, "one": true, "ein": true, "eine": true, "einer": true, "einem": true,
	"un": true, "une": true, "uno": true, "una": true, "um": true, "uma": true, "een": true, "один": true, "одну": true,
	"jeden": true, "jedna": true, "jednu": true, "en": true, "ett": true, "et": true, "yksi": true, "bir": true, "egy": true, "một": true}

func parseAgo(l string, now time.Time) (time.Time, bool) {
	if utf8.RuneCountInString(l) > 48 {
		return time.Time{}, false
	}
	words := letterRunRE.FindAllString(l, -1)
	marked := false
	for _, m := range agoMarkers {
		if strings.Contains(m, " ") {
			marked = marked || strings.Contains(l, m)
		} else {
			marked = marked || slices.Contains(words, m)
		}
	}
	for _, m := range agoMarkersCJK {
		marked = marked || strings.Contains(l, m)
	}
	if !marked {
		if strings.Contains(l, "just now") || strings.Contains(l, "gerade eben") || strings.Contains(l, "à l'instant") {
			return now, true
		}
		return time.Time{}, false
	}
	n := -1
	if d := digitRunRE.FindString(l); d != "" {
		n, _ = strconv.Atoi(d)
	}
	for _, w := range words {
		if n < 0 && oneWords[w] {
			n = 1
		}
	}
	best, bestLen := -1, 0
	for i, u := range agoUnits {
		if k := agoUnitIn(l, words, u.stems, u.whole, u.cjk); k > bestLen {
			best, bestLen = i, k
		}
	}
	if best < 0 {
		return time.Time{}, false
	}
	if n < 0 {
		n = 1 // "час назад", "hace una hora"
	}
	if u := agoUnits[best]; u.month > 0 {
		return now.AddDate(0, -n*u.month, 0), true
	} else {
		return now.Add(-time.Duration(n) * u.d), true
	}
}

// agoUnitIn is the length of the longest unit word of l: a stem at a
// word's start, a whole word, or a unit of a script without spaces
// anywhere in l; 0 when there is none. The longest wins: "minggu" (a
// week) begins like "min".
func agoUnitIn(l string, words, stems, whole, cjk []string) int {
	best := 0
	for _, w := range words {
		if slices.Contains(whole, w) {
			best = max(best, len(w))
		}
		for _, st := range stems {
			if strings.HasPrefix(w, st) {
				best = max(best, len(st))
			}
		}
	}
	for _, c := range cjk {
		if strings.Contains(l, c) {
			best = max(best, len(c))
		}
	}
	return best
}

var (
	// dotClockRE is a time of day written with a dot, the dot's place
	// submatched.
	dotClockRE  = regexp.MustCompile(`(?:^|[^\d.])\d{1,2}(\.)\d{2}(?:$|[^\d.])`)
	digitRunRE  = regexp.MustCompile(`\d+`)
	shortYearRE = regexp.MustCompile(`['’‘]\d{2}\b`)
)

// baseDayWords are "today" and "yesterday" in the forums' languages, as
// days before now; dayWords adds CLDR's.
var baseDayWords = map[string]int{
	"today": 0, "heute": 0, "aujourd'hui": 0, "hoy": 0, "oggi": 0, "vandaag": 0, "hoje": 0, "сегодня": 0, "dzisiaj": 0, "idag": 0, "i dag": 0,
	"dnes": 0, "tänään": 0, "bugün": 0, "hôm nay": 0, "hari ini": 0, "今天": 0, "今日": 0, "오늘": 0, "σήμερα": 0, "сьогодні": 0,
	"yesterday": 1, "gestern": 1, "hier": 1, "ayer": 1, "ieri": 1, "gisteren": 1, "ontem": 1, "вчера": 1, "wczoraj": 1, "igår": 1, "i går": 1,
	"včera": 1, "eilen": 1, "dün": 1, "tegnap": 1, "hôm qua": 1, "kemarin": 1, "昨天": 1, "昨日": 1, "어제": 1, "χθες": 1, "вчора": 1,
}

// dayJoiners are the words between a day and its time ("at", "um").
var dayJoiners = map[string]bool{"at": true, "um": true, "à": true, "a": true, "las": true, "alle": true, "om": true, "в": true, "o": true, "kl": true, "klo": true, "uhr": true, "h": true}

// weekdays are weekday names by time.Weekday: English, German, French,
// Spanish, Italian and Dutch, and the C library's locales' and CLDR's
// names that wholeName finds safe and no language gives another day.
var weekdays = sync.OnceValue(func() map[string]time.Weekday {
	out := map[string]time.Weekday{}
	for _, names := range []string{
		"sunday monday tuesday wednesday thursday friday saturday",
		"sonntag montag dienstag mittwoch donnerstag freitag samstag",
		"dimanche lundi mardi mercredi jeudi vendredi samedi",
		"domingo lunes martes miércoles jueves viernes sábado",
		"domenica lunedì martedì mercoledì giovedì venerdì sabato",
		"zondag maandag dinsdag woensdag donderdag vrijdag zaterdag",
	} {
		for i, n := range strings.Fields(names) {
			out[n] = time.Weekday(i)
		}
	}
	claimed := map[string]int{}
	for _, names := range localeWeekdays() {
		for i, ws := range names {
			for _, w := range ws {
				if c, ok := claimed[w]; ok && c != i {
					claimed[w] = -1
				} else if !ok {
					claimed[w] = i
				}
			}
		}
	}
	for w, d := range claimed {
		if _, ok := out[w]; !ok && d >= 0 && wholeName(w) && monthWords()[""][w] == 0 {
			out[w] = time.Weekday(d)
		}
	}
	addCLDRWeekdays(out)
	return out
})

// parseNamedDay reads "yesterday at 10:20", "heute, 09:12" or "Sunday at
// 3:15 PM" (the latest such weekday up to now): a day word with an
// optional time of day and little else.
func parseNamedDay(l, lang string, now time.Time) (time.Time, bool) {
	day := -1
	rest := l
	words := letterRunRE.FindAllString(l, -1)
	// The longest day word: whole words; phrases ("i dag") and words of
	// scripts without spaces anywhere.
	found := ""
	for _, w := range words {
		if _, ok := dayWords()[w]; ok && len(w) > len(found) {
			found = w
		}
	}
	for _, w := range dayPhrases() {
		if len(w) > len(found) && strings.Contains(l, w) {
			found = w
		}
	}
	if found != "" {
		day, rest = dayWords()[found], strings.Replace(l, found, " ", 1)
	}
	if day < 0 {
		for _, w := range words {
			if wd, ok := weekdayIn(w, lang); ok {
				day, rest = (int(now.Weekday())-int(wd)+7)%7, strings.Replace(l, w, " ", 1)
				break
			}
		}
	}
	if day < 0 {
		if w, wd, ok := weekdayPhraseIn(l, lang); ok {
			day, rest = (int(now.Weekday())-int(wd)+7)%7, strings.Replace(l, w, " ", 1)
		}
	}
	if day < 0 {
		return time.Time{}, false
	}
	// A time written with a dot ("klo 14.05", "pukul 08.00") is the only
	// number of such a text.
	if !timeRE.MatchString(l) {
		if m := dotClockRE.FindStringSubmatchIndex(l); m != nil {
			l = l[:m[2]] + ":" + l[m[2]+1:]
			rest = dotClockRE.ReplaceAllString(rest, " ")
		}
	}
	// Nothing else but a time of day and the words joining it; with a
	// time, a few words of a header line too ("ann wrote yesterday at
	// 10:20").
	others := 0
	untimed := timeRE.ReplaceAllString(rest, " ")
	for _, w := range letterRunRE.FindAllString(untimed, -1) {
		if !dayJoiners[w] {
			others++
		}
	}
	if others > 0 && (!timeRE.MatchString(l) || others > 4) {
		return time.Time{}, false
	}
	if timeRE.MatchString(l) && strings.ContainsFunc(untimed, unicode.IsDigit) {
		return time.Time{}, false // a date's numbers besides the time ("Sunday, 25 … 2022, 12:00")
	}
	hour, min := 0, 0
	if m := timeRE.FindStringSubmatch(l); m != nil {
		hour, _ = strconv.Atoi(m[1])
		min, _ = strconv.Atoi(m[2])
		half := m[4]
		if half == "" {
			half = clockHalf(l) // "दोपहर 2:05", "下午 2:05"
		}
		hour = clockHour(hour, half)
	} else if strings.ContainsFunc(l, unicode.IsDigit) {
		return time.Time{}, false // numbers that are no time of day
	}
	d := now.AddDate(0, 0, -day)
	return time.Date(d.Year(), d.Month(), d.Day(), hour, min, 0, 0, time.UTC), true
}

// parseYearless reads a day and a month without a year ("March 30",
// "Thursday 23rd April") as the latest such day up to now.
func parseYearless(l string, months map[string]int, now time.Time) (time.Time, bool) {
	if shortYearRE.MatchString(l) {
		return time.Time{}, false // "Mar '19" is March 2019, no day of it
	}
	month, day, nums := 0, 0, 0
	for _, tok := range tokenRE.FindAllString(l, -1) {
		if tok[0] >= '0' && tok[0] <= '9' {
			nums++
			day, _ = strconv.Atoi(tok)
			continue
		}
		if month == 0 {
			month = months[tok]
		}
	}
	if month == 0 || nums != 1 || day < 1 || day > 31 {
		return time.Time{}, false
	}
	t := time.Date(now.Year(), time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if t.After(now) {
		t = t.AddDate(-1, 0, 0)
	}
	return t, true
}

// RelativeDate reports a date that can be read only against the capture
// time ("2 hours ago", "Sunday 8th March"): one ParseDateAt reads with a
// capture time and not without.
func RelativeDate(s string) bool {
	if _, ok := ParseDateAt(s, "", time.Time{}); ok {
		return false
	}
	_, ok := ParseDateAt(s, "", refTime)
	return ok
}

// refTime stands for a capture time where any will do: to tell a
// relative date, and for mining to see one as a date.
var refTime = time.Date(2013, 7, 1, 0, 0, 0, 0, time.UTC)

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
					if t, ok := parseStated(attr(n, "content")); ok {
						meta = t
					}
				}
			}
			if ip := attr(n, "itemprop"); (ip == "datePublished" || ip == "dateCreated") && micro.IsZero() {
				for _, a := range []string{"datetime", "content"} {
					if t, ok := parseStated(attr(n, a)); ok {
						micro = t
						break
					}
				}
			}
			if n.DataAtom == atom.Time && timeEl.IsZero() {
				if t, ok := parseStated(attr(n, "datetime")); ok {
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
					if t, ok := parseStated(s); ok {
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

// cjkWord: a word of a script written without spaces (Chinese,
// Japanese, Korean, Thai, Lao, Khmer, Burmese, Tibetan), found anywhere
// in a text.
func cjkWord(w string) bool {
	for _, r := range w {
		if unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao,
			unicode.Khmer, unicode.Myanmar, unicode.Tibetan) {
			return true
		}
	}
	return false
}

// shortMonths are the C library's locales' month abbreviations of fewer
// than four letters that every language writing them gives the same
// month and none uses for a weekday ("gen", "sty", "kas", "янв"); too
// short to read in running text (monthWords), they are read in a string
// that is a whole date (parseShortMonth).
var shortMonths = sync.OnceValue(func() map[string]int {
	claimed := localeMonthClaims()
	for _, names := range localeWeekdays() {
		for _, ws := range names {
			for _, w := range ws {
				claimed[w] = -1
			}
		}
	}
	out := map[string]int{}
	for w, m := range claimed {
		if m > 0 && !wholeName(w) && monthWords()[""][w] == 0 && utf8.RuneCountInString(w) >= 3 {
			out[w] = m
		}
	}
	return out
})

// parseShortMonth reads a date of a language not known (lang "" or one
// whose words monthWords lacks) whose month is a short abbreviation
// (shortMonths): "4 gen 2023", "7 мар. 2019 г., 14:05", "23 Kas 2021
// 09:41". Only a string that is a date and nothing else is read: one
// such month word, a four-digit year, and besides numbers only words of
// one or two letters ("de", "г.", "o"), weekday names and a clock's
// half.
func parseShortMonth(l, lang string, order int) (time.Time, bool) {
	if _, known := monthWords()[langKey(lang)]; known && langKey(lang) != "" {
		return time.Time{}, false
	}
	month, year := "", false
	for _, tok := range tokenRE.FindAllString(l, -1) {
		if tok[0] >= '0' && tok[0] <= '9' {
			if n, _ := strconv.Atoi(tok); len(tok) == 4 && n >= 1990 && n <= 2100 {
				year = true
			}
			continue
		}
		switch _, short := shortMonths()[tok]; {
		case short && month == "":
			month = tok
		case utf8.RuneCountInString(tok) <= 2 || weekdayWord(tok, "") || halfTables().whole[tok] != "":
		default:
			return time.Time{}, false
		}
	}
	if month == "" || !year {
		return time.Time{}, false
	}
	l = letterRunRE.ReplaceAllStringFunc(l, func(w string) string {
		if w == month {
			return monthAbbr[shortMonths()[w]-1]
		}
		return w
	})
	return parseHuman(l, monthWords()[""], order, "")
}
