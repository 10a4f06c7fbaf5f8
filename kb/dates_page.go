package kb

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// DateContext is what a page tells about reading its dates as a whole:
// the language of their words, declared (the html lang attribute, the
// Content-Language header) or else inferred from the words of the
// page's dates themselves; the order of its all-numeric dates, fixed by
// any of them that can be read one way only (a day above 12) or else the
// language's; and the capture time that relative dates count back from.
type DateContext struct {
	Lang, Declared string
	Order          int
	Now            time.Time
}

// NewDateContext weighs the date texts of one page (its posts' dates,
// say) with the page's declared language (may be "") and capture time.
func NewDateContext(texts []string, declared string, now time.Time) DateContext {
	lang := declared
	if _, known := cldrLocales()[langKey(lang)]; !known {
		if inferred := InferDateLang(texts); inferred != "" {
			lang = inferred
		}
	}
	order := numericOrder(lang)
	if lang != declared && langKey(lang) == "en" {
		// English is written in both orders; CLDR's "en" is the US.
		order = numericOrder("")
	}
	if o, ok := pageOrder(texts); ok {
		order = o
	}
	return DateContext{Lang: lang, Declared: declared, Order: order, Now: now}
}

// Parse reads one of the page's dates as ParseDateAt does, in the page's
// language and order; a date the inferred language does not read is read
// as in the declared one (any language's words when none is).
func (c DateContext) Parse(s string) (time.Time, bool) {
	if t, ok := parseDateAt(s, c.Lang, c.Order, c.Now); ok || c.Lang == c.Declared {
		return t, ok
	}
	return parseDateAt(s, c.Declared, c.Order, c.Now)
}

// allNumericDateRE is an all-numeric date: three numbers with one
// separator between each ("22.02.2019", "3/7/19", "2019-02-22").
var allNumericDateRE = regexp.MustCompile(`(?:^|[^\d])(\d{1,4})\s*([./-])\s*(\d{1,2})\s*([./-])\s*(\d{2,4})(?:$|[^\d])`)

// pageOrder is the order of the all-numeric dates of texts where one of
// them can be read one way only: a first number above 12 (and at most
// 31) is a day, a second one above 12 a day after a month, a first one
// of four digits a year. When they disagree, the more frequent wins; no
// order when none decides or as many decide each way.
func pageOrder(texts []string) (int, bool) {
	var votes [3]int
	for _, t := range texts {
		m := allNumericDateRE.FindStringSubmatch(asciiDigits(t))
		if m == nil || m[2] != m[4] {
			continue
		}
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[3])
		switch {
		case len(m[1]) == 4:
			votes[yearFirst]++
		case a > 12 && a <= 31 && b <= 12:
			votes[dayFirst]++
		case b > 12 && b <= 31 && a <= 12:
			votes[monthFirst]++
		}
	}
	best, second := 0, 0
	for o := range votes {
		if votes[o] > votes[best] {
			best = o
		}
	}
	for o := range votes {
		if o != best {
			second = max(second, votes[o])
		}
	}
	if votes[best] == 0 || votes[best] == second {
		return 0, false
	}
	return best, true
}

// dateLangs maps each date word of CLDR, date-fns and the C library's
// locales (month and weekday names, relative day words, the words of
// past relative-time patterns) to the languages that write it.
var dateLangs = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	add := func(w, lang string) {
		for _, l := range m[w] {
			if l == lang {
				return
			}
		}
		m[w] = append(m[w], lang)
	}
	for lang, names := range localeMonths() {
		for _, ws := range names {
			for _, w := range ws {
				add(w, lang)
			}
		}
	}
	for lang, loc := range cldrLocales() {
		lang = langKey(lang)
		for _, ws := range loc.months {
			for _, w := range ws {
				add(w, lang)
			}
		}
		for _, ws := range loc.weekdays {
			for _, w := range ws {
				add(w, lang)
			}
		}
		for w := range loc.days {
			add(w, lang)
		}
		for _, pats := range loc.past {
			for _, p := range pats {
				for _, w := range cldrWordRE.FindAllString(p, -1) {
					add(w, lang)
				}
			}
		}
	}
	for lang, past := range dateFnsPast() {
		for _, pats := range past {
			for _, p := range pats {
				for _, w := range cldrWordRE.FindAllString(p, -1) {
					add(w, langKey(lang))
				}
			}
		}
	}
	return m
})

