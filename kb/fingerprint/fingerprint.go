// Package fingerprint loads Wappalyzer-format technology fingerprints
// (enthec/webappanalyzer's technologies/*.json and categories.json) at run
// time and matches them against virtual documents, to name technologies
// beyond mneme's own knowledge base. The data is GPL-3.0 and is never
// embedded: it is read from a directory given by the user.
//
// Patterns on the page markup (html, scriptSrc), the URL, meta tags,
// headers and cookies are parsed as Go regular expressions
// (case-insensitive, as Wappalyzer matches) when loaded, and compiled
// when a page first needs one. What Wappalyzer reads in a browser is
// read from the page where it can be: a js rule as the global's
// definition in an inline script (jsRule), a dom rule as a CSS selector
// on the parsed page (domRules). LoadOnly keeps the technologies a caller
// asks for (those that name an application, for a crawl) and those that
// imply them. Patterns RE2 cannot compile
// (look-arounds, back-references), scripts rules (on the contents of
// JavaScript files, which a page crawl does not fetch: matched on inline
// scripts they misfire), js rules on a global's value, dom rules on DOM
// properties, and dns/css/xhr/robots/certIssuer rules, which need a
// browser or other requests, are skipped and counted.
//
// Match evaluates only the patterns whose literals the page holds: one
// kb/litindex scan of the markup for the html patterns, one of the URL,
// one of the script sources, and one of each meta, header or cookie
// value for the patterns on its name. Regexes run on lower-cased text
// without (?i) on their ASCII literals, so that package regexp can skip
// to a literal prefix. MatchExhaustive tries every pattern as loaded and
// is the reference Match is tested against.
package fingerprint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"sync"

	jsoniter "github.com/json-iterator/go"

	"github.com/mneme-archive/mneme/kb/litindex"
)

// Application categories: Wappalyzer category id → mneme category (CMS,
// message boards, wikis, blogs, and the static-site generators,
// documentation tools and page builders sites are made with). A
// technology in several takes the most specific: forum, wiki, blog, cms.
var appCategories = map[int]string{1: "cms", 2: "forum", 8: "wiki", 11: "blog", 57: "cms", 4: "cms", 51: "cms"}

var appCategoryRank = map[string]int{"forum": 4, "wiki": 3, "blog": 2, "cms": 1}

// Set is a loaded fingerprint collection, safe for concurrent use.
type Set struct {
	techs []*tech
	pats  []*pattern
	body  *litindex.Index // html patterns, on the markup
	url   *litindex.Index // url patterns, on the URL
	// src files the scriptSrc patterns, on the script sources: the
	// markup holds them too, but each script source is a short text
	// found by a tag-aware parse, and scanning it alone tells which
	// source to match and keeps thousands of literals out of the markup
	// scan.
	src *litindex.Index
	// keyed files the patterns on the values of meta names, headers and
	// cookies: field → lower-case key → the patterns, by their literals.
	keyed    map[string]map[string]*litindex.Index
	keyRegex []int // cookie patterns whose key is itself a regex
	Stats    Stats
}

// Stats counts what a load kept and skipped.
type Stats struct {
	Technologies int
	Patterns     int
	// SkippedJS counts technologies' js rules that are not matched as
	// the global's definition in the markup (jsRule): those that
	// constrain the global's value, which needs a JS engine.
	SkippedJS int
	// SkippedScripts counts scripts patterns (JavaScript file contents).
	SkippedScripts int
	// SkippedOther counts dom selectors on DOM properties or with no
	// literal to index them by, and dns, css, xhr, robots, certIssuer,
	// probe and text rules, which need a browser or other requests.
	SkippedOther int
	// SkippedRegex counts patterns RE2 cannot compile.
	SkippedRegex int
	// Indexed counts patterns filed under a literal; Always those checked
	// on every page.
	Indexed, Always int
}

type tech struct {
	name        string
	slug        string
	cats        []string
	appCategory string
	// implied are the technologies the file says it implies, by index
	// (those the set lacks left out).
	implied []int
}

