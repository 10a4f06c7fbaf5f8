package kb

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/mneme-archive/mneme/kb/vdoc"
	"github.com/mneme-archive/mneme/kb/xpath"
)

// Mine finds the repeated records of a thread or a comment list on a page
// of an engine the knowledge base does not describe, by data-region
// mining: among the groups of sibling elements of like structure (same
// tag and first class), the one whose members most often each hold a
// text block, a date-like string and a person-like link or name. Its
// fields are then mapped: for each of the date, the author and the text,
// the XPath (relative to a record) that yields a value on most records.
// The result is an extraction like the knowledge base's, which a site
// can keep and apply to its next pages without mining them again; nil
// when the page holds no such records. now is the capture time, for
// relative dates ("2 hours ago"); zero leaves them unread.
func Mine(doc *vdoc.Doc, kind ObjectKind, now time.Time) *Extraction {
	m := &miner{stats: map[*html.Node]*nodeStats{}, now: now, read: map[string]bool{}, classed: map[string][]*html.Node{},
		lang: DocLang(doc.Root, doc.Header)}
	body := findBody(doc.Root)
	if body != nil && kind == Comment {
		// Comments numbered by their ids or reply links are the
		// records whatever their markup; others are sought in the
		// comment section alone: a page without one has none.
		if recs := commentRecords(body); len(recs) > 0 {
			m.numbered = true
			m.walk(body)
			return m.extraction(kind, recs)
		}
		body = commentSection(body)
	}
	if body == nil {
		return nil
	}
	m.walk(body)
	m.cousins()
	group := m.bestGroup()
	if group == nil {
		return nil
	}
	return m.extraction(kind, group)
}

// nodeStats is what mining knows of one element: words of visible text,
// and its first date-like and person-like descendants (itself included).
type nodeStats struct {
	words  int
	date   *html.Node
	person *html.Node
	dates  int
}

type miner struct {
	stats  map[*html.Node]*nodeStats
	groups [][]*html.Node
	now    time.Time
	lang   string // the page's language, for its dates' words
	// numbered: the records are comments their ids or reply links
	// number, records whatever their dates.
	numbered bool
	// dates and persons are every date-like and person-like element,
	// in document order.
	dates, persons []*html.Node
	// read memoizes isDate's readings of texts, which repeat on a page.
	read map[string]bool
	// classed files the classed elements by signature, in document
	// order: records that markup errors (a <div/>) nest apart are alike
	// without being siblings.
	classed map[string][]*html.Node
}

func findBody(n *html.Node) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == atom.Body {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if b := findBody(c); b != nil {
			return b
		}
	}
	return nil
}

// skipped elements hold no record text.
func skipped(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Template, atom.Svg, atom.Button, atom.Select,
		atom.Textarea, atom.Nav, atom.Head, atom.Iframe:
		return true
	}
	return false
}

// walk computes the stats of n's subtree bottom-up and files its children
// into groups of like siblings.
func (m *miner) walk(n *html.Node) *nodeStats {
	s := &nodeStats{}
	m.stats[n] = s
	bySig := map[string][]*html.Node{}
	var order []string
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			s.words += len(strings.Fields(c.Data))
		case html.ElementNode:
			if skipped(c) {
				continue
			}
			cs := m.walk(c)
			s.words += cs.words
			s.dates += cs.dates
			if s.date == nil {
				s.date = cs.date
			}
			if s.person == nil {
				s.person = cs.person
			}
			sig := signature(c)
			if firstClass(c) != "" {
				m.classed[sig] = append(m.classed[sig], c)
			}
			if bySig[sig] == nil {
				order = append(order, sig)
			}
			bySig[sig] = append(bySig[sig], c)
		}
	}
	// A machine-readable date around a date's text (<time datetime><a>
	// March 7</a></time>) is the record's date rather than the text.
	if machine := s.date != nil && statesDate(n); (s.date == nil || machine) && m.isDate(n, s) {
		s.date = n
		if !machine {
			s.dates++
		}
		m.dates = append(m.dates, n)
	}
	if s.person == nil {
		// A schema.org Person in microdata is its name, whatever the
		// box around it holds (avatar, date, rank).
		if ip := attr(n, "itemprop"); ip == "author" || ip == "creator" || strings.HasSuffix(attr(n, "itemtype"), "/Person") {
			if nm := itemName(n); nm != nil && shortName(nm) {
				s.person = nm
				m.persons = append(m.persons, nm)
			}
		}
	}
	if s.person == nil && isPerson(n) {
		// A profile box's name is its first inline element ("<b>ann</b>
		// Member"), not the box.
		p := n
		if blocks[n.DataAtom] {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && !blocks[c.DataAtom] && Text(c) != "" {
					p = c
					break
				}
			}
		}
		s.person = p
		m.persons = append(m.persons, p)
	}
	for _, sig := range order {
		if g := bySig[sig]; len(g) >= 2 {
			m.groups = append(m.groups, g)
		}
	}
	return s
}