// InferDateLang is the language whose date words the texts use most
// ("", when none or a tie): each word counts for the languages that
// write it, a word of fewer languages more, since it tells them apart
// ("oktober" is Danish, Dutch, German, Norwegian and Swedish; "okt." of
// fewer; "marraskuuta" Finnish alone).
func InferDateLang(texts []string) string {
	words := dateLangs()
	score := map[string]float64{}
	for _, t := range texts {
		for _, w := range cldrWordRE.FindAllString(foldDate(strings.ToLower(t)), -1) {
			langs := words[w]
			for _, l := range langs {
				score[l] += 1 / float64(len(langs))
			}
		}
	}
	best, bestScore, tie := "", 0.0, false
	for l, s := range score {
		switch {
		case s > bestScore+1e-9:
			best, bestScore, tie = l, s, false
		case s > bestScore-1e-9:
			tie = true
			if l < best {
				best = l // a deterministic answer, dropped below
			}
		}
	}
	if tie {
		return ""
	}
	return best
}

// reconcileDates reads again, with the context of all of them, the dates
// that objs read from their text alone: the numeric order and the
// language of the page's dates decide where one date alone could not.
// Dates read from machine-readable attributes are kept.
func reconcileDates(objs []Object, doc *vdoc.Doc) {
	jsonLDDates(objs, doc)
	var texts []string
	for _, o := range objs {
		if o.DateText != "" {
			texts = append(texts, o.DateText)
		}
	}
	if len(texts) < 2 {
		return
	}
	declared, now := DocLang(doc.Root, doc.Header), CaptureTime(doc)
	ctx := NewDateContext(texts, declared, now)
	if ctx.Lang == declared && ctx.Order == numericOrder(declared) {
		return
	}
	for i := range objs {
		o := &objs[i]
		if o.DateText == "" || o.Date.IsZero() {
			continue
		}
		alone, ok := ParseDateAt(o.DateText, declared, now)
		if !ok || !alone.Equal(o.Date) {
			continue // read from an attribute
		}
		if t, ok := ctx.Parse(o.DateText); ok {
			o.Date = t
		}
	}
}

// machineDateAttrs are the attributes that state a date for machines
// alone: HTML's datetime and the epochs or dates of data attributes.
var machineDateAttrs = []string{"datetime", "data-time", "data-timestamp", "data-utime", "data-epoch", "data-datetime", "data-date"}

// datePropRE is a microdata property naming a date (dateCreated,
// datePublished, dateModified, uploadDate, commentTime).
var datePropRE = regexp.MustCompile(`(?i)^(?:date[A-Z]\w*|\w+Date|\w+Time)$`)

// statesDate tells an element that states a date for machines: one of
// machineDateAttrs, or the content of a microdata date property
// (<span itemprop="dateCreated" content="2024-03-02T10:15:00Z">).
func statesDate(n *html.Node) bool {
	for _, a := range machineDateAttrs {
		if attr(n, a) != "" {
			return true
		}
	}
	return attr(n, "content") != "" && datePropRE.MatchString(attr(n, "itemprop"))
}

// statedDate reads the date an element states for machines (statesDate).
func statedDate(n *html.Node) (time.Time, bool) {
	for _, a := range machineDateAttrs {
		if v := attr(n, a); v != "" {
			if t, ok := parseStated(v); ok {
				return t, true
			}
		}
	}
	if datePropRE.MatchString(attr(n, "itemprop")) {
		return parseStated(attr(n, "content"))
	}
	return time.Time{}, false
}

// parseStated reads a date stated for machines (an attribute, a meta
// tag, JSON-LD). A null timestamp printed as a date, the Unix epoch
// ("1970-01-01T00:00:00+0000", data-time="0"), is a placeholder some
// engines write where they have no date: no date at all.
func parseStated(s string) (time.Time, bool) {
	t, ok := ParseDate(s)
	if !ok || t.Unix() == 0 {
		return time.Time{}, false
	}
	return t, true
}

// dateAttrs are the attributes templates state a date in for machines:
// HTML's datetime, microdata's content, the epoch seconds or
// milliseconds of data-time (XenForo, Discourse), data-timestamp,
// data-utime and data-epoch, and the full date of an abbreviated one in
// a title ("<abbr title="Thursday, 7 March 2019 14:05">7 Mar</abbr>").
var dateAttrs = []string{"datetime", "content", "data-time", "data-timestamp", "data-utime", "data-epoch",
	"data-datetime", "data-date", "title"}