type pattern struct {
	tech  int
	field string // html, js, dom, scriptSrc, url, meta, headers, cookies
	key   string // meta name, header or cookie name (lower-case)
	keyRE *regexp.Regexp
	// expr is the regex as written, "" when the key's presence
	// suffices; tree is it parsed, kept from compile until index has
	// read its literals. The regexes run on pages (re, low, atHead) are
	// compiled from it at first use (regexes): a page set holds a few of
	// thousands of technologies, and compiling every regex up front was
	// most of the cost of loading.
	expr       string
	tree       *syntax.Regexp
	rx         *regexes
	src        string
	version    []byte // template for regexp.Expand (\1 made ${1}); nil: none
	confidence int
	desc       string // what fired, for Match.Pattern: field[key]: regex
	// js is the global's path, as written, for a js rule (field js,
	// findJS); its regex is the path's literal, which files it in the
	// markup's index.
	js []string
	// dom is the selector and conditions of a dom rule (field dom,
	// findDOM); its regex is a literal the selector requires.
	dom *domRule
	// alt marks an alternative after the first of an html regex split
	// into its alternatives (alternatives), which counts as one pattern.
	alt bool
	// lits is the most selective set of literals one of which occurs in
	// every match (lower-case): the pattern's index entry, and where an
	// html pattern is matched (near them). need holds, as literal ids,
	// the other such sets worth a look-up: each must have a literal in
	// the page.
	lits   []string
	litIDs []int // of lits, for an html or scriptSrc pattern: where they occur
	need   [][]int
	// pure: the regex is one literal with no version, so a page that
	// contains it is a match. anchored: it has ^ or $, which a window
	// cut from the page would falsely satisfy.
	pure, anchored bool
	// stop holds the bytes no match holds, when narrow (there are some,
	// and no word-boundary assertion looks past the match): an html
	// match lies within the run around its literal that has none of them.
	stop   byteSet
	narrow bool
	stop1  int // the one stop byte, -1 if there are none or several
	// head is the literal every match of an html regex starts with
	// (lower-case), "" if there is none.
	head string
	// gate holds the literal sets a match starting at head holds before
	// the next '>' (opening): most occurrences of head are ruled out
	// there without running the regex.
	gate [][]string
	// sets are the literal sets of an html or scriptSrc pattern besides
	// lits: a part of the page or a script source found by a literal of
	// lits but without a literal of each of sets holds no match.
	sets [][]string
}

// Match is one technology found on a page.
type Match struct {
	Name string
	Slug string // lower-case name, non-alphanumerics as '-'
	// Categories are the Wappalyzer category names.
	Categories []string
	// AppCategory is blog, forum, wiki or cms when the technology is an
	// application of one of those kinds, else "".
	AppCategory string
	Version     string
	Confidence  int
	// Pattern says what fired, as field[key]: regex.
	Pattern string
	// Implied marks a technology only implied by another one found.
	Implied bool
}

// Load reads dir: technologies/*.json and categories.json (the layout of
// enthec/webappanalyzer's src directory, as under
// ../shared/data/fingerprints/webappanalyzer). Errors name the file.
func Load(dir string) (*Set, error) { return LoadOnly(dir, nil) }