// cousins adds the groups of classed elements alike that are not all
// siblings, none inside another.
func (m *miner) cousins() {
	for _, g := range m.classed {
		if len(g) < 2 {
			continue
		}
		siblings, nested := true, false
		in := make(map[*html.Node]bool, len(g))
		for _, n := range g {
			in[n] = true
			siblings = siblings && n.Parent == g[0].Parent
		}
		for _, n := range g {
			for p := n.Parent; p != nil && !nested; p = p.Parent {
				nested = in[p]
			}
		}
		if !siblings && !nested {
			m.groups = append(m.groups, g)
		}
	}
}

// signature is an element's tag and first class token without digits:
// records of one list share it (phpBB's "post bg1" and "post bg2").
func signature(n *html.Node) string {
	return n.Data + "." + firstClass(n)
}

var digitsRE = regexp.MustCompile(`\d`)

func firstClass(n *html.Node) string {
	for _, c := range strings.Fields(attr(n, "class")) {
		if !digitsRE.MatchString(c) && !strings.ContainsAny(c, `'"`) {
			return c
		}
	}
	return ""
}

// isDate: a <time>, an element with a machine-readable date, or a short
// element whose text reads as a date (no descendant already did).
func (m *miner) isDate(n *html.Node, s *nodeStats) bool {
	if n.DataAtom == atom.Time {
		return true
	}
	if _, ok := statedDate(n); ok {
		return true
	}
	if s.words == 0 || s.words > 12 {
		return false
	}
	t := Text(n)
	if len(t) > 80 || timeOnlyRE.MatchString(t) {
		return false // a time of day alone: the element around it holds the day
	}
	if _, ok := ParseDate(t); ok {
		return dateShape(t)
	}
	if len(t) > 48 || labelNumberRE.MatchString(t) {
		return false // "Posts: 1,234", "Reputation 12"
	}
	if ok, seen := m.read[t]; seen {
		return ok
	}
	now := m.now
	if now.IsZero() {
		now = refTime // any reading of a relative date will do here
	}
	_, ok := ParseDateAt(t, m.lang, now)
	m.read[t] = ok
	return ok
}

// labelNumberRE is a label and a count, the commonest short text with
// letters and digits on a forum page.
var labelNumberRE = regexp.MustCompile(`^[\pL\s]+:?\s*[\d.,\s]+$`)

var (
	timeOnlyRE    = regexp.MustCompile(`^\d{1,2}[:h]\d{2}(:\d{2})?\s*([ap]\.?m\.?)?$`)
	numericDateRE = regexp.MustCompile(`\d{1,4}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}:\d{2}`)
	wordRE        = regexp.MustCompile(`\pL{3,}`)
)

// dateShape: a date ParseDate read is written as one, with numbers as
// a date or a time, or a month name: not runs of numbers such as a
// pager's "Page 1 of 5 1 2 3".
func dateShape(t string) bool {
	if numericDateRE.MatchString(t) {
		return true
	}
	for _, w := range wordRE.FindAllString(strings.ToLower(t), -1) {
		if monthWords()[""][w] != 0 || moreMonths()[w] != 0 {
			return true
		}
	}
	return false
}

