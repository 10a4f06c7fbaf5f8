package adapt

import (
	"fmt"
	"regexp"
	"strings"
)

// path is one location path of a KB expression, cut into the steps that
// relaxation changes: the paper's XPath fragment (child and descendant
// steps, a name test or *, predicates). Text around the path — a
// function that wraps it, such as substring-after(normalize-space(P), ' ')
// — is kept as prefix and suffix.
type path struct {
	prefix, suffix string
	lead           string // "", "." or ".." before the first step
	steps          []pstep
}

// pstep is one step: its separator ("/" or "//"), its test (a tag, *,
// @attr, text(), an axis::test) and its predicates, each as written.
type pstep struct {
	sep   string
	test  string
	preds []string
}

func (p *path) clone() *path {
	c := *p
	c.steps = make([]pstep, len(p.steps))
	for i, s := range p.steps {
		c.steps[i] = pstep{sep: s.sep, test: s.test, preds: append([]string(nil), s.preds...)}
	}
	return &c
}

// locPath is the path alone, without the wrapping function.
func (p *path) locPath() string {
	var b strings.Builder
	b.WriteString(p.lead)
	for _, s := range p.steps {
		b.WriteString(s.sep)
		b.WriteString(s.test)
		for _, pr := range s.preds {
			b.WriteString("[" + pr + "]")
		}
	}
	return b.String()
}

func (p *path) String() string { return p.prefix + p.locPath() + p.suffix }

// element reports whether step i tests elements (not an attribute, a text
// node or another axis), so that its tag can be replaced.
func (s pstep) element() bool {
	return s.test != "" && !strings.ContainsAny(s.test, "@():") && s.test != "." && s.test != ".."
}

// unquoted calls fn with each byte of src outside string literals and
// the depth of brackets and parentheses after it, until fn returns false.
func unquoted(src string, fn func(i int, c byte, depth int) bool) {
	depth := 0
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"':
			quote = c
			continue
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		}
		if !fn(i, c, depth) {
			return
		}
	}
}

// splitUnion cuts src at its top-level "|" operators.
func splitUnion(src string) []string {
	var out []string
	start := 0
	unquoted(src, func(i int, c byte, depth int) bool {
		if c == '|' && depth == 0 {
			out = append(out, strings.TrimSpace(src[start:i]))
			start = i + 1
		}
		return true
	})
	return append(out, strings.TrimSpace(src[start:]))
}

// parsePath finds the first location path of src (outside string
// literals) and cuts it into steps. It fails on an expression with no
// path, or whose path leaves the fragment (a filter expression step).
func parsePath(src string) (*path, error) {
	start := -1
	unquoted(src, func(i int, c byte, _ int) bool {
		if c == '/' || c == '.' && i+1 < len(src) && src[i+1] == '/' {
			start = i
			return false
		}
		return true
	})
	if start < 0 {
		return nil, fmt.Errorf("%q: no location path", src)
	}
	p := &path{prefix: src[:start]}
	i := start
	for src[i] == '.' {
		p.lead += "."
		i++
	}
	for i < len(src) && src[i] == '/' {
		s := pstep{sep: "/"}
		i++
		if i < len(src) && src[i] == '/' {
			s.sep = "//"
			i++
		}
		j := i
		for j < len(src) && (isNameByte(src[j]) || strings.IndexByte("@*:.", src[j]) >= 0) {
			j++
		}
		if j+1 < len(src) && src[j] == '(' && src[j+1] == ')' {
			j += 2 // text(), node()
		}
		if j == i {
			return nil, fmt.Errorf("%q: column %d: expected a step", src, i+1)
		}
		s.test = src[i:j]
		i = j
		for i < len(src) && src[i] == '[' {
			end := closing(src, i)
			if end < 0 {
				return nil, fmt.Errorf("%q: column %d: unclosed predicate", src, i+1)
			}
			s.preds = append(s.preds, src[i+1:end])
			i = end + 1
		}
		p.steps = append(p.steps, s)
	}
	if len(p.steps) == 0 {
		return nil, fmt.Errorf("%q: no steps", src)
	}
	p.suffix = src[i:]
	return p, nil
}

func isNameByte(c byte) bool {
	return c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// closing returns the index of the "]" that closes the "[" at open.
func closing(src string, open int) int {
	end := -1
	unquoted(src[open:], func(i int, c byte, depth int) bool {
		if c == ']' && depth == 0 {
			end = open + i
			return false
		}
		return true
	})
	return end
}

// valuePred matches a predicate that compares an attribute with a string
// literal: contains(@class, 'x'), starts-with(@id, 'x'), @rel='x'. Its
// groups are the attribute and the literal.
var valuePred = regexp.MustCompile(`^\s*(?:(?:contains|starts-with)\(\s*@([\w:-]+)\s*,\s*'([^']*)'\s*\)|@([\w:-]+)\s*=\s*'([^']*)')\s*$`)

// predValue returns the attribute and the literal of a value predicate.
func predValue(pred string) (attr, lit string, ok bool) {
	m := valuePred.FindStringSubmatch(pred)
	if m == nil {
		return "", "", false
	}
	if m[1] != "" {
		return m[1], m[2], true
	}
	return m[3], m[4], true
}

// withValue returns pred with its literal replaced by v.
func withValue(pred, v string) string {
	_, lit, _ := predValue(pred)
	return strings.Replace(pred, "'"+lit+"'", "'"+v+"'", 1)
}