// LoadOnly is Load keeping only the technologies keep keeps (given each
// one's slug and application category, see Match) and those that imply
// one of them, directly or through others: what names an application
// on a page is then found as Load's set finds it, at a fraction of the
// cost of indexing thousands of technologies no application follows
// from. A nil keep keeps every technology.
func LoadOnly(dir string, keep func(slug, appCategory string) bool) (*Set, error) {
	cats, err := loadCategories(filepath.Join(dir, "categories.json"))
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "technologies", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no technologies/*.json files", dir)
	}
	// A technology's patterns are decoded only when it is kept: most
	// of a file's cost is their strings and maps.
	raw := map[string]rawTech{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var m map[string]rawTech
		if err := jsonFast.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for k, v := range m {
			v.file = f
			raw[k] = v
		}
	}
	if keep != nil {
		raw = keepImplying(raw, func(name string, r rawTech) bool { return keep(Slug(name), appCategoryOf(r.Cats)) })
	}
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	slices.Sort(names)
	return build(names, raw, cats)
}

// jsonFast decodes the technology files as encoding/json does, at about
// twice its speed (the files are 3 MB, read by every crawl that loads
// them).
var jsonFast = jsoniter.ConfigCompatibleWithStandardLibrary

// keepImplying returns the technologies of raw that keep keeps and those
// that imply one kept, transitively.
func keepImplying(raw map[string]rawTech, keep func(string, rawTech) bool) map[string]rawTech {
	impliedBy := map[string][]string{}
	for n, r := range raw {
		for _, im := range r.Implies {
			impliedBy[impliedName(im)] = append(impliedBy[impliedName(im)], n)
		}
	}
	kept := map[string]rawTech{}
	var queue []string
	for n, r := range raw {
		if keep(n, r) {
			kept[n] = r
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		n := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, by := range impliedBy[n] {
			if _, ok := kept[by]; !ok {
				kept[by] = raw[by]
				queue = append(queue, by)
			}
		}
	}
	return kept
}

// impliedName is the technology an implies entry names ("PHP\;confidence:50").
func impliedName(im string) string { return strings.Split(im, `\;`)[0] }

// appCategoryOf is the application category of a technology in the
// Wappalyzer categories cats: the most specific of appCategories'.
func appCategoryOf(cats []int) string {
	app := ""
	for _, c := range cats {
		if a, ok := appCategories[c]; ok && appCategoryRank[a] > appCategoryRank[app] {
			app = a
		}
	}
	return app
}

// Subset returns a set with only the technologies keep keeps (it is
// called once for each, in name order), for measuring how detection time
// grows with the set's size and with what the set holds. Implies of a
// technology left out are dropped.
func (s *Set) Subset(keep func(name string) bool) *Set {
	sub := &Set{}
	number := make([]int, len(s.techs)) // in sub, -1 when left out
	for i, t := range s.techs {
		number[i] = -1
		if keep(t.name) {
			number[i] = len(sub.techs)
			sub.techs = append(sub.techs, t)
		}
	}
	for i, t := range sub.techs {
		cp := *t
		cp.implied = nil
		for _, j := range t.implied {
			if number[j] >= 0 {
				cp.implied = append(cp.implied, number[j])
			}
		}
		sub.techs[i] = &cp
	}
	sub.Stats.Technologies = len(sub.techs)
	var pats []*pattern
	for _, p := range s.pats {
		if number[p.tech] >= 0 {
			cp := *p // index sets literal ids of its own
			cp.tech = number[p.tech]
			pats = append(pats, &cp)
		}
	}
	sub.index(pats)
	return sub
}

// First keeps the first n technologies (Subset).
func First(n int) func(string) bool {
	return func(string) bool {
		n--
		return n >= 0
	}
}

func loadCategories(path string) (map[int]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m map[string]struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := map[int]string{}
	for k, v := range m {
		id, err := strconv.Atoi(k)
		if err != nil {
			return nil, fmt.Errorf("%s: category id %q is not a number", path, k)
		}
		out[id] = v.Name
	}
	return out, nil
}

// rawTech is one technology as stored: its categories and implies, and
// its rules as they are written (patterns), decoded by build.
type rawTech struct {
	Cats    []int     `json:"cats"`
	Implies strOrList `json:"implies"`
	// HTML, Scripts, ScriptSrc and URL hold a string or a list of
	// strings (strOrList); Meta a map of those; Headers and Cookies maps
	// of strings.
	HTML      json.RawMessage `json:"html"`
	Scripts   json.RawMessage `json:"scripts"`
	ScriptSrc json.RawMessage `json:"scriptSrc"`
	URL       json.RawMessage `json:"url"`
	Meta      json.RawMessage `json:"meta"`
	Headers   json.RawMessage `json:"headers"`
	Cookies   json.RawMessage `json:"cookies"`
	// Rules that need a browser or other requests, counted only.
	JS         json.RawMessage `json:"js"`
	DOM        json.RawMessage `json:"dom"`
	DNS        json.RawMessage `json:"dns"`
	CSS        json.RawMessage `json:"css"`
	XHR        json.RawMessage `json:"xhr"`
	Robots     json.RawMessage `json:"robots"`
	CertIssuer json.RawMessage `json:"certIssuer"`
	Probe      json.RawMessage `json:"probe"`
	Text       json.RawMessage `json:"text"`
	file       string          // where it was read, for errors
}

// rawPatterns are a technology's rules on what a crawl sees.
type rawPatterns struct {
	HTML, Scripts, ScriptSrc, URL strOrList
	Meta                          map[string]strOrList
	Headers, Cookies              map[string]string
	JS                            map[string]json.RawMessage
}

// patterns decodes r's rules.
func (r rawTech) patterns(name string) (rawPatterns, error) {
	var p rawPatterns
	for _, f := range []struct {
		raw json.RawMessage
		to  any
	}{{r.HTML, &p.HTML}, {r.Scripts, &p.Scripts}, {r.ScriptSrc, &p.ScriptSrc}, {r.URL, &p.URL},
		{r.Meta, &p.Meta}, {r.Headers, &p.Headers}, {r.Cookies, &p.Cookies}, {r.JS, &p.JS}} {
		if len(f.raw) == 0 {
			continue
		}
		if err := jsonFast.Unmarshal(f.raw, f.to); err != nil {
			return p, fmt.Errorf("%s: %s: %w", r.file, name, err)
		}
	}
	return p, nil
}

type strOrList []string

func (s *strOrList) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var one string
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*s = strOrList{one}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	*s = list
	return nil
}

func build(names []string, raw map[string]rawTech, cats map[int]string) (*Set, error) {
	s := &Set{}
	var pats []*pattern
	for ti, name := range names {
		r := raw[name]
		rp, err := r.patterns(name)
		if err != nil {
			return nil, err
		}
		t := &tech{name: name, slug: Slug(name), appCategory: appCategoryOf(r.Cats)}
		for _, c := range r.Cats {
			t.cats = append(t.cats, cats[c])
		}
		s.techs = append(s.techs, t)
		for _, m := range []json.RawMessage{r.DNS, r.CSS, r.XHR, r.Robots, r.CertIssuer, r.Probe, r.Text} {
			if len(m) > 0 {
				s.Stats.SkippedOther++
			}
		}
		add := func(field, key, src string) {
			p, err := compile(ti, field, key, src)
			if err != nil {
				s.Stats.SkippedRegex++
				return
			}
			pats = append(pats, p)
		}
		for _, v := range rp.HTML {
			re, rest, _ := strings.Cut(v, `\;`)
			alts := alternatives(re, strings.Contains(rest, "version:"))
			if alts == nil {
				add("html", "", v)
				continue
			}
			n := len(pats)
			for _, a := range alts {
				if rest != "" {
					a += `\;` + rest
				}
				add("html", "", a)
			}
			// One pattern as loaded, and as Match reports it.
			for i, p := range pats[n:] {
				p.alt, p.desc = i > 0, "html: "+v
			}
		}
		// js rules as the global's definition in the markup (jsRule),
		// in key order so that which rule fires does not follow Go's
		// map order.
		for _, k := range slices.Sorted(maps.Keys(rp.JS)) {
			src, path, ok := jsRule(k, rp.JS[k])
			if !ok {
				s.Stats.SkippedJS++
				continue
			}
			n := len(pats)
			add("js", "", src)
			if len(pats) > n {
				pats[n].js, pats[n].desc = path, "js: "+k
			}
		}
		// dom rules as CSS selectors on the parsed page, each filed
		// under a literal its selector requires (domRules).
		if len(r.DOM) > 0 {
			rules, lits, skipped := domRules(r.DOM)
			s.Stats.SkippedOther += skipped
			for i, rule := range rules {
				n := len(pats)
				add("dom", "", regexp.QuoteMeta(lits[i]))
				if len(pats) > n {
					pats[n].dom, pats[n].desc = rule, "dom: "+rule.selector
				}
			}
		}
		s.Stats.SkippedScripts += len(rp.Scripts)
		for _, v := range rp.ScriptSrc {
			add("scriptSrc", "", v)
		}
		for _, v := range rp.URL {
			add("url", "", v)
		}
		for k, vs := range rp.Meta {
			for _, v := range vs {
				add("meta", k, v)
			}
		}
		for k, v := range rp.Headers {
			add("headers", k, v)
		}
		for k, v := range rp.Cookies {
			add("cookies", k, v)
		}
	}
	s.Stats.Technologies = len(s.techs)
	byName := make(map[string]int, len(names))
	for i, n := range names {
		byName[n] = i
	}
	for ti, name := range names {
		for _, im := range raw[name].Implies {
			if i, ok := byName[impliedName(im)]; ok {
				s.techs[ti].implied = append(s.techs[ti].implied, i)
			}
		}
	}
	s.index(pats)
	return s, nil
}

// compile parses one pattern "regex\;version:\1\;confidence:50".
func compile(ti int, field, key, src string) (*pattern, error) {
	parts := strings.Split(src, `\;`)
	p := &pattern{tech: ti, field: field, key: strings.ToLower(key), src: src, confidence: 100}
	for _, a := range parts[1:] {
		k, v, _ := strings.Cut(a, ":")
		switch k {
		case "version":
			if v != "" {
				p.version = []byte(backref.ReplaceAllString(v, "$${$1}"))
			}
		case "confidence":
			if n, err := strconv.Atoi(v); err == nil {
				p.confidence = n
			}
		}
	}
	if field == "cookies" && strings.ContainsAny(key, `[]*+?\(){}^$|`) {
		re, err := regexp.Compile("(?i)^(?:" + key + ")$")
		if err != nil {
			return nil, err
		}
		p.keyRE = re
	}
	p.desc = field
	if p.key != "" {
		p.desc += "[" + p.key + "]"
	}
	if parts[0] != "" {
		// Parsing finds what RE2 cannot compile; the compilation
		// itself waits for a page that needs the regex.
		t, err := syntax.Parse("(?i)"+parts[0], syntax.Perl)
		if err != nil {
			return nil, err
		}
		p.expr, p.tree, p.rx = "(?i)"+parts[0], t, &regexes{}
		p.desc += ": " + src
	}
	return p, nil
}

// regexes are a pattern's compiled regexes, made once, at first use.
type regexes struct {
	once sync.Once
	// re is the regex as written, with (?i), for values matched as sent.
	re *regexp.Regexp
	// low is re for text whose ASCII letters are lower-cased
	// (vdoc.LowerASCII), run on the lower-cased markup and script
	// sources: without (?i) on its ASCII literals, package regexp skips
	// to a literal prefix, where the (?i) regex starts a match at every
	// byte.
	low *regexp.Regexp
	// atHead is low anchored, run only where the pattern's head
	// occurs; nil for a pattern that is not matched from its head.
	atHead *regexp.Regexp
}

// regexes returns p's compiled regexes, nil when p has no regex.
func (p *pattern) regexes() *regexes {
	if p.rx == nil {
		return nil
	}
	p.rx.once.Do(func() {
		p.rx.re = regexp.MustCompile(p.expr) // parsed by compile
		if p.field == "html" || p.field == "scriptSrc" {
			p.rx.low = lowered(p.expr, "")
		}
		if p.field == "html" && p.head != "" && !p.anchored {
			p.rx.atHead = lowered(p.expr, "^")
		}
	})
	return p.rx
}

func (s *Set) index(pats []*pattern) {
	s.pats = pats
	s.keyed = map[string]map[string]*litindex.Index{}
	keyed := map[string]map[string]*litindex.Builder{}
	s.Stats = Stats{Technologies: s.Stats.Technologies, SkippedJS: s.Stats.SkippedJS, SkippedScripts: s.Stats.SkippedScripts,
		SkippedOther: s.Stats.SkippedOther, SkippedRegex: s.Stats.SkippedRegex}
	// Literals and texts are lower-cased here.
	b, sb, ub := litindex.NewBuilder(false), litindex.NewBuilder(false), litindex.NewBuilder(false)
	byField := map[string]*litindex.Builder{"html": b, "js": b, "dom": b, "scriptSrc": sb, "url": ub}
	for id, p := range pats {
		switch {
		case p.keyRE != nil:
			s.keyRegex = append(s.keyRegex, id)
			s.Stats.Always++
		case p.key != "" || p.field == "meta" || p.field == "headers" || p.field == "cookies":
			if keyed[p.field] == nil {
				keyed[p.field] = map[string]*litindex.Builder{}
			}
			kb := keyed[p.field][p.key]
			if kb == nil {
				kb = litindex.NewBuilder(true) // values are matched as sent
				keyed[p.field][p.key] = kb
			}
			// Many technologies have a rule on one name (meta generator,
			// x-powered-by): a value is matched only by the patterns
			// whose literals it holds.
			sets := literalSets(p)
			if best := bestSet(sets); best >= 0 {
				kb.AddAny(id, sets[best])
			} else {
				kb.AddAny(id, nil)
			}
			s.Stats.Indexed++
		default:
			ib := byField[p.field]
			sets := literalSets(p)
			best := bestSet(sets)
			p.need, p.lits, p.litIDs = nil, nil, nil
			if p.field == "js" || p.field == "dom" {
				p.pure = false // the literal alone is no definition, no element
			}
			if p.field == "html" || p.field == "scriptSrc" {
				// A part of the page or a script source is checked for
				// each set, most selective first: most parts fail there.
				p.sets = slices.Clone(sets)
				slices.SortStableFunc(p.sets, func(a, b []string) int {
					return cmp.Compare(selectivity(b), selectivity(a))
				})
			}
			if best < 0 {
				// Evaluated on every page. A script source is still
				// matched only when it holds one of a set's literals,
				// however short.
				if short := bestSetOf(sets, 1); p.field == "scriptSrc" && short >= 0 {
					p.lits = sets[short]
					p.sets = without(p.sets, p.lits)
				} else {
					p.pure = false // the regex decides
				}
				ib.AddAny(id, nil)
				s.Stats.Always++
				continue
			}
			p.lits = sets[best]
			p.sets = without(p.sets, p.lits)
			ib.AddAny(id, p.lits)
			if p.field == "html" || p.field == "scriptSrc" {
				p.litIDs = make([]int, len(p.lits))
				for j, l := range p.lits {
					p.litIDs[j] = ib.Where(l)
				}
			}
			s.Stats.Indexed++
			if p.field != "html" {
				continue // a script source is checked for every set (sets), a URL is short
			}
			for i, set := range sets {
				// Sets of markup found on most pages would rule out
				// little and cost a look-up at each occurrence; a
				// literal under litindex.Wide bytes would stop the scan
				// wherever its first 4 bytes' filter word is. An html
				// pattern's windows are still checked for every set
				// (sets) before its regex runs.
				if i == best || litindex.Shortest(set) < litindex.Wide || selectivity(set) == 0 ||
					slices.ContainsFunc(set, litindex.Common) {
					continue
				}
				ids := make([]int, len(set))
				for j, l := range set {
					ids[j] = b.Literal(l)
				}
				p.need = append(p.need, ids)
			}
		}
	}
	s.Stats.Patterns = 0
	for _, p := range pats {
		if !p.alt {
			s.Stats.Patterns++
		}
	}
	s.body, s.src, s.url = b.Build(), sb.Build(), ub.Build()
	for field, byKey := range keyed {
		s.keyed[field] = map[string]*litindex.Index{}
		for key, kb := range byKey {
			s.keyed[field][key] = kb.Build()
		}
	}
}

// Slug is the lower-case form of a technology name used as an
// application's short name: "TYPO3 CMS" → "typo3-cms".
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}
