package fingerprint

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// domRule is one selector of a dom rule, matched on the parsed page with
// a CSS selector engine (cascadia): the rule holds when an element the
// selector selects has the attributes and text it asks for.
type domRule struct {
	selector string
	attrs    map[string]string // attribute → regex (with \;version:…)
	text     string            // regex on the element's text, "" for none
	once     sync.Once
	sel      cascadia.Selector // nil when it does not compile
	attrRE   map[string]*regexp.Regexp
	textRE   *regexp.Regexp
	version  []byte // template read from an attribute or the text
}

// domSpec is a selector's conditions in the object form of a dom rule.
type domSpec struct {
	Exists     *json.RawMessage  `json:"exists"`
	Attributes map[string]string `json:"attributes"`
	Text       *string           `json:"text"`
	Properties json.RawMessage   `json:"properties"`
}

// domRules reads a dom rule: a selector list as a string or a list of
// them, or an object of selector → conditions. Each selector of a list
// becomes a rule with the literal the markup index files it under (a
// selector no markup literal of four bytes or more is required for, say
// `title`, would be run on every page, and is left out, as are rules on
// DOM properties, which need a browser). skipped counts what is left out.
func domRules(raw json.RawMessage) (rules []*domRule, lits []string, skipped int) {
	var list strOrList
	var obj map[string]domSpec
	add := func(sel string, spec domSpec) {
		for _, one := range splitSelectors(sel) {
			lit := selectorLiteral(one)
			if lit == "" {
				skipped++
				continue
			}
			r := &domRule{selector: one, attrs: spec.Attributes}
			if spec.Text != nil {
				r.text = *spec.Text
			}
			rules, lits = append(rules, r), append(lits, lit)
		}
	}
	if list.UnmarshalJSON(raw) == nil {
		for _, sel := range list {
			add(sel, domSpec{})
		}
		return rules, lits, skipped
	}
	if json.Unmarshal(raw, &obj) != nil {
		return nil, nil, 1
	}
	for _, sel := range slices.Sorted(maps.Keys(obj)) {
		spec := obj[sel]
		if len(spec.Properties) > 0 {
			skipped++
			continue
		}
		add(sel, spec)
	}
	return rules, lits, skipped
}

// splitSelectors splits a selector list at its top-level commas.
func splitSelectors(s string) []string {
	var out []string
	depth, quote, start := 0, byte(0), 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// selectorPart is what a selector requires the markup to hold: quoted
// attribute values, attribute names, ids and classes.
var selectorPart = regexp.MustCompile(`\[\s*([\w-]+)\s*(?:[~|^$*]?=\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]+)))?\s*\]|[#.]([\w-]+)`)

// selectorLiteral is the longest string any page a selector selects in
// holds in its markup (lower-cased, ASCII), "" when none has four bytes.
func selectorLiteral(sel string) string {
	best := ""
	for _, m := range selectorPart.FindAllStringSubmatch(sel, -1) {
		for _, c := range []string{m[1], m[2], m[3], m[4], m[5]} {
			if len(c) > len(best) && isASCII(c) {
				best = c
			}
		}
	}
	if len(best) < 4 {
		return ""
	}
	return strings.ToLower(best)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// compile makes r's selector and regexes, once.
func (r *domRule) compile() {
	r.once.Do(func() {
		if sel, err := cascadia.Compile(r.selector); err == nil {
			r.sel = sel
		}
		re := func(src string) *regexp.Regexp {
			expr, rest, _ := strings.Cut(src, `\;`)
			for _, a := range strings.Split(rest, `\;`) {
				if v, ok := strings.CutPrefix(a, "version:"); ok && v != "" {
					r.version = []byte(backref.ReplaceAllString(v, "$${$1}"))
				}
			}
			x, err := regexp.Compile("(?i)" + expr)
			if err != nil {
				return regexp.MustCompile(`$.^`) // matches nothing
			}
			return x
		}
		r.attrRE = map[string]*regexp.Regexp{}
		for k, v := range r.attrs {
			r.attrRE[k] = re(v)
		}
		if r.text != "" {
			r.textRE = re(r.text)
		}
	})
}

// findDOM reports whether an element r selects in root has r's
// attributes and text, with the version one of them read.
func findDOM(r *domRule, root *html.Node) (string, bool) {
	r.compile()
	if r.sel == nil {
		return "", false
	}
	for _, n := range r.sel.MatchAll(root) {
		version, ok := "", true
		check := func(re *regexp.Regexp, val string) {
			m := re.FindStringSubmatchIndex(val)
			if m == nil {
				ok = false
				return
			}
			if r.version != nil && version == "" {
				version = string(re.ExpandString(nil, string(r.version), val, m))
			}
		}
		for k, re := range r.attrRE {
			v, has := "", false
			for _, a := range n.Attr {
				if strings.EqualFold(a.Key, k) {
					v, has = a.Val, true
				}
			}
			if !has {
				ok = false
				break
			}
			check(re, v)
		}
		if ok && r.textRE != nil {
			check(r.textRE, nodeText(n))
		}
		if ok {
			return version, true
		}
	}
	return "", false
}

// nodeText is the text of n's subtree.
func nodeText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}