var profileRE = regexp.MustCompile(`(?i)(user|member|profile|author|people|poster|/u/|/~|showuser|mode=viewprofile|/p/|[?&]u=\d)`)

// personClassRE: the class of a person's name, microformats' hCard and
// h-card ("fn", "p-name") among them.
var personClassRE = regexp.MustCompile(`(?i)(author|user|poster|nick|byline|member|name|profile|\bfn\b|vcard|h-card)`)

// quantityRE: a text that opens with a number standing alone ("112
// ratings", "20℃", "3 replies") is a count or a measure, not a person's
// name; a name may open with digits run into letters ("3dfan").
var quantityRE = regexp.MustCompile(`^[0-9]+(?:[^\p{L}0-9]|$)`)

// isPerson: a link to a profile-like page or an element classed as an
// author or user name, with a short text; not an avatar.
func isPerson(n *html.Node) bool {
	if n.Type != html.ElementNode || strings.Contains(strings.ToLower(attr(n, "class")), "avatar") {
		return false
	}
	if n.DataAtom == atom.A && (profileRE.MatchString(attr(n, "href")) || slices.Contains(strings.Fields(attr(n, "rel")), "author")) {
		return shortName(n)
	}
	if ip := attr(n, "itemprop"); ip == "author" || ip == "creator" || n.DataAtom == atom.Cite {
		return shortName(n)
	}
	if c := attr(n, "class"); c != "" && personClassRE.MatchString(c) && !blocks[n.DataAtom] || n.DataAtom == atom.Div && personClassRE.MatchString(c) {
		return shortName(n)
	}
	return false
}

// shortName: n's text is short enough for a person's name, and not a
// label, an address or a count.
func shortName(n *html.Node) bool {
	t := Text(n)
	return t != "" && len(t) <= 40 && len(strings.Fields(t)) <= 4 && !strings.ContainsAny(t, ":@") && !quantityRE.MatchString(t)
}

// itemName is the itemprop="name" element inside microdata item n, nil
// when it has none.
func itemName(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || skipped(c) {
			continue
		}
		if attr(c, "itemprop") == "name" {
			return c
		}
		if slices.ContainsFunc(c.Attr, func(a html.Attribute) bool { return a.Key == "itemscope" }) {
			continue // another item's name
		}
		if nm := itemName(c); nm != nil {
			return nm
		}
	}
	return nil
}

// good reports a record-like member: text and a date. A record holds a
// few dates (posted, edited, the author's joining, quotes); a container
// of records holds many.
func (m *miner) good(n *html.Node) bool {
	s := m.stats[n]
	if m.numbered {
		return s.words >= 2
	}
	return m.dateOf(n) != nil && s.words >= 4 && s.dates <= 8
}

// header is the row before a table row of a record that lays its author
// and date out above its text (two rows a post), nil for another.
func (m *miner) header(n *html.Node) *html.Node {
	if n.DataAtom != atom.Tr {
		return nil
	}
	for p := n.PrevSibling; p != nil; p = p.PrevSibling {
		if p.Type == html.ElementNode {
			if p.DataAtom == atom.Tr && signature(p) != signature(n) && m.stats[p] != nil {
				return p
			}
			return nil
		}
	}
	return nil
}

// dateOf and personOf are a record's first date and person, in its
// header row when it has none itself.
func (m *miner) dateOf(n *html.Node) *html.Node {
	if d := m.stats[n].date; d != nil {
		return d
	}
	if h := m.header(n); h != nil {
		return m.stats[h].date
	}
	return nil
}

func (m *miner) personOf(n *html.Node) *html.Node {
	if p := m.stats[n].person; p != nil {
		return p
	}
	if h := m.header(n); h != nil {
		return m.stats[h].person
	}
	return nil
}

// groupScore is the text mass of a group's record-like members, each
// capped (a page's two columns are not records), halved without a
// person. Groups of fewer than two records, or where they are fewer than
// half the members, score 0.
func (m *miner) groupScore(g []*html.Node) float64 {
	good, persons, members := 0, 0, 0
	mass := 0.0
	inner := spannedIn(g)
	for _, n := range g {
		if inner(n) {
			continue // part of the record above
		}
		members++
		if !m.good(n) {
			continue
		}
		good++
		if m.personOf(n) != nil {
			persons++
		}
		mass += math.Min(float64(m.stats[n].words), 300)
	}
	if good < 2 || 2*good < members {
		return 0
	}
	return mass * (0.5 + 0.5*float64(persons)/float64(good))
}

