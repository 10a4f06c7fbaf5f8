package fingerprint

// The analysis of a pattern's regular expression for the literals that
// any text it matches must hold: the sets of literals, one of which is
// required, that the literal index (kb/litindex) looks for before the
// regex runs.

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"

	"github.com/mneme-archive/mneme/kb/litindex"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// without returns sets less those equal to set.
func without(sets [][]string, set []string) [][]string {
	return slices.DeleteFunc(sets, func(s []string) bool { return slices.Equal(s, set) })
}

// bestSet returns the index of the most selective of sets long enough to
// be indexed, -1 if there is none.
func bestSet(sets [][]string) int { return bestSetOf(sets, litindex.MinLen) }

// bestSetOf returns the index of the most selective of sets whose
// literals have at least minLen bytes, -1 if there is none.
func bestSetOf(sets [][]string, minLen int) int {
	best := -1
	for i, set := range sets {
		if litindex.Shortest(set) >= minLen && (best < 0 || better(set, sets[best])) {
			best = i
		}
	}
	return best
}

// literalSets returns the sets of literals (lower-cased) every match of
// p's regex contains one of, and marks p pure or anchored.
func literalSets(p *pattern) [][]string {
	if p.expr == "" {
		return nil
	}
	t := p.tree
	p.tree = nil  // read once: the regexes are compiled from expr
	if t == nil { // read before, by another index (Subset)
		var err error
		if t, err = syntax.Parse(p.expr, syntax.Perl); err != nil {
			return nil
		}
	}
	t = t.Simplify()
	p.anchored = hasAnchor(t)
	p.stop, p.narrow = stopBytes(t)
	p.narrow = p.narrow && p.stop != byteSet{} // else a cut would walk the window for nothing
	p.stop1 = p.stop.only()
	p.head, p.gate = opening(t)
	sets := conjuncts(t)
	if all, ok := exact(t); ok && p.version == nil && !slices.Contains(all, "") && !p.anchored {
		// The regex is a few strings: finding one is a match.
		p.pure = true
		sets = [][]string{all}
	}
	// Pages are lower-cased in ASCII only; a set with a literal that has
	// other case variants could miss a match, so it is dropped.
	sets = slices.DeleteFunc(sets, func(set []string) bool {
		return slices.ContainsFunc(set, func(l string) bool { return !caseless(l) })
	})
	for _, set := range sets {
		for i, l := range set {
			set[i] = string(vdoc.LowerASCII([]byte(l)))
		}
	}
	return sets
}

// lowered returns expr (compiled with (?i)) for ASCII-lower-cased text,
// prefixed by anchor: its case-folded literals of ASCII letters, and of
// other characters without case variants, lower-cased and matched as
// they are; literals with other letters keep (?i). Matching lower-cased
// text, it finds what re finds in the text, at the same offsets, as long
// as the text spells with ASCII letters the K and s that (?i) also
// matches as U+212A and U+017F (as the literal index assumes too).
func lowered(expr string, anchor string) *regexp.Regexp {
	t, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(err) // re was compiled from this text with the same flags
	}
	lowerLiterals(t)
	return regexp.MustCompile(anchor + "(?:" + printRegexp(t) + ")")
}

func lowerLiterals(t *syntax.Regexp) {
	if t.Op == syntax.OpLiteral && t.Flags&syntax.FoldCase != 0 && caseless(string(t.Rune)) {
		t.Rune = []rune(literal(t))
		t.Flags &^= syntax.FoldCase
	}
	for _, sub := range t.Sub {
		lowerLiterals(sub)
	}
}

