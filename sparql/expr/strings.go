package expr

import (
	"math"
	"strings"
	"unicode/utf8"
)

// stringBuiltins are the string functions of §17.4.3.
var stringBuiltins = map[string]builtin{
	"STRLEN": {unary: func(_ *Context, a value) (value, error) {
		s, _, ok := stringArg(a)
		if !ok {
			return value{}, ErrType
		}
		return intVal(int64(utf8.RuneCountInString(s))), nil
	}},
	"UCASE":          {unary: mapString(strings.ToUpper)},
	"LCASE":          {unary: mapString(strings.ToLower)},
	"SUBSTR":         {nary: fnSubstr},
	"STRSTARTS":      {binary: strTest(strings.HasPrefix)},
	"STRENDS":        {binary: strTest(strings.HasSuffix)},
	"CONTAINS":       {binary: strTest(strings.Contains)},
	"STRBEFORE":      {binary: fnStrBefore},
	"STRAFTER":       {binary: fnStrAfter},
	"ENCODE_FOR_URI": {unary: fnEncodeForURI},
	"CONCAT":         {nullary: func(*Context) (value, error) { return strVal(""), nil }, nary: fnConcat},
	"LANGMATCHES":    {binary: fnLangMatches},
}

// mapString applies f to a string literal, keeping its language tag.
func mapString(f func(string) string) func(*Context, value) (value, error) {
	return func(_ *Context, a value) (value, error) {
		s, lang, ok := stringArg(a)
		if !ok {
			return value{}, ErrType
		}
		return langStr(f(s), lang), nil
	}
}

// compatibleArgs checks the argument compatibility rules of §17.4.3.1.1:
// both simple or xsd:string, both with the same language tag, or a
// language-tagged first argument and a simple second one.
func compatibleArgs(a, b value) (sa, sb, lang string, ok bool) {
	sa, la, okA := stringArg(a)
	sb, lb, okB := stringArg(b)
	if !okA || !okB || lb != "" && !strings.EqualFold(la, lb) {
		return "", "", "", false
	}
	return sa, sb, la, true
}

func strTest(f func(s, sub string) bool) func(*Context, value, value) (value, error) {
	return func(_ *Context, a, b value) (value, error) {
		sa, sb, _, ok := compatibleArgs(a, b)
		if !ok {
			return value{}, ErrType
		}
		return boolVal(f(sa, sb)), nil
	}
}

// fnStrBefore and fnStrAfter keep the first argument's tag when the
// second occurs in it and return a simple "" otherwise (§17.4.3.8).
func fnStrBefore(_ *Context, a, b value) (value, error) { return strSplit(a, b, false) }
func fnStrAfter(_ *Context, a, b value) (value, error)  { return strSplit(a, b, true) }

func strSplit(a, b value, after bool) (value, error) {
	sa, sb, lang, ok := compatibleArgs(a, b)
	if !ok {
		return value{}, ErrType
	}
	i := strings.Index(sa, sb)
	switch {
	case i < 0:
		return strVal(""), nil
	case after:
		return langStr(sa[i+len(sb):], lang), nil
	}
	return langStr(sa[:i], lang), nil
}

// fnSubstr is fn:substring: the characters at 1-based code-point
// positions p with round(start) <= p < round(start) + round(length).
func fnSubstr(_ *Context, args []value) (value, error) {
	s, lang, ok := stringArg(args[0])
	if !ok {
		return value{}, ErrType
	}
	start, ok := args[1].number()
	if !ok {
		return value{}, ErrType
	}
	from := xpathRound(start.float())
	to := math.Inf(1)
	if len(args) == 3 {
		l, ok := args[2].number()
		if !ok {
			return value{}, ErrType
		}
		to = from + xpathRound(l.float())
	}
	var b strings.Builder
	p := 1.0
	for _, r := range s {
		if p >= from && p < to {
			b.WriteRune(r)
		}
		p++
	}
	return langStr(b.String(), lang), nil
}

// xpathRound rounds half towards positive infinity.
func xpathRound(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	return math.Floor(f + 0.5)
}

// fnEncodeForURI percent-encodes every UTF-8 byte except the RFC 3986
// unreserved characters.
func fnEncodeForURI(_ *Context, a value) (value, error) {
	s, _, ok := stringArg(a)
	if !ok {
		return value{}, ErrType
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return strVal(b.String()), nil
}

// fnConcat keeps a language tag only when every argument has the same
// one (§17.4.3.12).
func fnConcat(_ *Context, args []value) (value, error) {
	var b strings.Builder
	lang := ""
	for i, a := range args {
		s, l, ok := stringArg(a)
		if !ok {
			return value{}, ErrType
		}
		switch {
		case i == 0:
			lang = l
		case l != lang:
			lang = ""
		}
		b.WriteString(s)
	}
	return langStr(b.String(), lang), nil
}

// fnLangMatches is RFC 4647 §3.3.1 basic filtering: "*" matches any
// non-empty tag, otherwise the range must equal the tag or a prefix of
// it ending at a '-', ignoring case.
func fnLangMatches(_ *Context, a, b value) (value, error) {
	tag, okA := simpleArg(a)
	rng, okB := simpleArg(b)
	if !okA || !okB {
		return value{}, ErrType
	}
	if rng == "*" {
		return boolVal(tag != ""), nil
	}
	match := len(tag) >= len(rng) && strings.EqualFold(tag[:len(rng)], rng) &&
		(len(tag) == len(rng) || tag[len(rng)] == '-')
	return boolVal(match), nil
}