func (m *miner) bestGroup() []*html.Node {
	var best []*html.Node
	bestScore := 0.0
	for _, g := range m.groups {
		if s := m.groupScore(g); s > bestScore {
			best, bestScore = g, s
		}
	}
	return best
}

// classStep is an XPath step for n: its tag and first class, when it has
// one.
func classStep(n *html.Node) string {
	if c := firstClass(n); c != "" {
		return tokenStep(n.Data, c)
	}
	return n.Data
}

func tokenStep(tag, class string) string {
	return fmt.Sprintf("%s[contains(concat(' ', normalize-space(@class), ' '), ' %s ')]", tag, class)
}

func classTokens(n *html.Node) []string {
	var out []string
	for _, c := range strings.Fields(attr(n, "class")) {
		if !digitsRE.MatchString(c) && !strings.ContainsAny(c, `'"`) {
			out = append(out, c)
		}
	}
	return out
}

// relPath is an XPath from rec whose first node is n: a step by one of
// n's classes, its itemprop, or its tag, alone or under its nearest
// classed ancestor below rec.
func relPath(rec, n *html.Node) string {
	if n == rec {
		return "."
	}
	var steps []string
	for _, c := range classTokens(n) {
		steps = append(steps, tokenStep(n.Data, c))
	}
	if ip := attr(n, "itemprop"); ip != "" && !strings.ContainsAny(ip, `'"`) {
		steps = append(steps, fmt.Sprintf("%s[@itemprop='%s']", n.Data, ip))
	}
	steps = append(steps, n.Data)
	var cands []string
	for _, st := range steps {
		cands = append(cands, ".//"+st)
	}
	for p := n.Parent; p != nil && p != rec; p = p.Parent {
		if cs := classTokens(p); len(cs) > 0 {
			for _, c := range cs {
				cands = append(cands, ".//"+tokenStep(p.Data, c)+"//"+steps[0])
			}
			break
		}
	}
	// Last, the steps down from rec by position ("./td[2]"), for
	// markup without classes.
	var pos []string
	for c := n; c != nil && c != rec; c = c.Parent {
		i := 1
		for s := c.PrevSibling; s != nil; s = s.PrevSibling {
			if s.Type == html.ElementNode && s.Data == c.Data {
				i++
			}
		}
		pos = append([]string{fmt.Sprintf("%s[%d]", c.Data, i)}, pos...)
	}
	cands = append(cands, "./"+strings.Join(pos, "/"))
	for _, c := range cands {
		e, err := xpath.Compile(c)
		if err != nil {
			continue
		}
		if it, ok := e.First(rec); ok && it.Node == n {
			return c
		}
	}
	return cands[0]
}

// recordsPath is an XPath that selects the group's members: anchored at
// their parent's id or class when that selects them alone.
func recordsPath(g []*html.Node) string {
	step := classStep(g[0])
	if inner := spannedIn(g); slices.ContainsFunc(g, inner) {
		// The rows that head a record, not the rows their cells span.
		step += "[*[@rowspan]]"
		g = slices.DeleteFunc(slices.Clone(g), inner)
	}
	p := g[0].Parent
	var cands []string
	if id := attr(p, "id"); id != "" && !digitsRE.MatchString(id) && !strings.ContainsAny(id, `'"`) {
		cands = append(cands, fmt.Sprintf("//%s[@id='%s']/%s", p.Data, id, step))
	}
	if firstClass(p) != "" {
		cands = append(cands, "//"+classStep(p)+"/"+step)
	}
	cands = append(cands, "//"+step)
	root := p
	for root.Parent != nil {
		root = root.Parent
	}
	for _, c := range cands {
		e, err := xpath.Compile(c)
		if err != nil {
			continue
		}
		items := e.Select(root)
		if len(items) >= len(g) && len(items) <= len(g)+len(g)/4+1 {
			return c
		}
	}
	return cands[len(cands)-1]
}