// opening returns the literal every match of t starts with (lower-cased),
// "" if there is none or it has other case variants than ASCII ones; and
// the literal sets every match holds between it and the next '>' (within
// its tag, for <link[^>]* href=[^>]*?bootstrap). A 1-byte literal (<) is
// returned only with a set of literals of 4 bytes or more: it would be
// looked up at every tag.
func opening(t *syntax.Regexp) (string, [][]string) {
	for t.Op == syntax.OpCapture {
		t = t.Sub[0]
	}
	subs := []*syntax.Regexp{t}
	if t.Op == syntax.OpConcat {
		subs = t.Sub
	}
	first := subs[0]
	if first.Op != syntax.OpLiteral || !caseless(string(first.Rune)) {
		return "", nil
	}
	gate := slices.DeleteFunc(beforeTag(subs[1:]), func(set []string) bool {
		return slices.ContainsFunc(set, func(l string) bool { return l == "" || !caseless(l) })
	})
	if len(first.Rune) < 2 && !slices.ContainsFunc(gate, func(set []string) bool { return litindex.Shortest(set) >= 4 }) {
		return "", nil
	}
	return literal(first), gate
}

// beforeTag returns literal sets every match of the concatenation subs
// holds before its first '>'.
func beforeTag(subs []*syntax.Regexp) [][]string {
	var sets [][]string
	for _, e := range subs {
		for e.Op == syntax.OpCapture {
			e = e.Sub[0]
		}
		var a byteSet
		if !alphabet(e, &a) {
			return sets
		}
		if !a.has('>') {
			sets = append(sets, conjuncts(e)...)
			continue
		}
		switch e.Op {
		case syntax.OpConcat:
			sets = append(sets, beforeTag(e.Sub)...)
		case syntax.OpAlternate:
			// Each branch holds one of its own sets before a '>'.
			var any []string
			for _, b := range e.Sub {
				bs := beforeTag([]*syntax.Regexp{b})
				best := bestSetOf(bs, 1)
				if best < 0 {
					return sets
				}
				any = append(any, bs[best]...)
			}
			sets = append(sets, any)
		}
		return sets
	}
	return sets
}

// caseless reports whether l has no non-ASCII letter with case variants.
func caseless(l string) bool {
	for _, r := range l {
		if r >= 0x80 && unicode.SimpleFold(r) != r {
			return false
		}
	}
	return true
}

func hasAnchor(t *syntax.Regexp) bool {
	switch t.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		return true
	}
	return slices.ContainsFunc(t.Sub, hasAnchor)
}

// conjuncts returns sets of literals such that every match of t contains
// one literal of each set.
func conjuncts(t *syntax.Regexp) [][]string {
	switch t.Op {
	case syntax.OpLiteral:
		return [][]string{{literal(t)}}
	case syntax.OpCapture, syntax.OpPlus:
		return conjuncts(t.Sub[0])
	case syntax.OpRepeat:
		if t.Min >= 1 {
			return conjuncts(t.Sub[0])
		}
	case syntax.OpAlternate:
		// Every match holds a literal of one set of each branch, so the
		// best sets of the branches together make one set, and the second
		// best together another: a branch filed under a common word
		// (_ui/(?:desktop|common)) then also needs its rarer part (_ui/).
		var best, second []string
		for _, s := range t.Sub {
			sets := conjuncts(s)
			var b, n []string
			for _, set := range sets {
				switch {
				case b == nil || better(set, b):
					b, n = set, b
				case n == nil || better(set, n):
					n = set
				}
			}
			if litindex.Shortest(b) < litindex.MinLen {
				return nil
			}
			if litindex.Shortest(n) < litindex.MinLen {
				n = b
			}
			for _, l := range b {
				best = appendNew(best, l)
			}
			for _, l := range n {
				second = appendNew(second, l)
			}
		}
		if slices.Equal(best, second) {
			return [][]string{best}
		}
		return [][]string{best, second}
	case syntax.OpConcat:
		// Runs of subexpressions that match one of few strings combine
		// into the set of their concatenations: wss?:// → ws://, wss://.
		var out [][]string
		run := []string{""}
		flush := func() {
			if !slices.Contains(run, "") {
				out = append(out, run)
			}
			run = []string{""}
		}
		for _, s := range t.Sub {
			if set, ok := exact(s); ok && len(set)*len(run) <= maxExact {
				run = product(run, set)
				continue
			}
			flush()
			if set, ok := exact(s); ok {
				run = set
				continue
			}
			out = append(out, conjuncts(s)...)
		}
		flush()
		return out
	}
	return nil
}

