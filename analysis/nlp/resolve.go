package nlp

import (
	"strings"
	"unicode"
)

// titles are words before a name that are not part of it.
var titles = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "miss": true, "dr": true, "prof": true, "professor": true, "sir": true,
	"dame": true, "lord": true, "lady": true, "president": true, "minister": true, "senator": true, "mayor": true,
	"judge": true, "general": true, "captain": true, "chancellor": true, "governor": true, "chairman": true,
	"chairwoman": true, "director": true, "ceo": true, "saint": true,
}

// Key is the key of an entity name: the words of the name in lower case,
// without a leading article or title and a trailing possessive, joined
// by single spaces. Names with the same key are one entity.
func Key(name string) string {
	ws := wordsOf(name)
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, strings.ToLower(w.text))
	}
	for len(out) > 1 && (out[0] == "the" || titles[strings.TrimSuffix(out[0], ".")]) {
		out = out[1:]
	}
	if n := len(out); n > 0 {
		last := out[n-1]
		for _, p := range []string{"'s", "’s"} {
			if strings.HasSuffix(last, p) && len(last) > len(p) {
				out[n-1] = strings.TrimSuffix(last, p)
			}
		}
		if out[n-1] == "s" && n > 1 { // "Keller' s" split at the apostrophe
			out = out[:n-1]
		}
	}
	return strings.Join(out, " ")
}

// Display is the name of an entity as a label: the surface form without
// a leading title or article and a trailing possessive, white space
// collapsed.
func Display(surface string) string {
	ws := wordsOf(surface)
	if len(ws) == 0 {
		return ""
	}
	i := 0
	for i < len(ws)-1 {
		l := strings.ToLower(ws[i].text)
		if l != "the" && !titles[strings.TrimSuffix(l, ".")] {
			break
		}
		i++
	}
	s := surface[ws[i].start:ws[len(ws)-1].end]
	for _, p := range []string{"'s", "’s"} {
		s = strings.TrimSuffix(s, p)
	}
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// resolve gives every mention of one text its entity: a dictionary name
// its known entity; a single word that is the first or last word of a
// person named in full in the same text that person (so "Keller" for
// "Maria Keller"), or the first word of an organisation's name that
// organisation; every other mention the entity of its own key. A key
// found as a person anywhere in the text is a person in all of it.
func resolve(ms []Mention, d *Dictionary) {
	for i := range ms {
		if canon, ok := d.Canonical(ms[i].Key); ok {
			ms[i].Key = canon
		}
	}
	// short names a full one stands for: a person's first or last name,
	// an organisation's or other name's first word ("Northwind" for
	// "Northwind Trading"); ambiguous when two full names share it.
	short := map[string]string{}
	ambiguous := map[string]bool{}
	for _, m := range ms {
		words := strings.Fields(m.Key)
		if len(words) < 2 || m.Type == Place {
			continue
		}
		ws := []string{words[0]}
		if m.Type == Person {
			ws = append(ws, words[len(words)-1])
		}
		for _, w := range ws {
			if prev, ok := short[w]; ok && prev != m.Key {
				ambiguous[w] = true
			}
			short[w] = m.Key
		}
	}
	typeOf := map[string]string{}
	for _, m := range ms {
		if t := typeOf[m.Key]; t == "" || t == Thing {
			typeOf[m.Key] = m.Type
		}
	}
	typ := map[string]string{}
	for i := range ms {
		m := &ms[i]
		if _, known := d.Entry(m.Key); !known && !strings.Contains(m.Key, " ") {
			if full, ok := short[m.Key]; ok && !ambiguous[m.Key] {
				m.Key, m.Type = full, typeOf[full]
			}
		}
		if e, ok := d.Entry(m.Key); ok {
			m.Type = e.Type
			continue
		}
		if t := typ[m.Key]; t == "" || t == Thing || m.Type == Person {
			typ[m.Key] = m.Type
		}
	}
	for i := range ms {
		if _, ok := d.Entry(ms[i].Key); ok {
			continue
		}
		if t := typ[ms[i].Key]; t != "" {
			ms[i].Type = t
		}
	}
}