// extraction maps the fields of the chosen group and compiles them:
// each field's paths ranked by how many records they serve (and, for
// dates and authors, how much they look like a post's), the best three
// kept as alternatives.
func (m *miner) extraction(kind ObjectKind, g []*html.Node) *Extraction {
	var recs []*html.Node
	inner := spannedIn(g)
	for _, n := range g {
		if m.good(n) && !inner(n) {
			recs = append(recs, n)
		}
	}
	dates := map[string]float64{}
	authors := map[string]float64{}
	for _, r := range recs {
		seen := map[string]bool{}
		for _, d := range m.withinRecord(r, m.dates) {
			p := m.recordPath(r, d)
			if !seen[p] {
				seen[p] = true
				dates[p] += 1 + m.dateQuality(d)
			}
		}
		first := true
		for _, a := range m.withinRecord(r, m.persons) {
			p := m.recordPath(r, a)
			if seen[p] {
				continue
			}
			seen[p] = true
			w := 1.0
			if first {
				w += 0.3
				first = false
			}
			if personClassRE.MatchString(attr(a, "class")) {
				w += 0.5
			}
			if inQuote(r, a) {
				w -= 0.9
			}
			authors[p] += w
		}
	}
	m.chronology(recs, dates)
	if len(authors) == 0 {
		m.nameSlots(recs, authors)
	}
	constantLabels(recs, authors)
	x := &Extraction{Object: kind, Fields: map[Field][]*Pattern{}, Optional: map[Field]bool{FieldAuthor: true}}
	rp, err := xpath.Compile(recordsPath(g))
	if err != nil {
		return nil
	}
	x.Records = &Pattern{Expr: rp}
	x.Fields[FieldDate] = ranked(dates, 3)
	if a := ranked(authors, 3); len(a) > 0 {
		x.Fields[FieldAuthor] = a
		// The profile link: the author element's, its link's or the
		// link around it.
		var urls []*Pattern
		for _, p := range a {
			for _, suffix := range []string{"/@href", "//a/@href", "/ancestor::a[1]/@href"} {
				if e, err := xpath.Compile(p.String() + suffix); err == nil {
					urls = append(urls, &Pattern{Expr: e})
				}
			}
		}
		x.Fields[FieldAuthorURL] = urls
		x.Optional[FieldAuthorURL] = true
	}
	// The text block holds neither the date nor the author the
	// patterns chose.
	contents := map[string]float64{}
	for _, r := range recs {
		var marks []*html.Node
		for _, f := range []Field{FieldDate, FieldAuthor} {
			for _, p := range x.Fields[f] {
				if it, ok := p.First(r); ok {
					marks = append(marks, it.Node)
					break
				}
			}
		}
		// The text block of the record's part of most words (the row
		// below a spanning cell's, say).
		part := r
		for _, p := range m.recordParts(r) {
			if !strings.HasPrefix(p.path, "./preceding") && m.stats[p.node] != nil && m.stats[p.node].words > m.stats[part].words {
				part = p.node
			}
		}
		if c := m.content(part, marks); c != nil {
			contents[m.recordPath(r, c)]++
		}
	}
	x.Fields[FieldContent] = ranked(contents, 2)
	if len(x.Fields[FieldContent]) == 0 {
		x.Fields[FieldContent] = ranked(map[string]int{".": 1}, 1)
	}
	if attr(recs[0], "id") != "" {
		x.Fields[FieldID] = ranked(map[string]int{"./@id": 1}, 1)
		x.Optional[FieldID] = true
	}
	return x
}

