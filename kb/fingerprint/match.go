package fingerprint

import (
	"bytes"
	"maps"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/mneme-archive/mneme/kb/litindex"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// inputs are the parts of a page fingerprints look at.
type inputs struct {
	html      []byte
	lower     []byte // html lower-cased, where literals are looked up
	url       string
	scriptSrc []string
	srcLower  [][]byte // scriptSrc with ASCII letters lower-cased
	meta      map[string][]string
	headers   map[string][]string
	cookies   map[string]string
	hits      *litindex.Hits // the literal scan of lower
	root      *html.Node     // the parsed page, for dom rules
}

func gather(d *vdoc.Doc) *inputs {
	lower, _ := d.Lower()
	in := &inputs{html: d.Body, lower: lower, root: d.Root, url: d.URL.String(), meta: map[string][]string{},
		headers: map[string][]string{}, cookies: map[string]string{}}
	for k, v := range d.Header {
		in.headers[strings.ToLower(k)] = v
	}
	for k, v := range d.Cookies {
		in.cookies[strings.ToLower(k)] = v
	}
	for _, n := range d.Elements("script") {
		if src := attr(n, "src"); src != "" {
			in.scriptSrc = append(in.scriptSrc, src)
			in.srcLower = append(in.srcLower, vdoc.LowerASCII([]byte(src)))
		}
	}
	for _, n := range d.Elements("meta") {
		name := attr(n, "name")
		if name == "" {
			name = attr(n, "property")
		}
		if name != "" {
			k := strings.ToLower(name)
			in.meta[k] = append(in.meta[k], attr(n, "content"))
		}
	}
	return in
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// Match returns the technologies found on d, by name, each with the first
// of its patterns that matched (a technology's other patterns are not
// tried once one has), followed by the technologies they imply. Patterns
// are tried cheapest first: html literals alone, the URL, meta tags,
// headers, cookies, script sources, then the regexes on the markup.
func (s *Set) Match(d *vdoc.Doc) []Match {
	lower, _ := d.Lower()
	return s.MatchScanned(d, s.body.Scan(lower))
}

// Index is the literal index of the patterns on the markup, for a caller
// that scans pages for other literals too (litindex.Join): Match scans
// the lower-cased markup (vdoc.Doc.Lower).
func (s *Set) Index() *litindex.Index { return s.body }

// MatchScanned is Match with the scan of d by Index done: hits must come
// from the lower-cased markup.
func (s *Set) MatchScanned(d *vdoc.Doc, hits *litindex.Hits) []Match {
	in := gather(d)
	f := s.newFound()
	try := func(id int) {
		p := s.pats[id]
		if f.has(p.tech) {
			return
		}
		if v, ok := s.test(p, in); ok {
			f.add(p, v)
		}
	}
	in.hits = hits
	// Cheap evidence first, so that a technology it names is not looked
	// for with the markup's regexes: an html literal found, the URL,
	// meta tags, headers, cookies and script sources.
	for _, id := range hits.Candidates {
		if p := s.pats[id]; p.pure && !f.has(p.tech) && hasAll(hits, p.need) {
			f.add(p, "")
		}
	}
	for _, id := range s.url.Scan(vdoc.LowerASCII([]byte(in.url))).Candidates {
		try(id)
	}
	// In key order, so that which of a technology's rules fires, and the
	// version it reads, does not follow Go's map order.
	for _, key := range slices.Sorted(maps.Keys(in.meta)) {
		s.tryKeyed("meta", key, in.meta[key], try)
	}
	for _, key := range slices.Sorted(maps.Keys(in.headers)) {
		s.tryKeyed("headers", key, in.headers[key], try)
	}
	for _, key := range slices.Sorted(maps.Keys(in.cookies)) {
		s.tryKeyed("cookies", key, []string{in.cookies[key]}, try)
	}
	for _, id := range s.keyRegex {
		try(id)
	}
	s.matchSources(in, f)
	for _, id := range hits.Candidates {
		if p := s.pats[id]; !p.pure && !f.has(p.tech) && hasAll(hits, p.need) {
			try(id)
		}
	}
	return s.result(f)
}

// MatchExhaustive is Match without its shortcuts: every pattern tried on
// the whole of its field, with no literal index, no windows and no match
// by literal alone. It is the reference Match is tested against and the
// naive peer of the detection benchmark: every regex runs on every page.
func (s *Set) MatchExhaustive(d *vdoc.Doc) []Match {
	in := gather(d)
	f := s.newFound()
	for _, p := range s.pats {
		if f.has(p.tech) {
			continue
		}
		var v string
		var ok bool
		switch p.field {
		case "html":
			v, ok = find(p, in.html)
		case "scriptSrc":
			v, ok = findAny(p, in.scriptSrc)
		default:
			v, ok = s.test(p, in)
		}
		if ok {
			f.add(p, v)
		}
	}
	return s.result(f)
}

// found is what a match has found so far: a bit per technology, and the
// pattern that found each with the version it read. A bit set, as a
// page holds a few technologies of thousands and each candidate pattern
// asks whether its technology is found already.
type found struct {
	bits []uint64
	hits []hit
}

type hit struct {
	p       *pattern
	version string
}

func (s *Set) newFound() *found { return &found{bits: make([]uint64, (len(s.techs)+63)/64)} }

func (f *found) has(tech int) bool { return f.bits[tech>>6]&(1<<(tech&63)) != 0 }

func (f *found) mark(tech int) { f.bits[tech>>6] |= 1 << (tech & 63) }

// add notes technology p.tech found by p, with version v.
func (f *found) add(p *pattern, v string) {
	f.mark(p.tech)
	f.hits = append(f.hits, hit{p, v})
}

// result lists the technologies found and those they imply, by name:
// technologies are numbered in name order.
func (s *Set) result(f *found) []Match {
	type entry struct {
		tech int
		hit  *hit
	}
	var all []entry
	for i := range f.hits {
		all = append(all, entry{f.hits[i].p.tech, &f.hits[i]})
	}
	// The implied, transitively; those found already are marked.
	var queue []int
	for _, h := range f.hits {
		queue = append(queue, s.techs[h.p.tech].implied...)
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		if f.has(i) {
			continue
		}
		f.mark(i)
		all = append(all, entry{tech: i})
		queue = append(queue, s.techs[i].implied...)
	}
	slices.SortFunc(all, func(a, b entry) int { return a.tech - b.tech })
	out := make([]Match, len(all))
	for i, e := range all {
		t := s.techs[e.tech]
		out[i] = Match{Name: t.name, Slug: t.slug, Categories: t.cats, AppCategory: t.appCategory}
		if e.hit == nil {
			out[i].Confidence, out[i].Pattern, out[i].Implied = 100, "implied", true
			continue
		}
		out[i].Version, out[i].Confidence, out[i].Pattern = e.hit.version, e.hit.p.confidence, e.hit.p.desc
	}
	return out
}

// tryKeyed tries the patterns on the values of one meta name, header or
// cookie that the values' literals leave.
func (s *Set) tryKeyed(field, key string, vals []string, try func(id int)) {
	ix := s.keyed[field][key]
	if ix == nil {
		return
	}
	texts := make([][]byte, len(vals))
	for i, v := range vals {
		texts[i] = []byte(v)
	}
	for _, id := range ix.Scan(texts...).Candidates {
		try(id)
	}
}

// hasAll reports whether each set of literal ids has one in hits.
func hasAll(hits *litindex.Hits, need [][]int) bool {
	for _, set := range need {
		if !slices.ContainsFunc(set, hits.Has) {
			return false
		}
	}
	return true
}

// test matches one pattern and returns the version it captured.
func (s *Set) test(p *pattern, in *inputs) (string, bool) {
	switch p.field {
	case "html":
		return findNear(p, in.html, in.lower, in.hits)
	case "dom":
		return findDOM(p.dom, in.root)
	case "js":
		return "", findJS(p.js, in.html, in.lower)
	case "url":
		return find(p, []byte(in.url))
	case "meta":
		return findAny(p, in.meta[p.key])
	case "headers":
		return findAny(p, in.headers[p.key])
	case "cookies":
		if p.keyRE != nil {
			for _, k := range slices.Sorted(maps.Keys(in.cookies)) {
				if p.keyRE.MatchString(k) {
					if ver, ok := find(p, []byte(in.cookies[k])); ok {
						return ver, true
					}
				}
			}
			return "", false
		}
		v, ok := in.cookies[p.key]
		if !ok {
			return "", false
		}
		return find(p, []byte(v))
	}
	return "", false
}

// window is how far around an occurrence of its literal an html pattern
// is matched: Wappalyzer's html patterns describe a tag or a short run of
// markup, and matching them on the whole page costs far more.
const window = 1024

// findNear matches p in the parts of html around the occurrences of its
// literals (where the scan found them), or on all of html for a pattern
// without literals; lower is html lower-cased, where a part is first
// checked for a literal of each of p's sets. A part is cut to the run
// around the occurrence free of the bytes no match of p holds, which
// bounds a match exactly: a tag-sized part for a regex like
// <[^>]+/sys_master. Parts are taken in page order and merged where they
// overlap, and made only until one matches: on a page with hundreds of
// occurrences (/wp-content/) the first tags usually decide.
func findNear(p *pattern, html, lower []byte, hits *litindex.Hits) (string, bool) {
	if len(p.litIDs) == 0 || p.anchored || !p.narrow && len(html) <= 4*window {
		return findHead(p, html, lower)
	}
	sp := spans{p: p, html: html, ends: make([][]int, len(p.litIDs))}
	for j, id := range p.litIDs {
		sp.ends[j] = hits.Ends(id)
	}
	end := -1
	for i := 0; sp.at(i); i++ {
		lo, hi := sp.buf[i][0], sp.buf[i][1]
		if lo < end {
			continue
		}
		// Merge the parts that overlap this one.
		for k := i + 1; sp.at(k) && sp.buf[k][0] <= hi; k++ {
			hi = max(hi, sp.buf[k][1])
		}
		end = hi
		if !holdsSets(lower[lo:hi], p.sets) {
			continue
		}
		if v, ok := findHead(p, html[lo:hi], lower[lo:hi]); ok {
			return v, true
		}
	}
	return "", false
}

// findHead is find on html (lower is html lower-cased) for a regex whose
// matches start with a literal: its anchored form is tried where the
// literal occurs, in order, which gives the leftmost match find would.
func findHead(p *pattern, html, lower []byte) (string, bool) {
	rx := p.regexes()
	if rx == nil || rx.atHead == nil {
		return findLow(p, html, lower)
	}
	for i := 0; ; i++ {
		j := bytes.Index(lower[i:], []byte(p.head))
		if j < 0 {
			return "", false
		}
		i += j
		if len(p.gate) > 0 {
			run := lower[i+len(p.head):]
			if k := bytes.IndexByte(run, '>'); k >= 0 {
				run = run[:k]
			}
			if !holdsSets(run, p.gate) {
				continue
			}
		}
		if v, ok := findRE(p, rx.atHead, lower[i:], html[i:]); ok {
			return v, true
		}
	}
}

// spans makes the parts of html around the occurrences of a pattern's
// literals in increasing order of start, as they are asked for: a part's
// start does not decrease with its occurrence's, and each literal's
// occurrences come in order, so merging the literals' lists is enough.
type spans struct {
	p    *pattern
	html []byte
	ends [][]int  // by literal: the ends of the occurrences not yet made into parts
	buf  [][2]int // the parts made so far
}

// at reports whether part i exists, making the parts up to it.
func (s *spans) at(i int) bool {
	for len(s.buf) <= i {
		first := -1
		for j, e := range s.ends {
			if len(e) > 0 && (first < 0 || e[0]-len(s.p.lits[j]) < s.ends[first][0]-len(s.p.lits[first])) {
				first = j
			}
		}
		if first < 0 {
			return false
		}
		end := s.ends[first][0]
		s.ends[first] = s.ends[first][1:]
		start := end - len(s.p.lits[first])
		s.buf = append(s.buf, [2]int{s.p.runStart(s.html, max(0, start-window), start),
			s.p.runEnd(s.html, end, min(len(s.html), end+window))})
	}
	return true
}

// holdsSets reports whether b holds a literal of each of sets.
func holdsSets(b []byte, sets [][]string) bool {
	for _, set := range sets {
		if !slices.ContainsFunc(set, func(l string) bool { return bytes.Contains(b, []byte(l)) }) {
			return false
		}
	}
	return true
}

// runStart returns where the run of html before i that holds no stop byte
// of p begins, lo at the earliest.
func (p *pattern) runStart(html []byte, lo, i int) int {
	switch {
	case !p.narrow:
		return lo
	case p.stop1 >= 0:
		return lo + bytes.LastIndexByte(html[lo:i], byte(p.stop1)) + 1
	}
	for i > lo && !p.stop.has(html[i-1]) {
		i--
	}
	return i
}

// runEnd returns where the run of html from i on that holds no stop byte
// of p ends, hi at the latest.
func (p *pattern) runEnd(html []byte, i, hi int) int {
	switch {
	case !p.narrow:
		return hi
	case p.stop1 >= 0:
		if j := bytes.IndexByte(html[i:hi], byte(p.stop1)); j >= 0 {
			return i + j
		}
		return hi
	}
	for i < hi && !p.stop.has(html[i]) {
		i++
	}
	return i
}

// matchSources matches the scriptSrc patterns on the page's script
// sources. One scan of the sources, joined by newlines, finds the
// patterns whose literals they hold and where; a pattern is then matched
// on the sources that hold its literal only.
func (s *Set) matchSources(in *inputs, f *found) {
	if len(in.srcLower) == 0 {
		return
	}
	var joined []byte
	starts := make([]int, len(in.srcLower))
	for i, src := range in.srcLower {
		starts[i] = len(joined)
		joined = append(append(joined, src...), '\n')
	}
	hits := s.src.Scan(joined)
	var which []int
	for _, id := range hits.Candidates {
		p := s.pats[id]
		if f.has(p.tech) {
			continue
		}
		which = which[:0]
		source := func(end int) { // of the literal occurrence ending at end
			i, _ := slices.BinarySearch(starts, end)
			which = append(which, i-1)
		}
		switch {
		case len(p.litIDs) > 0:
			for _, lit := range p.litIDs {
				for _, end := range hits.Ends(lit) {
					source(end)
				}
			}
		case len(p.lits) > 0:
			// Filed under no literal, as its literals are too short
			// to index (c3, d3): the sources that hold one.
			for _, l := range p.lits {
				for off := 0; ; {
					j := bytes.Index(joined[off:], []byte(l))
					if j < 0 {
						break
					}
					off += j + len(l)
					source(off)
				}
			}
		default:
			for i := range in.srcLower {
				which = append(which, i)
			}
		}
		slices.Sort(which)
		for _, i := range slices.Compact(which) {
			if v, ok := findSource(p, in.scriptSrc[i], in.srcLower[i]); ok {
				f.add(p, v)
				break
			}
		}
	}
}

// findSource matches p on one script source (lower is it lower-cased)
// that holds a literal of p.lits, if p has any: first its other literal
// sets, then the regex.
func findSource(p *pattern, src string, lower []byte) (string, bool) {
	if p.pure {
		return "", true
	}
	if !holdsSets(lower, p.sets) {
		return "", false
	}
	return findLow(p, []byte(src), lower)
}

func findAny(p *pattern, vals []string) (string, bool) {
	for _, v := range vals {
		if ver, ok := find(p, []byte(v)); ok {
			return ver, true
		}
	}
	return "", false
}

func find(p *pattern, b []byte) (string, bool) {
	rx := p.regexes()
	if rx == nil {
		return "", true
	}
	return findRE(p, rx.re, b, b)
}

// findLow is find on b by its lower-cased form lower.
func findLow(p *pattern, b, lower []byte) (string, bool) {
	rx := p.regexes()
	if rx == nil {
		return "", true
	}
	return findRE(p, rx.low, lower, b)
}

// findRE matches re, p's regex or a form of it, on text and returns the
// version it captured, taken from orig: text itself, or the text it is
// the lower-cased form of.
func findRE(p *pattern, re *regexp.Regexp, text, orig []byte) (string, bool) {
	if p.version == nil {
		return "", re.Match(text) // cheaper than finding submatches
	}
	m := re.FindSubmatchIndex(text)
	if m == nil {
		return "", false
	}
	return string(re.Expand(nil, p.version, orig, m)), true
}

// backref is a Wappalyzer back-reference (\1) in a version template.
var backref = regexp.MustCompile(`\\(\d)`)

// Technologies lists every technology of the set as a Match with no
// pattern, version or confidence, in name order: what a caller needs to
// name a technology found by evidence of its own.
func (s *Set) Technologies() []Match {
	out := make([]Match, len(s.techs))
	for i, t := range s.techs {
		out[i] = Match{Name: t.name, Slug: t.slug, Categories: t.cats, AppCategory: t.appCategory}
	}
	return out
}
