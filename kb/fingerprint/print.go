package fingerprint

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
)

// printRegexp writes t as regular-expression text that compiles to the
// same matcher. syntax.Regexp.String does too, but it works out which
// flags to print by folding every rune of every character class, which
// for a class like [^>] walks the whole of Unicode: thousands of
// patterns took seconds to load. Here flags are written where a node
// needs them: (?i:) around a case-folded literal, (?s:.) and (?-s:.)
// for the two dots, (?m:^) and (?m:$) for line anchors.
func printRegexp(t *syntax.Regexp) string {
	var b strings.Builder
	writeRegexp(&b, t)
	return b.String()
}

func writeRegexp(b *strings.Builder, t *syntax.Regexp) {
	switch t.Op {
	case syntax.OpNoMatch:
		b.WriteString(`[^\x00-\x{10FFFF}]`)
	case syntax.OpEmptyMatch:
		b.WriteString(`(?:)`)
	case syntax.OpLiteral:
		if t.Flags&syntax.FoldCase != 0 {
			b.WriteString(`(?i:`)
		}
		for _, r := range t.Rune {
			writeRune(b, r)
		}
		if t.Flags&syntax.FoldCase != 0 {
			b.WriteString(`)`)
		}
	case syntax.OpCharClass:
		b.WriteByte('[')
		for i := 0; i < len(t.Rune); i += 2 {
			writeRune(b, t.Rune[i])
			if t.Rune[i+1] != t.Rune[i] {
				b.WriteByte('-')
				writeRune(b, t.Rune[i+1])
			}
		}
		if len(t.Rune) == 0 {
			b.WriteString(`^\x00-\x{10FFFF}`)
		}
		b.WriteByte(']')
	case syntax.OpAnyCharNotNL:
		b.WriteString(`(?-s:.)`)
	case syntax.OpAnyChar:
		b.WriteString(`(?s:.)`)
	case syntax.OpBeginLine:
		b.WriteString(`(?m:^)`)
	case syntax.OpEndLine:
		b.WriteString(`(?m:$)`)
	case syntax.OpBeginText:
		b.WriteString(`\A`)
	case syntax.OpEndText:
		b.WriteString(`\z`)
	case syntax.OpWordBoundary:
		b.WriteString(`\b`)
	case syntax.OpNoWordBoundary:
		b.WriteString(`\B`)
	case syntax.OpCapture:
		b.WriteByte('(')
		if t.Name != "" {
			b.WriteString(`?P<` + t.Name + `>`)
		}
		writeRegexp(b, t.Sub[0])
		b.WriteByte(')')
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		b.WriteString(`(?:`)
		writeRegexp(b, t.Sub[0])
		b.WriteByte(')')
		switch t.Op {
		case syntax.OpStar:
			b.WriteByte('*')
		case syntax.OpPlus:
			b.WriteByte('+')
		case syntax.OpQuest:
			b.WriteByte('?')
		default:
			b.WriteString(`{` + strconv.Itoa(t.Min))
			if t.Max != t.Min {
				b.WriteByte(',')
				if t.Max >= 0 {
					b.WriteString(strconv.Itoa(t.Max))
				}
			}
			b.WriteByte('}')
		}
		if t.Flags&syntax.NonGreedy != 0 {
			b.WriteByte('?')
		}
	case syntax.OpConcat:
		for _, sub := range t.Sub {
			if sub.Op == syntax.OpAlternate {
				b.WriteString(`(?:`)
				writeRegexp(b, sub)
				b.WriteByte(')')
			} else {
				writeRegexp(b, sub)
			}
		}
	case syntax.OpAlternate:
		for i, sub := range t.Sub {
			if i > 0 {
				b.WriteByte('|')
			}
			writeRegexp(b, sub)
		}
	default:
		panic(fmt.Sprintf("fingerprint: regexp op %v", t.Op))
	}
}

// writeRune writes r as itself when it is a letter or digit, else
// escaped, which is valid inside and outside a class.
func writeRune(b *strings.Builder, r rune) {
	if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
		b.WriteRune(r)
		return
	}
	fmt.Fprintf(b, `\x{%x}`, r)
}