// nameSlots finds the author of records that show no person-like
// element (a name in plain markup, its classes saying nothing): the
// path of a short text of letters, not a date, that most records hold
// and whose values differ between them, the earliest in the record
// first (a post names its author before its text). Three records at
// least.
func (m *miner) nameSlots(recs []*html.Node, authors map[string]float64) {
	if len(recs) < 3 {
		// Two blocks that differ in a short text are any page's
		// teasers as well as a thread's two posts.
		return
	}
	count, first := map[string]int{}, map[string]int{}
	values := map[string]map[string]bool{}
	for _, r := range recs {
		seen := map[string]bool{}
		pos := 0
		var visit func(n *html.Node)
		visit = func(n *html.Node) {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				st := m.stats[c]
				if c.Type != html.ElementNode || st == nil || st.words == 0 {
					continue
				}
				pos++
				if t := Text(c); st.words <= 3 && st.date == nil && wordRE.MatchString(t) && shortName(c) && !inQuote(r, c) {
					if p := relPath(r, c); !seen[p] {
						seen[p] = true
						count[p]++
						if values[p] == nil {
							values[p] = map[string]bool{}
							first[p] = pos
						}
						values[p][t] = true
						first[p] = min(first[p], pos)
					}
				}
				visit(c)
			}
		}
		visit(r)
	}
	for p, c := range count {
		if 3*c >= 2*len(recs) && len(values[p]) >= 2 {
			authors[p] = 1 / float64(first[p])
		}
	}
}

// constantLabels drops the author paths whose text is the same on every
// record of three or more: a field's label ("Username", "Author:"), not
// the people who posted.
func constantLabels(recs []*html.Node, authors map[string]float64) {
	if len(recs) < 3 {
		return
	}
	for p := range authors {
		e, err := xpath.Compile(p)
		if err != nil {
			continue
		}
		texts := map[string]bool{}
		for _, r := range recs {
			if it, ok := e.First(r); ok {
				texts[Text(it.Node)] = true
			} else {
				texts[""] = true
			}
		}
		if len(texts) == 1 {
			delete(authors, p)
		}
	}
}

// chronology favours the date paths whose dates run forward through the
// records and differ: a thread's posting dates do, a profile's joining
// date beside each post (one per author, in no order) does not. Each
// path gains up to one point a record.
func (m *miner) chronology(recs []*html.Node, dates map[string]float64) {
	if len(recs) < 3 {
		return
	}
	now := m.now
	if now.IsZero() {
		now = refTime
	}
	for p := range dates {
		e, err := xpath.Compile(p)
		if err != nil {
			continue
		}
		var seq []time.Time
		for _, r := range recs {
			if it, ok := e.First(r); ok {
				if t, ok := ParseDateAt(Text(it.Node), m.lang, now); ok {
					seq = append(seq, t)
				}
			}
		}
		if len(seq) < 3 {
			continue
		}
		forward, distinct := 0, map[time.Time]bool{seq[0]: true}
		for i := 1; i < len(seq); i++ {
			if !seq[i].Before(seq[i-1]) {
				forward++
			}
			distinct[seq[i]] = true
		}
		n := float64(len(seq))
		dates[p] += 0.5*n*float64(forward)/(n-1) + 0.5*n*float64(len(distinct))/n
	}
}

// content is the record's text block: its descendant with the most words
// that holds none of marks, when that is at least a third of the
// record's text; else the record.
func (m *miner) content(r *html.Node, marks []*html.Node) *html.Node {
	marked := map[*html.Node]bool{}
	for _, n := range marks {
		for ; n != nil && n != r; n = n.Parent {
			marked[n] = true
		}
	}
	var best *html.Node
	bestWords, bestWeight := 0, 0.0
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			cs := m.stats[c]
			if c.Type != html.ElementNode || cs == nil {
				continue
			}
			if marked[c] {
				visit(c)
				continue
			}
			if w := contentWeight(c) * float64(cs.words); w > bestWeight {
				best, bestWeight, bestWords = c, w, cs.words
			}
		}
	}
	visit(r)
	// A block the markup names as the text (contentWeight) holds it
	// however short the post is beside a long user panel.
	if best == nil || 3*bestWords < m.stats[r].words && contentWeight(best) <= 1 {
		return r
	}
	// Down to the block that holds the text alone: not a user panel
	// beside it.
	for {
		var next *html.Node
		for c := best.FirstChild; c != nil; c = c.NextSibling {
			if cs := m.stats[c]; c.Type == html.ElementNode && cs != nil && 20*cs.words >= 17*m.stats[best].words {
				next = c
			}
		}
		if next == nil || marked[next] {
			return best
		}
		best = next
	}
}

