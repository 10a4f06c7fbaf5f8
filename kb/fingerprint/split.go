package fingerprint

import (
	"regexp/syntax"
	"slices"
	"strings"
)

// maxAlternatives bounds the patterns one html regex is split into.
const maxAlternatives = 8

// alternatives returns regexes whose union is re when re is an
// alternation, alone or between a prefix and a suffix (the first
// alternation, when there are several): Django's
// (?:powered by <a[^>]+>Django|<input[^>]*name=["']csrfmiddlewaretoken)
// becomes one regex per branch, and <(?:param|embed|iframe)[^>]+youtube
// becomes <param[^>]+youtube, <embed…, <iframe…. Each is then indexed by
// its own literals and matched from its own opening literal, where the
// whole would be filed under the literals common to all branches and
// tried from every byte or every '<'. It returns nil when re is no such
// alternation, has more than maxAlternatives branches, has an opening
// literal longer than '<' already or no branch would have one, or when a
// split would renumber a capture group a version template refers to
// (captures in a branch after the first, or after the alternation).
func alternatives(re string, version bool) []string {
	t, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return nil
	}
	var prefix, suffix []*syntax.Regexp
	alt := t
	if t.Op == syntax.OpConcat {
		// The first alternation decides the opening; later ones stay whole.
		k := slices.IndexFunc(t.Sub, func(s *syntax.Regexp) bool { return s.Op == syntax.OpAlternate })
		if k < 0 {
			return nil
		}
		prefix, alt, suffix = t.Sub[:k], t.Sub[k], t.Sub[k+1:]
	}
	if alt.Op != syntax.OpAlternate || len(alt.Sub) > maxAlternatives {
		return nil
	}
	if version && (slices.ContainsFunc(alt.Sub[1:], hasCapture) || slices.ContainsFunc(suffix, hasCapture)) {
		return nil
	}
	if len(head(t)) > 1 {
		return nil // matched from its opening already
	}
	out := make([]string, len(alt.Sub))
	opens := false
	for i, branch := range alt.Sub {
		var b strings.Builder
		for _, part := range slices.Concat(prefix, []*syntax.Regexp{branch}, suffix) {
			// Only an alternation binds looser than concatenation;
			// other parts are written bare, so that the literals
			// around the branch join into its opening.
			if part.Op == syntax.OpAlternate {
				b.WriteString("(?:" + printRegexp(part) + ")")
			} else {
				b.WriteString(printRegexp(part))
			}
		}
		out[i] = b.String()
		if bt, err := syntax.Parse(out[i], syntax.Perl); err == nil && len(head(bt)) > 1 {
			opens = true
		}
	}
	if !opens {
		return nil // no branch would be matched from a longer opening
	}
	return out
}

// head is the opening literal of a parsed regex (see opening).
func head(t *syntax.Regexp) string {
	h, _ := opening(t.Simplify())
	return h
}

func hasCapture(t *syntax.Regexp) bool {
	return t.Op == syntax.OpCapture || slices.ContainsFunc(t.Sub, hasCapture)
}