// maxExact bounds the sets exact builds.
const maxExact = 8

// exact returns the strings t matches when they are few (lower-cased).
func exact(t *syntax.Regexp) ([]string, bool) {
	switch t.Op {
	case syntax.OpLiteral:
		return []string{literal(t)}, true
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i < len(t.Rune); i += 2 {
			for r := t.Rune[i]; r <= t.Rune[i+1]; r++ {
				if r >= 0x80 && unicode.SimpleFold(r) < 0x80 {
					continue // ſ, K: (?i) folds them to s, k; pages spell s, k
				}
				if out = appendNew(out, string(vdoc.LowerASCII([]byte(string(r))))); len(out) > 4 {
					return nil, false
				}
			}
		}
		return out, true
	case syntax.OpCapture:
		return exact(t.Sub[0])
	case syntax.OpQuest:
		set, ok := exact(t.Sub[0])
		return appendNew(set, ""), ok && len(set) < maxExact
	case syntax.OpAlternate:
		var out []string
		for _, s := range t.Sub {
			set, ok := exact(s)
			if !ok {
				return nil, false
			}
			for _, x := range set {
				out = appendNew(out, x)
			}
			if len(out) > maxExact {
				return nil, false
			}
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range t.Sub {
			set, ok := exact(s)
			if !ok || len(set)*len(out) > maxExact {
				return nil, false
			}
			out = product(out, set)
		}
		return out, true
	}
	return nil, false
}

// literal is the text of a literal node, lower-cased as pages are: the
// parser keeps (?i) literals in upper case, which would hide the markup
// words better looks for.
func literal(t *syntax.Regexp) string {
	return string(vdoc.LowerASCII([]byte(string(t.Rune))))
}

func appendNew(set []string, s string) []string {
	if slices.Contains(set, s) {
		return set
	}
	return append(set, s)
}

func product(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			out = appendNew(out, x+y)
		}
	}
	return out
}

// better reports whether literal set a is more selective than b: its
// worst literal has more characters that are not common markup (tag and
// attribute names, quotes, "http://"), then more characters at all.
func better(a, b []string) bool {
	sa, sb := selectivity(a), selectivity(b)
	if sa != sb {
		return sa > sb
	}
	return litindex.Shortest(a) > litindex.Shortest(b)
}

func selectivity(set []string) int {
	n := -1
	for _, l := range set {
		if k := len(markup.Replace(l)); n < 0 || k < n {
			n = k
		}
	}
	return n
}

// markup are strings found on most pages, which make a literal no more
// selective.
var markup = strings.NewReplacer(
	"<script", "", "<link", "", "<meta", "", "<div", "", "<img", "", "<span", "", "<a ", "", "<body", "",
	"<html", "", "<iframe", "", "<style", "", "<input", "", "<form", "", "<table", "", "table", "", "<ul", "",
	"<li", "", "<nav", "", "<section", "", "<header", "", "<footer", "", "<button", "", "<label", "", "<p", "",
	"href=", "", "src=", "", "class=", "",
	"id=", "", "rel=", "", "type=", "", "content=", "", "name=", "", "data-", "", "stylesheet", "",
	"text/javascript", "", "javascript", "", "http://", "", "https://", "", "www.", "", ".min", "", ".js", "",
	".css", "", "script", "", "link", "", "<", "", ">", "", `"`, "", "'", "", "=", "", " ", "", "/", "",
	".", "", "-", "", "_", "", ":", "", ";", "", "(", "", ")", "")