var (
	contentClassRE = regexp.MustCompile(`(?i)(content|message|body|text|entry|post)`)
	asideClassRE   = regexp.MustCompile(`(?i)(user|author|profile|sig|avatar|info|meta|footer|header)`)
)

// contentWeight favours blocks classed as a post's text over user panels
// and signatures.
func contentWeight(n *html.Node) float64 {
	c := attr(n, "class") + " " + attr(n, "id")
	switch {
	case contentClassRE.MatchString(c) && !asideClassRE.MatchString(c):
		return 1.5
	case asideClassRE.MatchString(c):
		return 0.5
	}
	return 1
}

func contains(a, b *html.Node) bool {
	for ; b != nil; b = b.Parent {
		if a == b {
			return true
		}
	}
	return false
}

// withinRecord returns the nodes of list in record r and in its other
// parts (recordParts).
func (m *miner) withinRecord(r *html.Node, list []*html.Node) []*html.Node {
	var in []*html.Node
	for _, p := range m.recordParts(r) {
		in = append(in, m.within(p.node, list)...)
	}
	return in
}

// recordPath is relPath from r, through the part of the record that
// holds n.
func (m *miner) recordPath(r, n *html.Node) string {
	for _, p := range m.recordParts(r) {
		if contains(p.node, n) {
			return p.path + strings.TrimPrefix(relPath(p.node, n), ".")
		}
	}
	return relPath(r, n)
}

// recordPart is an element of a record and the XPath from the record to
// it.
type recordPart struct {
	node *html.Node
	path string
}

// recordParts are the elements a record spans: itself, the header row
// above it (header), and the rows below it that a cell of it spans
// (spans).
func (m *miner) recordParts(r *html.Node) []recordPart {
	parts := []recordPart{{r, "."}}
	if h := m.header(r); h != nil {
		parts = append(parts, recordPart{h, "./preceding-sibling::tr[1]"})
	}
	row, n := r, spans(r)
	for i := 1; i <= n; i++ {
		if row = nextElement(row); row == nil || row.DataAtom != atom.Tr {
			break
		}
		parts = append(parts, recordPart{row, fmt.Sprintf("./following-sibling::tr[%d]", i)})
	}
	return parts
}

// spans is the number of rows below table row n that a cell of it spans
// (rowspan="3": two); 0 for another element. A custom forum's table may
// lay a post out in a row of author and date whose cell spans the rows
// of its title, text and actions.
func spans(n *html.Node) int {
	if n.DataAtom != atom.Tr {
		return 0
	}
	most := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.DataAtom == atom.Td || c.DataAtom == atom.Th) {
			if k, err := strconv.Atoi(strings.TrimSpace(attr(c, "rowspan"))); err == nil && k > 1 {
				most = max(most, min(k, 10)-1)
			}
		}
	}
	return most
}

// spanner is the earlier row of n's table a cell of which spans row n,
// nil when none does.
func spanner(n *html.Node) *html.Node {
	if n.DataAtom != atom.Tr {
		return nil
	}
	d := 0
	for p := n.PrevSibling; p != nil && d < 10; p = p.PrevSibling {
		if p.Type != html.ElementNode {
			continue
		}
		d++
		if spans(p) >= d {
			return p
		}
	}
	return nil
}

// spannedIn reports whether a row of g spans row n: n is then a part of
// that row's record, not a record of g.
func spannedIn(g []*html.Node) func(*html.Node) bool {
	return func(n *html.Node) bool {
		s := spanner(n)
		return s != nil && slices.Contains(g, s)
	}
}

func nextElement(n *html.Node) *html.Node {
	for n = n.NextSibling; n != nil; n = n.NextSibling {
		if n.Type == html.ElementNode {
			return n
		}
	}
	return nil
}

// within returns the nodes of list under r.
func (m *miner) within(r *html.Node, list []*html.Node) []*html.Node {
	var out []*html.Node
	for _, n := range list {
		if contains(r, n) {
			out = append(out, n)
		}
	}
	return out
}

