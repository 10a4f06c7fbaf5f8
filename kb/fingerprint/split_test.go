package fingerprint

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

func TestAlternatives(t *testing.T) {
	cases := []struct {
		re      string
		version bool
		want    int // alternatives, 0: not split
	}{
		{`(?:powered by <a[^>]+>Django ?([\d.]+)?<\/a>|<input[^>]*name=["']csrfmiddlewaretoken["'][^>]*>)`, true, 2},
		{`<(?:param|embed|iframe)[^>]+youtube(?:-nocookie)?\.com/(?:v|embed)`, false, 3},
		{`<(?:div|html)[^>]+ng-app=`, false, 2},
		{`<html[^>]* (?:amp|⚡)[^-]`, false, 0},           // opens with <html already
		{`(?:a([\d.]+)|b([\d.]+))x`, true, 0},            // a capture in the second branch
		{`(?:foo-bar|baz-qux)([\d.]+)`, true, 0},         // a capture after the alternation
		{`<[^>]+(?:sys_master|hybr)`, false, 0},          // no branch opens with more than <
		{`(?:a|b|c|d|e|f|g|h|i)<link rel=x`, false, 0},   // too many branches
		{`(?:<xa [^>]+>|<yb [^>]+>)(?:<c|<d)`, false, 2}, // split at the first alternation
	}
	for _, c := range cases {
		alts := alternatives(c.re, c.version)
		if len(alts) != c.want {
			t.Errorf("%s: %d alternatives %q, want %d", c.re, len(alts), alts, c.want)
		}
	}
}

// TestAlternativesMatchAsWhole checks every html regex of the
// webappanalyzer set that Load splits: on saved pages and on texts made
// to match each branch, the whole matches where one of its alternatives
// does.
func TestAlternativesMatchAsWhole(t *testing.T) {
	s, pages := loadShared(t)
	var texts [][]byte
	for i := 0; i < len(pages); i += 20 {
		texts = append(texts, savedDoc(t, pages[i]).Body)
	}
	byWhole := map[string][]*pattern{}
	for _, p := range s.pats {
		if p.field == "html" && p.desc != "html: "+p.src {
			byWhole[p.desc] = append(byWhole[p.desc], p)
		}
	}
	if len(byWhole) == 0 {
		t.Fatal("no html regex was split")
	}
	matched := 0
	for desc, alts := range byWhole {
		src, _, _ := strings.Cut(strings.TrimPrefix(desc, "html: "), `\;`)
		whole := regexp.MustCompile("(?i)" + src)
		for _, text := range texts {
			if w, g := whole.Match(text), slices.ContainsFunc(alts, func(p *pattern) bool { return p.regexes().re.Match(text) }); w != g {
				t.Errorf("%s: whole matches %v, its alternatives %v", src, w, g)
			}
		}
		// A text each alternative matches, as the whole must.
		for _, p := range alts {
			if x := example(p.regexes().re); x != nil {
				matched++
				if !whole.Match(x) {
					t.Errorf("%s: %q matches alternative %s but not the whole", src, x, p.src)
				}
			}
		}
	}
	t.Logf("%d split regexes, %d alternatives checked on a text of their own", len(byWhole), matched)
	if matched == 0 {
		t.Error("no alternative had an example text")
	}
}

// example returns a short text re matches, nil if the simple
// construction (first branch, fewest repetitions, first character of a
// class) does not give one.
func example(re *regexp.Regexp) []byte {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	var b strings.Builder
	var walk func(t *syntax.Regexp)
	walk = func(t *syntax.Regexp) {
		switch t.Op {
		case syntax.OpLiteral:
			b.WriteString(string(t.Rune))
		case syntax.OpCharClass:
			if len(t.Rune) > 0 {
				b.WriteRune(t.Rune[0])
			}
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('x')
		case syntax.OpPlus:
			walk(t.Sub[0])
		case syntax.OpRepeat:
			for range t.Min {
				walk(t.Sub[0])
			}
		case syntax.OpCapture, syntax.OpAlternate:
			walk(t.Sub[0])
		case syntax.OpConcat:
			for _, s := range t.Sub {
				walk(s)
			}
		}
	}
	walk(t)
	x := []byte(b.String())
	if !re.Match(x) {
		return nil
	}
	return x
}
