package nlp

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Entity types, as the analysis writes them (schema.org classes).
const (
	Person       = "person"
	Place        = "place"
	Organization = "organization"
	Thing        = "thing"
)

// Known is an entity given to the analysis by name: by a crawl's
// definition, an entities file or a label in the store.
type Known struct {
	Name    string   // canonical name; its Key is the entity's key
	Type    string   // Person, Place, Organization or Thing ("" for Thing)
	Aliases []string // other names, all resolved to the entity
	SameAs  []string // IRIs of the same entity elsewhere (owl:sameAs)
}

// Dictionary finds the names of known entities in sentences, longest
// name first, case-insensitively except that a name written with a
// capital must be written with one in the text (so "Apple" does not
// match "apple pie").
type Dictionary struct {
	entries map[string]*Known // by key
	alias   map[string]string // the key of every name and alias → the entity's key
	byFirst map[string][]name // by the lower-case first word of a name
}

type name struct {
	words []string // lower case
	cap   bool     // the name starts with an upper-case letter
	key   string
}

// NewDictionary builds a dictionary of known entities. Entities with
// the same key are merged (their aliases and sameAs joined); an alias
// that two entities share goes to the first.
func NewDictionary(known []Known) *Dictionary {
	d := &Dictionary{entries: map[string]*Known{}, alias: map[string]string{}, byFirst: map[string][]name{}}
	seen := map[string]bool{}
	for _, k := range known {
		key := Key(k.Name)
		if key == "" {
			continue
		}
		e := d.entries[key]
		if e == nil {
			e = &Known{Name: strings.Join(strings.Fields(k.Name), " "), Type: k.Type}
			if e.Type == "" {
				e.Type = Thing
			}
			d.entries[key] = e
		} else if e.Type == Thing && k.Type != "" {
			e.Type = k.Type
		}
		e.Aliases = appendNew(e.Aliases, k.Aliases...)
		e.SameAs = appendNew(e.SameAs, k.SameAs...)
		for _, n := range append([]string{k.Name}, k.Aliases...) {
			if ak := Key(n); ak != "" && d.alias[ak] == "" {
				d.alias[ak] = key
			}
			words := wordsOf(n)
			if len(words) == 0 {
				continue
			}
			lw := make([]string, len(words))
			for i, w := range words {
				lw[i] = strings.ToLower(w.text)
			}
			id := strings.Join(lw, " ")
			if seen[id] {
				continue
			}
			seen[id] = true
			r, _ := utf8.DecodeRuneInString(n)
			d.byFirst[lw[0]] = append(d.byFirst[lw[0]], name{words: lw, cap: unicode.IsUpper(r), key: key})
		}
	}
	for _, ns := range d.byFirst {
		sort.SliceStable(ns, func(i, j int) bool { return len(ns[i].words) > len(ns[j].words) })
	}
	return d
}

// Len is the number of known entities.
func (d *Dictionary) Len() int {
	if d == nil {
		return 0
	}
	return len(d.entries)
}

// Entry returns the known entity of a key.
func (d *Dictionary) Entry(key string) (*Known, bool) {
	if d == nil {
		return nil, false
	}
	e, ok := d.entries[key]
	return e, ok
}

// Canonical returns the key of the known entity that key names (by its
// name or an alias).
func (d *Dictionary) Canonical(key string) (string, bool) {
	if d == nil {
		return "", false
	}
	k, ok := d.alias[key]
	return k, ok
}

// Entries returns the known entities by key.
func (d *Dictionary) Entries() map[string]*Known {
	if d == nil {
		return nil
	}
	return d.entries
}

func appendNew(dst []string, vs ...string) []string {
	for _, v := range vs {
		v = strings.TrimSpace(v)
		if v != "" && !contains(dst, v) {
			dst = append(dst, v)
		}
	}
	return dst
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// word is a word of a text with its byte offsets.
type word struct {
	text       string
	start, end int
}

// wordsOf splits s into words: runs of letters and digits, with inner
// apostrophes, hyphens, ampersands and full stops ("O'Brien", "AT&T",
// "U.S").
func wordsOf(s string) []word {
	var out []word
	start := -1
	for i := 0; i <= len(s); {
		r, n := rune(0), 1
		if i < len(s) {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		in := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !in && start >= 0 && strings.ContainsRune(`'’-&.`, r) && i+n < len(s) {
			next, _ := utf8.DecodeRuneInString(s[i+n:])
			in = unicode.IsLetter(next) || unicode.IsDigit(next)
		}
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, word{s[start:i], start, i})
			start = -1
		}
		if i == len(s) {
			break
		}
		i += n
	}
	return out
}

// match finds the dictionary's names in the sentence s, longest first,
// not overlapping; offsets are bytes of s.
func (d *Dictionary) match(s string) []found {
	if d == nil || len(d.byFirst) == 0 {
		return nil
	}
	ws := wordsOf(s)
	lower := make([]string, len(ws))
	for i, w := range ws {
		lower[i] = strings.ToLower(w.text)
	}
	var out []found
	for i := 0; i < len(ws); {
		matched := 0
		for _, n := range d.byFirst[lower[i]] {
			if i+len(n.words) > len(ws) {
				continue
			}
			ok := true
			for j, w := range n.words {
				if lower[i+j] != w {
					ok = false
					break
				}
			}
			if r, _ := utf8.DecodeRuneInString(ws[i].text); ok && n.cap && !unicode.IsUpper(r) {
				ok = false
			}
			if ok {
				e := d.entries[n.key]
				last := ws[i+len(n.words)-1]
				out = append(out, found{start: ws[i].start, end: last.end, key: n.key, typ: e.Type, by: ByDictionary})
				matched = len(n.words)
				break
			}
		}
		if matched > 0 {
			i += matched
		} else {
			i++
		}
	}
	return out
}