var joinedRE = regexp.MustCompile(`(?i)(joined|registered|member since|since|\bseit\b|depuis|desde|registriert|dabei seit|mitglied seit|beigetreten|inscrit|inscription|registrado|iscritto|lid sinds|last seen|last active|zuletzt|edited|bearbeitet|modifié|editado|modificato|bewerkt)`)

// dateQuality favours the dates posts are published with: machine-
// readable, with a time of day, not a member's joining date nor an edit
// note.
func (m *miner) dateQuality(d *html.Node) float64 {
	q := 0.0
	if d.DataAtom == atom.Time || attr(d, "datetime") != "" || attr(d, "data-time") != "" {
		q += 0.5
	}
	if t, ok := ParseDateAt(Text(d), m.lang, m.now); ok && (t.Hour() != 0 || t.Minute() != 0) {
		q += 0.5
	}
	ctx := Text(d)
	if p := d.Parent; p != nil {
		if pt := Text(p); len(pt) < 80 {
			ctx = pt
		}
		for s := d.PrevSibling; s != nil; s = s.PrevSibling {
			if s.Type == html.ElementNode {
				ctx += " " + Text(s)
				break
			}
		}
	}
	if joinedRE.MatchString(ctx) {
		q -= 1.5
	}
	return q
}

func inQuote(r, n *html.Node) bool {
	for p := n.Parent; p != nil && p != r; p = p.Parent {
		if p.DataAtom == atom.Blockquote || strings.Contains(strings.ToLower(attr(p, "class")), "quote") {
			return true
		}
	}
	return false
}

// ranked compiles the n paths of highest score, best first.
func ranked[N int | float64](counts map[string]N, n int) []*Pattern {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if counts[a] != counts[b] {
			return cmp.Compare(counts[b], counts[a])
		}
		return strings.Compare(a, b)
	})
	var out []*Pattern
	for _, k := range keys {
		if len(out) == n {
			break
		}
		if e, err := xpath.Compile(k); err == nil {
			out = append(out, &Pattern{Expr: e})
		}
	}
	return out
}

var commentSectionRE = regexp.MustCompile(`(?i)^(comments?|comment-?list|commentlist|comments-area|comment-section|discussion|responses|replies)$`)

// commentPartRE is a part of a compound id or class that names a list
// of comments whatever the theme or plugin adds around it
// ("post-comments", "wpd-comments-wrapper", "comments_container"): the
// plural, not one comment's parts ("comment-body").
var commentPartRE = regexp.MustCompile(`(?i)^(comments|commentlist|discussion|responses)$`)

// commentSection is the element under n whose id or a class names a
// comment list and that holds the most text: not a heading that
// carries the list's id ("<h3 id=comments>23 responses</h3>") nor a link
// to it.
func commentSection(n *html.Node) *html.Node {
	var best *html.Node
	bestLen := 0
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || skipped(c) {
				continue
			}
			if isCommentSection(c) {
				if l := len(Text(c)); best == nil || l > bestLen {
					best, bestLen = c, l
				}
				continue
			}
			visit(c)
		}
	}
	visit(n)
	return best
}

// isCommentSection: n's id or a class names a comment list, whole or
// as a part of a compound name.
func isCommentSection(n *html.Node) bool {
	for _, name := range append(strings.Fields(attr(n, "class")), attr(n, "id")) {
		if commentSectionRE.MatchString(name) {
			return true
		}
		for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' }) {
			if commentPartRE.MatchString(part) {
				return true
			}
		}
	}
	return false
}

// Thread reports whether mined objects look like a forum thread's posts:
// two or more, most dated, a third or more and at least two with an
// author (a name, not a count such as "20℃").
func Thread(objs []Object) bool {
	if len(objs) < 2 {
		return false
	}
	dated, authored := 0, 0
	for _, o := range objs {
		if !o.Date.IsZero() || o.DateText != "" {
			dated++
		}
		if a := strings.TrimSpace(o.Author); a != "" && !quantityRE.MatchString(a) {
			authored++
		}
	}
	return 2*dated > len(objs) && 3*authored >= len(objs) && authored >= 2
}
