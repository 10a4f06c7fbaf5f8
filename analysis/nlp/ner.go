package nlp

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/jdkato/prose/v2"
)

// How a mention was found.
const (
	ByNER        = "ner"
	ByDictionary = "dictionary"
	ByProperNoun = "proper-noun"
	ByRepeat     = "repeat" // a name the text used before, found again
)

// found is an entity name found in a sentence, by byte offsets of the
// sentence.
type found struct {
	start, end int
	key, typ   string
	by         string
	initial    bool // the name is the sentence's first word, alone
}

// model is prose's English tagger and recogniser, decoded once from the
// module's embedded files (a second or so) and shared: both only read it.
var model = sync.OnceValue(func() *prose.Model {
	doc, _ := prose.NewDocument("Warm up.", prose.WithSegmentation(false))
	return doc.Model
})

// notNames are capitalised words that name no entity of interest on
// their own: days, months, pronouns, sentence adverbs.
var notNames = map[string]bool{
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true,
	"january": true, "february": true, "march": true, "april": true, "may": true, "june": true, "july": true,
	"august": true, "september": true, "october": true, "november": true, "december": true,
	"i": true, "we": true, "you": true, "he": true, "she": true, "they": true, "it": true, "the": true, "a": true,
	"an": true, "this": true, "that": true, "these": true, "those": true, "our": true, "my": true, "his": true, "her": true,
	"their": true, "its": true, "yes": true, "no": true, "ok": true, "today": true, "yesterday": true, "tomorrow": true,
	"however": true, "meanwhile": true, "also": true, "but": true, "and": true, "or": true, "so": true, "if": true,
	"when": true, "while": true, "after": true, "before": true, "then": true, "there": true, "here": true,
	"what": true, "who": true, "why": true, "how": true, "where": true, "mr": true, "mrs": true, "ms": true, "dr": true,
	"in": true, "on": true, "at": true, "for": true, "from": true, "with": true, "by": true, "of": true, "to": true,
	"as": true, "into": true, "about": true, "during": true, "since": true, "until": true, "per": true, "via": true,
}

// orgWords end the names of organisations.
var orgWords = map[string]bool{
	"inc": true, "corp": true, "corporation": true, "ltd": true, "llc": true, "plc": true, "gmbh": true, "ag": true,
	"sa": true, "company": true, "co": true, "group": true, "holdings": true, "bank": true, "university": true,
	"foundation": true, "institute": true, "association": true, "agency": true, "council": true, "party": true,
	"trust": true, "society": true, "ministry": true, "museum": true, "committee": true, "union": true,
	"industries": true, "systems": true, "labs": true, "partners": true, "trading": true, "motors": true,
	"airlines": true, "press": true, "club": true, "school": true, "college": true, "hospital": true,
	"commission": true, "department": true, "authority": true, "federation": true, "league": true,
	"network": true, "media": true, "services": true, "technologies": true, "solutions": true, "works": true,
}

// connectors may stand between the proper nouns of one name ("Bank of
// England", "Procter & Gamble").
var connectors = map[string]bool{"of": true, "&": true, "and": true, "de": true, "van": true, "von": true, "del": true, "la": true, "du": true}

