package nlp

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
	"github.com/jonreiter/govader"
)

// Mention is one mention of an entity in a text. Offsets are in
// characters (Unicode code points) of the text, from 0, end exclusive.
type Mention struct {
	Start, End int
	Surface    string
	Key        string // the entity's key (Key of its canonical name)
	Type       string // Person, Place, Organization or Thing
	By         string // ByNER, ByDictionary or ByProperNoun
	Sentence   string
	// Sentiment of the sentence (VADER): Compound in [-1, 1], Positive
	// and Negative the shares in [0, 1]; HasSentiment is false for a
	// sentence in a language the lexicon does not cover.
	Compound, Positive, Negative float64
	HasSentiment                 bool
	// initial: a single word opening its sentence, which is as often a
	// capitalised common word as a name.
	initial bool
}

// Result is what Analyze found in a text.
type Result struct {
	Language  string    // ISO 639-1 code of the language of most of the text; "" if unknown
	Sentences int       // sentences read
	Mentions  []Mention // in text order
	// Terms are the text's most frequent terms (lower case, stop words
	// left out) with their counts, most frequent first.
	Terms []TermCount
	// Notes say what was done to bad input: truncated, invalid UTF-8
	// replaced, empty.
	Notes []string
}

// TermCount is a term and how often a text uses it.
type TermCount struct {
	Term  string
	Count int
}

// Options bound the work on one text.
type Options struct {
	// MaxText is the number of bytes of a text that are analysed; the rest
	// is left out with a note (default 1 MiB).
	MaxText int
	// Terms is how many of a text's most frequent terms Result.Terms keeps
	// (default 50).
	Terms int
}

// Analyzer analyses texts. It is not safe for concurrent use: give each
// goroutine its own (they share the dictionary and prose's model).
type Analyzer struct {
	dict *Dictionary
	o    Options
	vad  *govader.SentimentIntensityAnalyzer
}

// NewAnalyzer returns an analyzer finding d's names (d may be nil).
func NewAnalyzer(d *Dictionary, o Options) *Analyzer {
	if o.MaxText <= 0 {
		o.MaxText = 1 << 20
	}
	if o.Terms <= 0 {
		o.Terms = 50
	}
	model() // decode prose's model now rather than in the first text
	return &Analyzer{dict: d, o: o, vad: govader.NewSentimentIntensityAnalyzer()}
}

