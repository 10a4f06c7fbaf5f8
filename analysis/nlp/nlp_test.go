package nlp

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSentences(t *testing.T) {
	text := `Dr. Maria Keller met J. Smith in Hamburg. "Was it good?" she asked! The U.S. team lost 2-1.

A new block
without a full stop`
	var got []string
	for _, s := range Sentences(text) {
		got = append(got, text[s.Start:s.End])
	}
	want := []string{`Dr. Maria Keller met J. Smith in Hamburg.`, `"Was it good?" she asked!`, `The U.S. team lost 2-1.`, "A new block\nwithout a full stop"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("sentences:\n got %q\nwant %q", got, want)
	}
}

// runes returns the characters [start, end) of s.
func runes(s string, start, end int) string { return string([]rune(s)[start:end]) }

func TestAnalyze(t *testing.T) {
	d := NewDictionary([]Known{{Name: "Northwind Trading", Type: Organization, Aliases: []string{"NWT"}, SameAs: []string{"https://example.org/nwt"}}})
	a := NewAnalyzer(d, Options{})
	text := "Zoë wrote: Maria Keller visited Hamburg on Monday. Keller praised NWT for the wonderful new harbor! " +
		"Critics said Northwind Trading made a terrible, disgraceful mess of the port."
	r := a.Analyze(text)
	if r.Language != "en" {
		t.Errorf("language %q, want en", r.Language)
	}
	byKey := map[string][]Mention{}
	for _, m := range r.Mentions {
		if got := runes(text, m.Start, m.End); got != m.Surface {
			t.Errorf("mention %q at [%d, %d) reads %q", m.Surface, m.Start, m.End, got)
		}
		if !strings.Contains(m.Sentence, m.Surface) {
			t.Errorf("mention %q not in its sentence %q", m.Surface, m.Sentence)
		}
		byKey[m.Key] = append(byKey[m.Key], m)
	}
	if ms := byKey["maria keller"]; len(ms) != 2 || ms[1].Surface != "Keller" || ms[0].Type != Person {
		t.Errorf("Maria Keller: %+v, want her full name and \"Keller\" resolved to her, a person", ms)
	}
	if ms := byKey["northwind trading"]; len(ms) != 2 || ms[0].Surface != "NWT" || ms[0].By != ByDictionary || ms[0].Type != Organization {
		t.Errorf("Northwind Trading: %+v, want the alias NWT and its full name, from the dictionary", ms)
	}
	if ms := byKey["hamburg"]; len(ms) != 1 {
		t.Errorf("Hamburg: %+v", ms)
	}
	if ms := byKey["monday"]; len(ms) != 0 {
		t.Errorf("Monday is no entity: %+v", ms)
	}
	nwt := byKey["northwind trading"]
	if len(nwt) == 2 && !(nwt[0].Compound > 0.5 && nwt[1].Compound < -0.5) {
		t.Errorf("sentiment of NWT's sentences: %.2f and %.2f, want praise then blame", nwt[0].Compound, nwt[1].Compound)
	}
	if len(r.Terms) == 0 || r.Terms[0].Count < 1 {
		t.Errorf("terms: %v", r.Terms)
	}
}

func TestBadInput(t *testing.T) {
	a := NewAnalyzer(nil, Options{MaxText: 1 << 16})
	for _, tc := range []struct {
		name, text, note string
	}{
		{"empty", "   \n ", "empty text"},
		{"invalid UTF-8", "Maria Keller met Peter Novak in Lisbon.\xff\xfe Then they left.", "invalid UTF-8"},
		{"huge", strings.Repeat("Maria Keller met Peter Novak in Lisbon. ", 1<<12), "only the first"},
		{"mixed", "Maria Keller met Peter Novak in Lisbon to discuss the harbour and its cargo. " +
			"Der Hafen von Hamburg ist der größte Hafen Deutschlands und wächst jedes Jahr weiter.", "mixed languages: de, en"},
	} {
		r := a.Analyze(tc.text)
		if !strings.Contains(strings.Join(r.Notes, "; "), tc.note) {
			t.Errorf("%s: notes %q, want one with %q", tc.name, r.Notes, tc.note)
		}
		for _, m := range r.Mentions {
			if !utf8.ValidString(m.Surface) || !utf8.ValidString(m.Sentence) {
				t.Errorf("%s: invalid UTF-8 in %+v", tc.name, m)
			}
		}
		if tc.name != "empty" && len(r.Mentions) == 0 {
			t.Errorf("%s: no mentions", tc.name)
		}
	}
}

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"Dr. Maria Keller's": "maria keller", "the Bank of England": "bank of england",
		"  Northwind   Trading ": "northwind trading", "Keller’s": "keller",
	} {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}