// worthNER reports whether a sentence may name an entity: it has a
// capitalised word after its first one (or starts with two). Others are
// left to the dictionary, which saves the recogniser's cost on the many
// sentences without a proper noun.
func worthNER(s string) bool {
	ws := wordsOf(s)
	for i, w := range ws {
		if i == 0 {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(w.text); unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// recognise runs prose on an English sentence: its PERSON and GPE
// entities, and runs of proper nouns it did not label (typed as
// organisations by their last word, else as things).
func recognise(s string) []found {
	if !worthNER(s) {
		return nil
	}
	doc, err := prose.NewDocument(s, prose.WithSegmentation(false), prose.UsingModel(model()))
	if err != nil {
		return nil
	}
	toks := doc.Tokens()
	// Locate the tokens in s: prose's tokens are substrings, in order.
	starts := make([]int, len(toks))
	pos := 0
	for i, t := range toks {
		j := strings.Index(s[pos:], t.Text)
		if j < 0 {
			starts[i] = -1
			continue
		}
		starts[i] = pos + j
		pos += j + len(t.Text)
	}
	var out []found
	used := make([]bool, len(toks))
	// Labelled entities: labelled tokens in a row (prose labels each
	// word of a name B-X as often as I-X, and the words of one name with
	// different types at times), extended over the capitalised words next
	// to them that it left unlabelled ("Peter/B-PERSON Novak/O"). The
	// type is the first labelled word's.
	label := func(i int) string {
		if l := toks[i].Label; len(l) > 2 && (l[:2] == "B-" || l[:2] == "I-") && starts[i] >= 0 {
			return l[2:]
		}
		return ""
	}
	bare := func(i int) bool {
		t := toks[i]
		return label(i) == "" && starts[i] >= 0 && startsUpper(t.Text) && !notNames[strings.ToLower(t.Text)] &&
			(i > 0 || t.Tag == "NNP" || t.Tag == "NNPS")
	}
	for i := 0; i < len(toks); {
		typ := label(i)
		if typ == "" {
			i++
			continue
		}
		lo, j := i, i+1
		for j < len(toks) && (label(j) != "" || bare(j)) {
			j++
		}
		for lo > 0 && bare(lo-1) && !used[lo-1] {
			lo--
		}
		if f, ok := named(s, toks, starts, lo, j, typ); ok {
			out = append(out, f)
			for k := lo; k < j; k++ {
				used[k] = true
			}
		}
		i = j
	}
	// Runs of proper nouns.
	proper := func(i int) bool {
		t := toks[i]
		return (t.Tag == "NNP" || t.Tag == "NNPS") && starts[i] >= 0 && !used[i] && startsUpper(t.Text)
	}
	for i := 0; i < len(toks); {
		if !proper(i) {
			i++
			continue
		}
		j := i + 1
		for j < len(toks) {
			if proper(j) {
				j++
				continue
			}
			if j+1 < len(toks) && connectors[strings.ToLower(toks[j].Text)] && proper(j+1) {
				j += 2
				continue
			}
			break
		}
		if f, ok := named(s, toks, starts, i, j, ""); ok {
			out = append(out, f)
		}
		i = j
	}
	return out
}

// named makes the tokens [i, j) of a sentence a found name of prose type
// typ ("" for a run of proper nouns), dropping leading articles, titles
// and words that name nothing; a lone word opening the sentence is no
// name unless prose labelled it.
func named(s string, toks []prose.Token, starts []int, i, j int, typ string) (found, bool) {
	for i < j && (notNames[strings.ToLower(strings.TrimSuffix(toks[i].Text, "."))] || titles[strings.ToLower(strings.TrimSuffix(toks[i].Text, "."))] || !startsUpper(toks[i].Text)) {
		i++
	}
	for j > i && (notNames[strings.ToLower(toks[j-1].Text)] || !startsLetterOrDigit(toks[j-1].Text)) {
		j--
	}
	if i >= j {
		return found{}, false
	}
	initial := j == i+1 && starts[i] == firstWordStart(s)
	if j == i+1 && len(toks[i].Text) < 2 {
		return found{}, false
	}
	start, end := starts[i], starts[j-1]+len(toks[j-1].Text)
	surface := s[start:end]
	key := Key(surface)
	if key == "" {
		return found{}, false
	}
	t := Thing
	switch typ {
	case "PERSON":
		t = Person
	case "GPE":
		t = Place
	}
	if words := strings.Fields(key); orgWords[words[len(words)-1]] && len(words) > 1 {
		t = Organization
	}
	by := ByNER
	if typ == "" {
		by = ByProperNoun
	}
	return found{start: start, end: end, key: key, typ: t, by: by, initial: initial}, true
}

func firstWordStart(s string) int {
	if ws := wordsOf(s); len(ws) > 0 {
		return ws[0].start
	}
	return -1
}

func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

func startsLetterOrDigit(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