// Analyze reads one text.
func (a *Analyzer) Analyze(text string) Result {
	var r Result
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
		r.Notes = append(r.Notes, "invalid UTF-8 replaced by U+FFFD")
	}
	if len(text) > a.o.MaxText {
		cut := a.o.MaxText
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		r.Notes = append(r.Notes, fmt.Sprintf("only the first %d of %d bytes analysed", cut, len(text)))
		text = text[:cut]
	}
	if strings.TrimSpace(text) == "" {
		r.Notes = append(r.Notes, "empty text")
		return r
	}
	spans := Sentences(text)
	r.Sentences = len(spans)
	// A sentence of its own language: only a long one that whatlanggo is
	// sure of (short ones are often misjudged). The others are of the
	// language of most of the long ones, or when there is none, of the
	// whole text's.
	langs := make([]string, len(spans))
	long := map[string]int{}
	for i, sp := range spans {
		if s := text[sp.Start:sp.End]; len(s) >= 60 {
			if langs[i] = sentenceLanguage(s); langs[i] != "" {
				long[langs[i]] += len(s)
			}
		}
	}
	docLang := majority(long)
	if docLang == "" {
		docLang = language(text)
	}
	chars := map[string]int{}
	var ms []Mention
	sents := make([]sentence, 0, len(spans)) // never grown: score keeps pointers
	known := forms{}                         // of the names found so far
	score := func(x *sentence) govader.Sentiment {
		if x.english && !x.sentiment {
			x.sent, x.sentiment = a.vad.PolarityScores(x.s), true
		}
		return x.sent
	}
	for i, sp := range spans {
		s := text[sp.Start:sp.End]
		lang := langs[i]
		if lang == "" {
			lang = docLang
		}
		chars[lang] += len(s)
		// English, or too short to tell: the English recogniser and
		// lexicon apply.
		english := lang == "en" || lang == ""
		sents = append(sents, sentence{s: s, start: sp.Start, english: english})
		x := &sents[len(sents)-1]
		fs := a.dict.match(s)
		if english && !known.known(s, fs) {
			fs = merge(fs, recogniseCached(s))
		}
		if len(fs) == 0 {
			continue
		}
		sent := score(x)
		for _, f := range fs {
			ms = append(ms, Mention{
				Start: sp.Start + f.start, End: sp.Start + f.end, Surface: s[f.start:f.end],
				Key: f.key, Type: f.typ, By: f.by, Sentence: s,
				Compound: sent.Compound, Positive: sent.Positive, Negative: sent.Negative, HasSentiment: english,
				initial: f.initial && f.by != ByDictionary,
			})
		}
		for _, m := range ms[len(ms)-len(fs):] {
			known.add(m)
		}
	}
	r.Language = majority(chars)
	if len(chars) > 1 {
		var ls []string
		for l := range chars {
			if l != "" {
				ls = append(ls, l)
			}
		}
		sort.Strings(ls)
		if len(ls) > 1 {
			r.Notes = append(r.Notes, "mixed languages: "+strings.Join(ls, ", ")+" (names recognised in English sentences, dictionary names in all)")
		}
	}
	ms = append(ms, a.again(text, sents, ms, score)...)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Start < ms[j].Start })
	resolve(ms, a.dict)
	// A lone capitalised word the recogniser did not label is a name only
	// when it stands for a longer one of the text (or the dictionary
	// knows it): alone, it is as often an acronym or a heading. A lone
	// word opening a sentence is a name only when the text names it
	// elsewhere too.
	elsewhere := map[string]bool{}
	for _, m := range ms {
		if !m.initial {
			elsewhere[m.Key] = true
		}
	}
	// An acronym alone ("GDP", "PDF") is a name only when the dictionary
	// knows it.
	kept := ms[:0]
	for _, m := range ms {
		single := !strings.Contains(m.Key, " ")
		if single && m.By != ByDictionary && (m.By == ByProperNoun || m.initial && !elsewhere[m.Key] || acronym(m.Surface)) {
			continue
		}
		kept = append(kept, m)
	}
	ms = kept
	toRunes(text, ms)
	r.Mentions = ms
	r.Terms = topTerms(text, a.o.Terms)
	return r
}

// majority is the language of most characters in chars ("" for
// unknown does not count), the least code on a tie.
func majority(chars map[string]int) string {
	out, best := "", 0
	for l, n := range chars {
		if l != "" && (n > best || n == best && l < out) {
			out, best = l, n
		}
	}
	return out
}

// sentence is a sentence of a text being analysed.
type sentence struct {
	s         string
	start     int // byte offset in the text
	english   bool
	sent      govader.Sentiment
	sentiment bool // sent computed
}