// attrDate reads the date an element states in an attribute, else the
// one a small element inside it states (<span class="date"><time
// datetime=…>); the value read comes back too.
func attrDate(n *html.Node, lang string) (time.Time, string, bool) {
	if t, v, ok := ownAttrDate(n, lang); ok {
		return t, v, true
	}
	if len(Text(n)) > 80 {
		return time.Time{}, "", false // a block of text: its dates are no one date's
	}
	var found func(n *html.Node) (time.Time, string, bool)
	found = func(n *html.Node) (time.Time, string, bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if t, v, ok := ownAttrDate(c, lang); ok {
				return t, v, true
			}
			if t, v, ok := found(c); ok {
				return t, v, true
			}
		}
		return time.Time{}, "", false
	}
	return found(n)
}

func ownAttrDate(n *html.Node, lang string) (time.Time, string, bool) {
	for _, a := range dateAttrs {
		if v := attr(n, a); v != "" {
			if t, ok := ParseDateIn(v, lang); ok {
				return t, v, true
			}
		}
	}
	return time.Time{}, "", false
}

// ldItem is a dated post or comment of a page's JSON-LD.
type ldItem struct {
	author, text string
	date         time.Time
}

// jsonLDDates dates objects by the page's JSON-LD: a post or comment
// listed there (a Comment, a DiscussionForumPosting, an Answer…, under
// comment, hasPart, @graph, mainEntity, suggestedAnswer, acceptedAnswer
// or a list) with dateCreated or datePublished is matched to the object
// whose text begins alike, else to the only object of its author, and
// its date, stated for machines, replaces one read from text.
func jsonLDDates(objs []Object, doc *vdoc.Doc) {
	var items []ldItem
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Script && attr(n, "type") == "application/ld+json" && n.FirstChild != nil {
			var v any
			if json.Unmarshal([]byte(n.FirstChild.Data), &v) == nil {
				items = ldItems(v, 0, items)
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc.Root)
	if len(items) == 0 {
		return
	}
	byAuthor := map[string]int{}
	for _, o := range objs {
		byAuthor[o.Author]++
	}
	for _, it := range items {
		match := -1
		for i, o := range objs {
			if it.text != "" && sameStart(o.Content, it.text) {
				match = i
				break
			}
		}
		if match < 0 && it.author != "" && byAuthor[it.author] == 1 {
			match = slices.IndexFunc(objs, func(o Object) bool { return o.Author == it.author })
		}
		if match >= 0 {
			objs[match].Date = it.date
		}
	}
}

// ldItems adds to items the dated posts and comments of a JSON-LD value.
func ldItems(v any, depth int, items []ldItem) []ldItem {
	if depth > 6 {
		return items
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			items = ldItems(e, depth+1, items)
		}
	case map[string]any:
		text, _ := x["text"].(string)
		if text == "" {
			text, _ = x["articleBody"].(string)
		}
		author := ""
		switch a := x["author"].(type) {
		case string:
			author = a
		case map[string]any:
			author, _ = a["name"].(string)
		case []any:
			if len(a) > 0 {
				if m, ok := a[0].(map[string]any); ok {
					author, _ = m["name"].(string)
				}
			}
		}
		for _, k := range []string{"dateCreated", "datePublished"} {
			if s, ok := x[k].(string); ok && (text != "" || author != "") {
				if t, ok := parseStated(s); ok {
					items = append(items, ldItem{author, text, t})
					break
				}
			}
		}
		for _, k := range []string{"comment", "hasPart", "@graph", "mainEntity", "suggestedAnswer", "acceptedAnswer", "itemListElement", "item"} {
			if c, ok := x[k]; ok {
				items = ldItems(c, depth+1, items)
			}
		}
	}
	return items
}

// sameStart tells two texts of one post: their first 40 letters and
// digits alike (or the whole of the shorter, of 12 or more).
func sameStart(a, b string) bool {
	pa, pb := letters(a, 40), letters(b, 40)
	n := min(len(pa), len(pb))
	return n >= 12 && pa[:n] == pb[:n]
}

// letters is the first n letters and digits of s, lower-cased.
func letters(s string, n int) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			if b.Len() >= n {
				break
			}
		}
	}
	return b.String()
}
