package expr

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mneme-archive/mneme/sparql/syntax"
)

// translateRegex turns an XPath/XSD regular expression with XPath flags
// (F&O §7.6.1.1: s, m, i, x, q) into Go RE2 syntax. The classes whose
// meaning differs are rewritten (\d, \w, \s, \i, \c, and '.' without s,
// which must not match \r); what RE2 cannot do is an error that says so.
func translateRegex(pattern, flags string) (string, error) {
	var goFlags string
	var dotAll, extended, literal bool
	for _, f := range flags {
		switch f {
		case 's':
			dotAll = true
			goFlags += "s"
		case 'm':
			goFlags += "m"
		case 'i':
			goFlags += "i"
		case 'x':
			extended = true
		case 'q':
			literal = true
		default:
			return "", fmt.Errorf("regular expression flag %q is not one of s, m, i, x, q", f)
		}
	}
	prefix := ""
	if goFlags != "" {
		prefix = "(?" + goFlags + ")"
	}
	if literal {
		return prefix + regexp.QuoteMeta(pattern), nil
	}
	var b strings.Builder
	b.WriteString(prefix)
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case extended && !inClass && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			continue
		case c == '\\':
			if i+1 >= len(pattern) {
				return "", fmt.Errorf("regular expression ends with a lone backslash")
			}
			i++
			n, err := translateEscape(pattern, &i, inClass)
			if err != nil {
				return "", err
			}
			b.WriteString(n)
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
			if strings.HasPrefix(pattern[i+1:], "^") {
				b.WriteByte('^')
				i++
			}
		case c == '[' && inClass:
			return "", fmt.Errorf("character class subtraction or nested class at offset %d is not supported", i)
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		case c == '.' && !inClass && !dotAll:
			b.WriteString(`[^\n\r]`)
		default:
			b.WriteByte(c)
		}
	}
	if inClass {
		return "", fmt.Errorf("character class is not closed")
	}
	return b.String(), nil
}

// escapeClasses are XPath's multi-character escapes as RE2 class bodies:
// {body} for a positive class, {"", body} for a complement, which RE2 can
// only write as a class of its own.
var escapeClasses = map[byte][2]string{
	'd': {`\p{Nd}`, ``},
	'D': {`\P{Nd}`, ``},
	'w': {`\p{L}\p{M}\p{N}\p{S}`, ``},
	'W': {`\p{P}\p{Z}\p{C}`, ``},
	's': {` \t\n\r`, ``},
	'S': {``, ` \t\n\r`},
	'i': {`\p{L}_:`, ``},
	'I': {``, `\p{L}_:`},
	'c': {`\p{L}\p{Nd}\p{Mn}\p{Mc}._:\-`, ``},
	'C': {``, `\p{L}\p{Nd}\p{Mn}\p{Mc}._:\-`},
}