// again finds the names a text uses once more: the full names found in
// some sentence (persons' and organisations' of two words or more) where
// the recogniser missed them, and their short forms — a person's last
// name, an organisation's first word — as whole words written the same
// way. Offsets are bytes of the text.
func (a *Analyzer) again(text string, sents []sentence, ms []Mention, score func(*sentence) govader.Sentiment) []Mention {
	forms := formsOf(ms)
	if len(forms) == 0 {
		return nil
	}
	// The names found, by start: a name found again must overlap none of
	// its sentence's, which sort.Search finds without a scan of them all.
	type span struct{ start, end int }
	spans := make([]span, len(ms))
	for i, m := range ms {
		spans[i] = span{m.Start, m.End}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var out []Mention
	for i := range sents {
		x := &sents[i]
		lo := sort.Search(len(spans), func(k int) bool { return spans[k].start >= x.start })
		hi := sort.Search(len(spans), func(k int) bool { return spans[k].start >= x.start+len(x.s) })
		local := append([]span(nil), spans[lo:hi]...)
		for _, f := range forms.find(x.s) {
			start, end := x.start+f.start, x.start+f.end
			taken := false
			for _, sp := range local {
				if start < sp.end && sp.start < end {
					taken = true
					break
				}
			}
			if taken {
				continue
			}
			sent := score(x)
			out = append(out, Mention{Start: start, End: end, Surface: text[start:end], Key: f.key, Type: f.typ,
				By: ByRepeat, Sentence: x.s, Compound: sent.Compound, Positive: sent.Positive, Negative: sent.Negative,
				HasSentiment: x.english})
			local = append(local, span{start, end})
		}
	}
	return out
}

// formName is the entity a written form of a name stands for.
type formName struct{ key, typ string }

// forms are the written forms of the names of a text that are found
// again wherever they occur: full names of persons and organisations (of
// two words or more) and their short forms; a short form two names share
// stands for neither (its formName is empty).
type forms map[string]formName

// formsOf returns the forms of the names found in ms.
func formsOf(ms []Mention) forms {
	fs := forms{}
	for _, m := range ms {
		fs.add(m)
	}
	return fs
}

// add adds the forms of m's name.
func (fs forms) add(m Mention) {
	words := strings.Fields(m.Key)
	if len(words) < 2 || m.Type == Place {
		return
	}
	full := Display(m.Surface)
	if Key(full) != m.Key {
		return
	}
	fs[full] = formName{m.Key, m.Type}
	ws := strings.Fields(full)
	short := ws[0]
	if m.Type == Person {
		short = ws[len(ws)-1]
	}
	if n, ok := fs[short]; ok && n.key != m.Key {
		fs[short] = formName{} // two names share it: ambiguous
	} else if !ok {
		fs[short] = formName{m.Key, m.Type}
	}
}

// formAt is a form found in a sentence, by byte offsets of the sentence.
type formAt struct {
	start, end int
	formName
}

// find returns the forms written in sentence s, whole words, the longest
// at each word, in order.
func (fs forms) find(s string) []formAt {
	if len(fs) == 0 {
		return nil
	}
	var out []formAt
	ws := wordsOf(s)
	for j := 0; j < len(ws); j++ {
		for k := min(len(ws), j+6); k > j; k-- {
			if n, ok := fs[s[ws[j].start:ws[k-1].end]]; ok && n.key != "" {
				out = append(out, formAt{ws[j].start, ws[k-1].end, n})
				j = k - 1
				break
			}
		}
	}
	return out
}

// known reports whether every capitalised word of sentence s after its
// first is a word of a name already found: one of the dictionary's
// (dict), a form of the text's names, or a word that names nothing on
// its own (a weekday, a pronoun). The recogniser would find nothing
// there that finding the text's names again does not.
func (fs forms) known(s string, dict []found) bool {
	ws := wordsOf(s)
	found := fs.find(s)
	for _, w := range ws[min(1, len(ws)):] {
		if !startsUpper(w.text) || notNames[strings.ToLower(w.text)] {
			continue
		}
		in := false
		for _, f := range found {
			if f.start <= w.start && w.end <= f.end {
				in = true
				break
			}
		}
		for _, d := range dict {
			if in || d.start <= w.start && w.end <= d.end {
				in = true
				break
			}
		}
		if !in {
			return false
		}
	}
	return true
}

// merge adds to the dictionary's names those of the recogniser that
// overlap none of them.
func merge(dict, ner []found) []found {
	out := dict
	for _, f := range ner {
		overlap := false
		for _, d := range dict {
			if f.start < d.end && d.start < f.end {
				overlap = true
				break
			}
		}
		if !overlap {
			out = append(out, f)
		}
	}
	return out
}

// language is the ISO 639-1 code of the language of s, "" when
// whatlanggo is not sure.
func language(s string) string {
	if len(s) > 4096 {
		cut := 4096
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	info := whatlanggo.Detect(s)
	if !info.IsReliable() {
		return ""
	}
	return info.Lang.Iso6391()
}

// toRunes turns the mentions' byte offsets (sorted by start) into
// character offsets.
func toRunes(text string, ms []Mention) {
	type off struct {
		p *int
	}
	var offs []off
	for i := range ms {
		offs = append(offs, off{&ms[i].Start}, off{&ms[i].End})
	}
	sort.SliceStable(offs, func(i, j int) bool { return *offs[i].p < *offs[j].p })
	b, r := 0, 0
	for _, o := range offs {
		r += utf8.RuneCountInString(text[b:*o.p])
		b = *o.p
		*o.p = r
	}
}

// topTerms counts the words of text (letters only, three or more, lower
// case, stop words left out) and returns the n most frequent.
func topTerms(text string, n int) []TermCount {
	counts := map[string]int{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if utf8.RuneCountInString(w) < 3 {
			continue
		}
		w = strings.ToLower(w)
		if stopWords[w] {
			continue
		}
		counts[w]++
	}
	out := make([]TermCount, 0, len(counts))
	for t, c := range counts {
		out = append(out, TermCount{t, c})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Term < out[j].Term
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// acronym reports whether w is written in capitals only (two or more).
func acronym(w string) bool {
	n := 0
	for _, r := range w {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n >= 2
}