// translateEscape rewrites the escape whose letter is at pattern[*i]
// (advancing *i past any {…} argument).
func translateEscape(pattern string, i *int, inClass bool) (string, error) {
	c := pattern[*i]
	if cl, ok := escapeClasses[c]; ok {
		switch {
		case cl[0] != "" && inClass:
			return cl[0], nil
		case cl[0] != "":
			return "[" + cl[0] + "]", nil
		case inClass:
			return "", fmt.Errorf(`\%c inside a character class is not supported`, c)
		}
		return "[^" + cl[1] + "]", nil
	}
	switch {
	case c >= '1' && c <= '9':
		return "", fmt.Errorf(`back-reference \%c is not supported (Go's RE2 engine has no back-references)`, c)
	case c == 'p' || c == 'P':
		end := strings.IndexByte(pattern[*i:], '}')
		if end < 0 || *i+1 >= len(pattern) || pattern[*i+1] != '{' {
			return "", fmt.Errorf(`\%c needs a {name}`, c)
		}
		name := pattern[*i+2 : *i+end]
		*i += end
		if strings.HasPrefix(name, "Is") {
			return "", fmt.Errorf(`block escape \%c{%s} (a Unicode block) is not supported`, c, name)
		}
		return `\` + string(c) + "{" + name + "}", nil
	case strings.IndexByte(`nrt\|.-^?*+{}()[]$`, c) >= 0:
		return `\` + string(c), nil
	}
	return "", fmt.Errorf(`invalid escape \%c`, c)
}

// compileXPathRegex translates and compiles a pattern with flags.
func compileXPathRegex(pattern, flags string) (*regexp.Regexp, error) {
	src, err := translateRegex(pattern, flags)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("regular expression %q: %v", pattern, err)
	}
	return re, nil
}

// regexNode is REGEX(text, pattern[, flags]) or REPLACE(text, pattern,
// replacement[, flags]). A constant pattern is compiled once; others are
// compiled per distinct pattern and cached in the Context.
type regexNode struct {
	replace bool
	args    []node
	re      *regexp.Regexp // set for a constant pattern and flags
}

func compileRegex(x *syntax.Call, args []node) (node, error) {
	n := &regexNode{replace: x.Op == "REPLACE", args: args}
	patIdx, flagIdx := 1, 2
	if n.replace {
		flagIdx = 3
	}
	pat, ok := constString(args[patIdx])
	flags, okF := "", true
	if len(args) > flagIdx {
		flags, okF = constString(args[flagIdx])
	}
	if ok && okF {
		re, err := compileXPathRegex(pat, flags)
		if err != nil {
			return nil, &CompileError{Expr: syntax.ExprString(x), Msg: err.Error()}
		}
		if n.replace && re.MatchString("") {
			return nil, &CompileError{Expr: syntax.ExprString(x), Msg: "REPLACE pattern matches the empty string"}
		}
		n.re = re
	}
	return n, nil
}

func constString(n node) (string, bool) {
	c, ok := n.(*constNode)
	if !ok {
		return "", false
	}
	return simpleArg(c.v)
}

func (n *regexNode) eval(c *Context, b Binding) (value, error) {
	var buf [4]value // REGEX and REPLACE take at most four arguments
	vals := buf[:len(n.args)]
	if err := evalArgs(c, b, n.args, vals); err != nil {
		return value{}, err
	}
	text, lang, ok := stringArg(vals[0])
	if !ok {
		return value{}, ErrType
	}
	flagIdx := 2
	if n.replace {
		flagIdx = 3
	}
	re := n.re
	if re == nil {
		var err error
		if re, err = c.regexp(vals[1], vals, flagIdx); err != nil {
			return value{}, err
		}
		if n.replace && re.MatchString("") {
			return value{}, ErrType
		}
	}
	if !n.replace {
		return boolVal(re.MatchString(text)), nil
	}
	repl, ok := simpleArg(vals[2])
	if !ok {
		return value{}, ErrType
	}
	tmpl, ok := translateReplacement(repl)
	if !ok {
		return value{}, ErrType
	}
	return langStr(re.ReplaceAllString(text, tmpl), lang), nil
}

// maxCachedRegexps bounds the per-query cache of computed patterns.
const maxCachedRegexps = 256

// regexp compiles a pattern that only became known at evaluation.
func (c *Context) regexp(pat value, vals []value, flagIdx int) (*regexp.Regexp, error) {
	p, ok := simpleArg(pat)
	flags := ""
	if len(vals) > flagIdx {
		flags, ok = simpleArg(vals[flagIdx])
	}
	if !ok {
		return nil, ErrType
	}
	key := flags + "/" + p
	if re, ok := c.regexps[key]; ok {
		return re, nil
	}
	if len(c.regexps) >= maxCachedRegexps {
		clear(c.regexps) // patterns computed per row must not pile up
	}
	re, err := compileXPathRegex(p, flags)
	if err != nil {
		return nil, ErrType
	}
	if c.regexps == nil {
		c.regexps = map[string]*regexp.Regexp{}
	}
	c.regexps[key] = re
	return re, nil
}

// translateReplacement turns an XPath replacement string ($N for a group,
// \$ and \\ for literal characters) into Go's template syntax.
func translateReplacement(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 >= len(s) || s[i+1] != '\\' && s[i+1] != '$' {
				return "", false
			}
			i++
			if s[i] == '$' {
				b.WriteString("$$")
			} else {
				b.WriteByte('\\')
			}
		case '$':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j == i+1 {
				return "", false
			}
			b.WriteString("${" + s[i+1:j] + "}")
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}
