package analysis

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// TallyIRI names the graph of the running totals of the analysis of
// crawl id: what its crawl-wide figures are computed from (see tallies).
func TallyIRI(id string) string { return "urn:mneme:tallies:" + id }

// tallyFormat is the version of the tally graph's encoding; a graph of
// another is counted anew.
const tallyFormat = 1

// entTally is an entity's running totals in a crawl, or its share in one
// text (docs 1). Sentiment sums are in units of 0.0001, the precision of
// the stored scores, so that totals added and taken away in any order are
// exact.
type entTally struct {
	docs, mentions, sentiments, sumE4, absE4, opinions, strongPos, strongNeg int
	// fresh counts the texts of the crawl's own time naming the entity
	// (see stats.freshDocs in the crawl-wide figures).
	fresh int
}

func (t *entTally) add(o *entTally, sign int) {
	t.docs += sign * o.docs
	t.mentions += sign * o.mentions
	t.sentiments += sign * o.sentiments
	t.sumE4 += sign * o.sumE4
	t.absE4 += sign * o.absE4
	t.opinions += sign * o.opinions
	t.strongPos += sign * o.strongPos
	t.strongNeg += sign * o.strongNeg
	t.fresh += sign * o.fresh
}

func (t *entTally) fields() []*int {
	return []*int{&t.docs, &t.mentions, &t.sentiments, &t.sumE4, &t.absE4, &t.opinions, &t.strongPos, &t.strongNeg, &t.fresh}
}

func (t *entTally) encode() string {
	var sb strings.Builder
	for i, f := range t.fields() {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(strconv.Itoa(*f))
	}
	return sb.String()
}

func decodeEntTally(s string) (*entTally, error) {
	t := &entTally{}
	fs := strings.Fields(s)
	ps := t.fields()
	if len(fs) != len(ps) {
		return nil, fmt.Errorf("entity tally %q: want %d numbers", s, len(ps))
	}
	for i, f := range fs {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("entity tally %q: %w", s, err)
		}
		*ps[i] = n
	}
	return t, nil
}

// mention adds a mention with sentiment score c (when has) to t.
func (t *entTally) mention(c float64, has bool) {
	t.mentions++
	if !has {
		return
	}
	t.sentiments++
	e4 := int(math.Round(c * 1e4))
	t.sumE4 += e4
	t.absE4 += max(e4, -e4)
	if c >= neutral || c <= -neutral {
		t.opinions++
	}
	if c >= strong {
		t.strongPos++
	}
	if c <= -strong {
		t.strongNeg++
	}
}

// share is one text's share of its crawl's running totals: its most
// frequent terms with their counts, and its entities.
type share struct {
	terms map[string]int
	ents  map[string]*entTally
}

// encode writes the share as a line of terms ("term:count …") and a line
// per entity ("IRI" and its entTally).
func (s *share) encode() string {
	var sb strings.Builder
	for i, t := range sortedKeys(s.terms) {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(t + ":" + strconv.Itoa(s.terms[t]))
	}
	for _, e := range sortedKeys(s.ents) {
		sb.WriteString("\n" + e + " " + s.ents[e].encode())
	}
	return sb.String()
}

func decodeShare(v string) (*share, error) {
	lines := strings.Split(v, "\n")
	s := &share{terms: parseTermCounts(lines[0]), ents: map[string]*entTally{}}
	for _, l := range lines[1:] {
		e, rest, ok := strings.Cut(l, " ")
		if !ok {
			return nil, fmt.Errorf("text tally line %q: no entity", l)
		}
		t, err := decodeEntTally(rest)
		if err != nil {
			return nil, err
		}
		s.ents[e] = t
	}
	return s, nil
}

// coTally are the entities and terms of an entity's texts, each with the
// number of its texts it occurs in.
type coTally struct {
	ents, terms map[string]int
}

func newCoTally() *coTally { return &coTally{ents: map[string]int{}, terms: map[string]int{}} }

// addShare adds (sign 1) or takes away (-1) text s's share to e's
// co-occurrences.
func (c *coTally) addShare(e string, s *share, sign int) {
	for f := range s.ents {
		if f != e {
			bump(c.ents, f, sign)
		}
	}
	for t := range s.terms {
		bump(c.terms, t, sign)
	}
}

// bump adds d to m[k], dropping k at 0.
func bump(m map[string]int, k string, d int) {
	if n := m[k] + d; n != 0 {
		m[k] = n
	} else {
		delete(m, k)
	}
}

// encode writes "IRI count …" of the entities, then a line of
// "term:count …".
func (c *coTally) encode() string {
	var sb strings.Builder
	for i, f := range sortedKeys(c.ents) {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(f + " " + strconv.Itoa(c.ents[f]))
	}
	sb.WriteByte('\n')
	for i, t := range sortedKeys(c.terms) {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(t + ":" + strconv.Itoa(c.terms[t]))
	}
	return sb.String()
}

func decodeCoTally(v string) (*coTally, error) {
	ents, terms, _ := strings.Cut(v, "\n")
	c := &coTally{ents: map[string]int{}, terms: parseTermCounts(terms)}
	fs := strings.Fields(ents)
	if len(fs)%2 != 0 {
		return nil, fmt.Errorf("co-occurrence tally: odd fields")
	}
	for i := 0; i < len(fs); i += 2 {
		n, err := strconv.Atoi(fs[i+1])
		if err != nil {
			return nil, fmt.Errorf("co-occurrence tally: %w", err)
		}
		c.ents[fs[i]] = n
	}
	return c, nil
}

// crawlTally are the totals of the whole crawl: its texts, and its
// objects by version status (versioned: the crawl was compared with
// one).
type crawlTally struct {
	format, texts                    int
	new, changed, unchanged, deleted int
	versioned                        bool
}

func (c crawlTally) encode() string {
	v := 0
	if c.versioned {
		v = 1
	}
	return fmt.Sprintf("%d %d %d %d %d %d %d", c.format, c.texts, c.new, c.changed, c.unchanged, c.deleted, v)
}

func decodeCrawlTally(s string) (crawlTally, bool) {
	var c crawlTally
	var v int
	if _, err := fmt.Sscanf(s, "%d %d %d %d %d %d %d", &c.format, &c.texts, &c.new, &c.changed, &c.unchanged, &c.deleted, &v); err != nil {
		return crawlTally{}, false
	}
	c.versioned = v == 1
	return c, c.format == tallyFormat
}

// count adds sign to the count of version status st.
func (c *crawlTally) count(st string, sign int) {
	switch st {
	case ontology.StatusNew:
		c.new += sign
	case ontology.StatusChanged:
		c.changed += sign
	case ontology.StatusUnchanged:
		c.unchanged += sign
	case ontology.StatusDeleted:
		c.deleted += sign
	}
}

// tallies are the running totals of one crawl's analysis, read from its
// tally graph as needed (each value once) or, when counted anew, held
// whole.
type tallies struct {
	v       *graph.View
	id      string
	tg, g   rdf.Term // the tally graph, the analysis graph
	tgid    graph.ID
	gid     graph.ID
	crawl   crawlTally
	present bool // the tally graph holds totals of this format
	whole   bool // ents, cos and df hold every value

	ents  map[string]*entTally // nil: none
	cos   map[string]*coTally
	df    map[string]int
	types map[string]map[string]bool
	names []string // the entities, once listed
	// listed: every entity with totals is in ents (nil when it has
	// none).
	listed bool
	shares map[string]*share // the texts' shares read (by texts)
	orig   map[string]string // statements' values as read (see replace)
}

func openTallies(ctx context.Context, v *graph.View, id string) (*tallies, error) {
	t := &tallies{v: v, id: id, tg: rdf.IRI(TallyIRI(id)), g: rdf.IRI(GraphIRI(id)),
		ents: map[string]*entTally{}, cos: map[string]*coTally{}, df: map[string]int{}, types: map[string]map[string]bool{}}
	ids, err := v.LookupTerms([]rdf.Term{t.tg, t.g})
	if err != nil {
		return nil, err
	}
	t.tgid, t.gid = ids[0], ids[1]
	s, ok, err := t.literal(ctx, t.tg, ontology.CrawlTally)
	if err != nil || !ok {
		return t, err
	}
	t.crawl, t.present = decodeCrawlTally(s)
	return t, nil
}

// literal returns the value of the statement "s p ?" of the tally graph.
func (t *tallies) literal(ctx context.Context, s rdf.Term, p string) (string, bool, error) {
	if t.tgid == graph.Any {
		return "", false, nil
	}
	ids, err := t.v.LookupTerms([]rdf.Term{s, rdf.IRI(p)})
	if err != nil || ids[0] == graph.Any || ids[1] == graph.Any {
		return "", false, err
	}
	os, err := values(ctx, t.v, graph.Pattern{S: ids[0], P: ids[1], G: t.tgid}, true)
	if err != nil || len(os) == 0 {
		return "", false, err
	}
	o, err := t.v.Term(os[0])
	if err != nil {
		return "", false, err
	}
	t.remember(s.Value, p, o.Value)
	return o.Value, true, nil
}

// termNode is the subject of term w's document frequency.
func (t *tallies) termNode(w string) rdf.Term { return node(t.id, "term", w) }

// entity returns e's totals (nil when the crawl has none).
func (t *tallies) entity(ctx context.Context, e string) (*entTally, error) {
	if x, ok := t.ents[e]; ok || t.whole || t.listed {
		return x, nil
	}
	s, ok, err := t.literal(ctx, rdf.IRI(e), ontology.EntityTally)
	if err != nil {
		return nil, err
	}
	var x *entTally
	if ok {
		if x, err = decodeEntTally(s); err != nil {
			return nil, fmt.Errorf("%s: %w", e, err)
		}
	}
	t.ents[e] = x
	return x, nil
}

// docs is the number of texts naming e.
func (t *tallies) docs(ctx context.Context, e string) (int, error) {
	x, err := t.entity(ctx, e)
	if x == nil || err != nil {
		return 0, err
	}
	return x.docs, nil
}

// cooccurring returns e's co-occurrences (empty when none).
func (t *tallies) cooccurring(ctx context.Context, e string) (*coTally, error) {
	if x, ok := t.cos[e]; ok {
		return x, nil
	}
	x := newCoTally()
	if !t.whole {
		s, ok, err := t.literal(ctx, rdf.IRI(e), ontology.CooccurrenceTally)
		if err != nil {
			return nil, err
		}
		if ok {
			if x, err = decodeCoTally(s); err != nil {
				return nil, fmt.Errorf("%s: %w", e, err)
			}
		}
	}
	t.cos[e] = x
	return x, nil
}

// docFreq is the number of texts having term w among their most frequent
// terms.
func (t *tallies) docFreq(ctx context.Context, w string) (int, error) {
	if n, ok := t.df[w]; ok || t.whole {
		return n, nil
	}
	s, ok, err := t.literal(ctx, t.termNode(w), ontology.DocumentFrequency)
	if err != nil {
		return 0, err
	}
	n := 0
	if ok {
		f, _, _ := strings.Cut(s, " ")
		if n, err = strconv.Atoi(f); err != nil {
			return 0, fmt.Errorf("document frequency of %q: %w", w, err)
		}
	}
	t.df[w] = n
	return n, nil
}

// entities lists the entities the crawl's texts name, in order.
func (t *tallies) entities(ctx context.Context) ([]string, error) {
	if t.names != nil {
		return t.names, nil
	}
	if t.whole {
		t.names = []string{}
		for e, x := range t.ents {
			if x != nil {
				t.names = append(t.names, e)
			}
		}
		sort.Strings(t.names)
		return t.names, nil
	}
	pid, ok, err := t.v.Lookup(rdf.IRI(ontology.EntityTally))
	if err != nil {
		return nil, err
	}
	if ok && t.tgid != graph.Any {
		it, err := t.v.Scan(ctx, graph.Pattern{P: pid, G: t.tgid}, graph.ScanOptions{})
		if err != nil {
			return nil, err
		}
		var ids []graph.ID
		for it.Next() {
			ids = append(ids, it.Quad().S, it.Quad().O)
		}
		it.Close()
		if err := it.Err(); err != nil {
			return nil, err
		}
		ts, err := t.v.Terms(ctx, ids, nil)
		if err != nil {
			return nil, err
		}
		for i := 0; i < len(ts); i += 2 {
			e := ts[i].Value
			if _, ok := t.ents[e]; ok { // read before, or updated
				continue
			}
			x, err := decodeEntTally(ts[i+1].Value)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", e, err)
			}
			t.ents[e] = x
			t.remember(e, ontology.EntityTally, ts[i+1].Value)
		}
	}
	t.listed = true
	t.names = []string{}
	for e, x := range t.ents {
		if x != nil {
			t.names = append(t.names, e)
		}
	}
	sort.Strings(t.names)
	return t.names, nil
}

// classes returns the classes entity e was found as in the crawl.
func (t *tallies) classes(ctx context.Context, e string) (map[string]bool, error) {
	if m, ok := t.types[e]; ok {
		return m, nil
	}
	m := map[string]bool{}
	t.types[e] = m
	ids, err := t.v.LookupTerms([]rdf.Term{rdf.IRI(e), rdf.IRI(rdf.RDFType)})
	if err != nil || ids[0] == graph.Any || ids[1] == graph.Any || t.gid == graph.Any {
		return m, err
	}
	os, err := values(ctx, t.v, graph.Pattern{S: ids[0], P: ids[1], G: t.gid}, true)
	if err != nil {
		return nil, err
	}
	ts, err := t.v.Terms(ctx, os, nil)
	if err != nil {
		return nil, err
	}
	// The query the figures were first computed with asked for the
	// classes of the entities typed mneme:Entity.
	for _, c := range ts {
		m[c.Value] = true
	}
	if !m[ontology.Entity] {
		clear(m)
	}
	return m, nil
}

// nFresh is the number of the crawl's new or changed texts (at least 1),
// all of them when the crawl was compared with none.
func (t *tallies) nFresh() float64 {
	if !t.crawl.versioned {
		return float64(max(t.crawl.texts, 1))
	}
	return float64(max(t.crawl.new+t.crawl.changed, 1))
}

// freshDocs is the number of texts of the crawl's own time naming e.
func (t *tallies) freshDocs(ctx context.Context, e string) (int, error) {
	x, err := t.entity(ctx, e)
	if x == nil || err != nil {
		return 0, err
	}
	return x.fresh, nil
}

// orig remembers the value a statement of the tally graph had when read,
// for replace to delete it.
func (t *tallies) remember(s, p, v string) {
	if t.orig == nil {
		t.orig = map[string]string{}
	}
	t.orig[s+"\x00"+p] = v
}

// replace sets the statement "s p ?" of the tally graph to value v (none
// when v is ""), deleting the value read before in b.
func (t *tallies) replace(b *graph.Batch, s rdf.Term, p, v string) {
	old, had := t.orig[s.Value+"\x00"+p]
	if had && old == v {
		return
	}
	if had {
		b.Delete(rdf.Quad{S: s, P: rdf.IRI(p), O: rdf.String(old), G: t.tg})
	}
	if v != "" {
		b.Add(rdf.Quad{S: s, P: rdf.IRI(p), O: rdf.String(v), G: t.tg})
	}
}

// texts reads the shares of every text the totals count (into shares)
// and lists the texts.
func (t *tallies) texts(ctx context.Context) ([]string, error) {
	if t.shares == nil {
		t.shares = map[string]*share{}
	}
	if t.whole {
		return sortedKeys(t.shares), nil
	}
	pid, ok, err := t.v.Lookup(rdf.IRI(ontology.TextTally))
	if err != nil || !ok || t.tgid == graph.Any {
		return nil, err
	}
	it, err := t.v.Scan(ctx, graph.Pattern{P: pid, G: t.tgid}, graph.ScanOptions{})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var ids []graph.ID
	for it.Next() {
		ids = append(ids, it.Quad().S, it.Quad().O)
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	ts, err := t.v.Terms(ctx, ids, nil)
	if err != nil {
		return nil, err
	}
	var out []string
	for i := 0; i < len(ts); i += 2 {
		sh, err := decodeShare(ts[i+1].Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ts[i].Value, err)
		}
		t.shares[ts[i].Value] = sh
		out = append(out, ts[i].Value)
	}
	return out, nil
}

// update is what a finish changed in the totals.
type update struct {
	tl      *tallies
	touched map[string]bool   // entities whose totals changed
	shares  map[string]*share // of the objects updated, as counted now (nil: no text)
	// dfBefore are the terms whose document frequency changed, with the
	// frequency before.
	dfBefore map[string]int
	erased   *eraser // the tally graph's statements replaced whole
}

// share returns text d's share as counted now (nil when none).
func (u *update) share(ctx context.Context, d string) (*share, error) {
	if sh, ok := u.shares[d]; ok {
		return sh, nil
	}
	if sh, ok := u.tl.shares[d]; ok || u.tl.whole {
		return sh, nil
	}
	s, ok, err := u.tl.literal(ctx, rdf.IRI(d), ontology.TextTally)
	if err != nil || !ok {
		return nil, err
	}
	sh, err := decodeShare(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d, err)
	}
	return sh, nil
}

// apply adds (sign 1) or takes away (-1) a text's share from the totals.
func (u *update) apply(ctx context.Context, sh *share, sign int) error {
	t := u.tl
	for e, x := range sh.ents {
		et, err := t.entity(ctx, e)
		if err != nil {
			return err
		}
		if et == nil {
			et = &entTally{}
		}
		et.add(x, sign)
		t.ents[e] = et
		co, err := t.cooccurring(ctx, e)
		if err != nil {
			return err
		}
		co.addShare(e, sh, sign)
		u.touched[e] = true
	}
	for w := range sh.terms {
		if _, ok := u.dfBefore[w]; !ok {
			n, err := t.docFreq(ctx, w)
			if err != nil {
				return err
			}
			u.dfBefore[w] = n
		}
		t.df[w] += sign
	}
	t.crawl.texts += sign
	return nil
}

// updateTallies brings the crawl's totals up to date with the texts of
// the objects of dirty (of every text when recount), writing the
// changed totals in b, and returns what changed.
func (r *run) updateTallies(ctx context.Context, v *graph.View, b *graph.Batch, tl *tallies, dirty map[string]bool, vs *versionState, recount bool) (*update, error) {
	up := &update{tl: tl, touched: map[string]bool{}, shares: map[string]*share{}, dfBefore: map[string]int{}}
	er, err := newEraser(v, tl.tg)
	if err != nil {
		return nil, err
	}
	up.erased = er
	sr, err := newShareReader(v, r.graph, vs.prevGraph)
	if err != nil {
		return nil, err
	}
	docs := sortedKeys(dirty)
	if recount {
		if er.gid != graph.Any {
			if err := er.pattern(ctx, graph.Pattern{}); err != nil {
				return nil, err
			}
		}
		tl.whole, tl.orig = true, nil
		tl.ents, tl.cos, tl.df, tl.shares, tl.names = map[string]*entTally{}, map[string]*coTally{}, map[string]int{}, map[string]*share{}, nil
		tl.crawl = crawlTally{format: tallyFormat, versioned: vs.versioned}
		for _, st := range vs.status {
			tl.crawl.count(st, 1)
		}
		if docs, err = sr.texts(ctx); err != nil {
			return nil, err
		}
	} else {
		for _, st := range vs.status {
			tl.crawl.count(st, 1)
		}
		for _, st := range vs.old {
			tl.crawl.count(st, -1)
		}
	}
	for _, d := range docs {
		if !recount {
			s, ok, err := tl.literal(ctx, rdf.IRI(d), ontology.TextTally)
			if err != nil {
				return nil, err
			}
			if ok {
				old, err := decodeShare(s)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", d, err)
				}
				if err := up.apply(ctx, old, -1); err != nil {
					return nil, err
				}
			}
		}
		sh, err := sr.read(ctx, d, vs.status[d], vs.versioned)
		if err != nil {
			return nil, err
		}
		if recount {
			tl.shares[d] = sh
		} else {
			up.shares[d] = sh
		}
		v := ""
		if sh != nil {
			if err := up.apply(ctx, sh, 1); err != nil {
				return nil, err
			}
			v = sh.encode()
		}
		tl.replace(b, rdf.IRI(d), ontology.TextTally, v)
	}
	for _, e := range sortedKeys(up.touched) {
		et, co := tl.ents[e], tl.cos[e]
		if et.docs <= 0 {
			tl.ents[e] = nil
			tl.replace(b, rdf.IRI(e), ontology.EntityTally, "")
			tl.replace(b, rdf.IRI(e), ontology.CooccurrenceTally, "")
			continue
		}
		tl.replace(b, rdf.IRI(e), ontology.EntityTally, et.encode())
		tl.replace(b, rdf.IRI(e), ontology.CooccurrenceTally, co.encode())
	}
	for _, w := range sortedKeys(up.dfBefore) {
		val := ""
		if n := tl.df[w]; n > 0 {
			val = strconv.Itoa(n) + " " + w
		} else {
			delete(tl.df, w)
		}
		tl.replace(b, tl.termNode(w), ontology.DocumentFrequency, val)
	}
	tl.replace(b, tl.tg, ontology.CrawlTally, tl.crawl.encode())
	tl.names = nil
	return up, nil
}

// shareReader reads a text's share of the totals from the analysis graph.
type shareReader struct {
	v   *graph.View
	ids []graph.ID // the analysis graph, the previous one, then the predicates below
}

var sharePredicates = []string{ontology.TextLength, ontology.TermCounts, ontology.InObject, ontology.MentionOf, ontology.Sentiment, ontology.SchemaMentions}

const (
	srGraph = iota
	srPrev
	srTextLength
	srTermCounts
	srInObject
	srMentionOf
	srSentiment
	srMentions
)

func newShareReader(v *graph.View, g, prev rdf.Term) (*shareReader, error) {
	terms := []rdf.Term{g, prev}
	if prev.IsZero() {
		terms[1] = g // no previous crawl: not used
	}
	for _, p := range sharePredicates {
		terms = append(terms, rdf.IRI(p))
	}
	ids, err := v.LookupTerms(terms)
	if prev.IsZero() {
		ids[srPrev] = graph.Any
	}
	return &shareReader{v: v, ids: ids}, err
}

// texts lists the objects the analysis graph has texts of.
func (sr *shareReader) texts(ctx context.Context) ([]string, error) {
	if sr.ids[srGraph] == graph.Any || sr.ids[srTextLength] == graph.Any {
		return nil, nil
	}
	ds, err := values(ctx, sr.v, graph.Pattern{P: sr.ids[srTextLength], G: sr.ids[srGraph]}, false)
	if err != nil {
		return nil, err
	}
	ts, err := sr.v.Terms(ctx, ds, nil)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if !seen[t.Value] {
			seen[t.Value] = true
			out = append(out, t.Value)
		}
	}
	sort.Strings(out)
	return out, nil
}

// read returns the share of object d's text (nil when the analysis has
// none): its most frequent terms (of the least mneme:termCounts, should
// captures have given it two texts), and per entity its mentions with
// their sentiment; of the crawl's own time when the crawl was compared
// with none (versioned false), or d is new, or changed and its earlier
// version did not name the entity (status is d's version status).
func (sr *shareReader) read(ctx context.Context, d, status string, versioned bool) (*share, error) {
	g := sr.ids[srGraph]
	if g == graph.Any || sr.ids[srTextLength] == graph.Any {
		return nil, nil
	}
	id, ok, err := sr.v.Lookup(rdf.IRI(d))
	if err != nil || !ok {
		return nil, err
	}
	if ok, err := has(ctx, sr.v, graph.Pattern{S: id, P: sr.ids[srTextLength], G: g}); err != nil || !ok {
		return nil, err
	}
	sh := &share{terms: map[string]int{}, ents: map[string]*entTally{}}
	if p := sr.ids[srTermCounts]; p != graph.Any {
		tcs, err := values(ctx, sr.v, graph.Pattern{S: id, P: p, G: g}, true)
		if err != nil {
			return nil, err
		}
		ts, err := sr.v.Terms(ctx, tcs, nil)
		if err != nil {
			return nil, err
		}
		least := ""
		for i, t := range ts {
			if i == 0 || t.Value < least {
				least = t.Value
			}
		}
		if len(ts) > 0 {
			sh.terms = parseTermCounts(least)
		}
	}
	if sr.ids[srInObject] == graph.Any || sr.ids[srMentionOf] == graph.Any {
		return sh, nil
	}
	ms, err := values(ctx, sr.v, graph.Pattern{P: sr.ids[srInObject], O: id, G: g}, false)
	if err != nil {
		return nil, err
	}
	type mention struct{ es, ss []graph.ID }
	var all []graph.ID
	mentions := make([]mention, len(ms))
	for i, m := range ms {
		if mentions[i].es, err = values(ctx, sr.v, graph.Pattern{S: m, P: sr.ids[srMentionOf], G: g}, true); err != nil {
			return nil, err
		}
		if p := sr.ids[srSentiment]; p != graph.Any {
			if mentions[i].ss, err = values(ctx, sr.v, graph.Pattern{S: m, P: p, G: g}, true); err != nil {
				return nil, err
			}
		}
		all = append(append(all, mentions[i].es...), mentions[i].ss...)
	}
	ts, err := sr.v.Terms(ctx, all, nil)
	if err != nil {
		return nil, err
	}
	k := 0
	for _, m := range mentions {
		es, ss := ts[k:k+len(m.es)], ts[k+len(m.es):k+len(m.es)+len(m.ss)]
		k += len(m.es) + len(m.ss)
		for _, e := range es {
			x := sh.ents[e.Value]
			if x == nil {
				x = &entTally{docs: 1}
				sh.ents[e.Value] = x
			}
			if len(ss) == 0 {
				x.mention(0, false)
			}
			for _, s := range ss {
				c, err := strconv.ParseFloat(s.Value, 64)
				x.mention(c, err == nil)
			}
		}
	}
	fresh := status == ontology.StatusNew || status == ontology.StatusChanged
	for _, e := range sortedKeys(sh.ents) {
		x := sh.ents[e]
		switch {
		case !versioned:
			x.fresh = 1
		case !fresh:
		case status == ontology.StatusChanged && sr.ids[srPrev] != graph.Any && sr.ids[srMentions] != graph.Any:
			eid, ok, err := sr.v.Lookup(rdf.IRI(e))
			if err != nil {
				return nil, err
			}
			named := false
			if ok {
				if named, err = has(ctx, sr.v, graph.Pattern{S: id, P: sr.ids[srMentions], O: eid, G: sr.ids[srPrev]}); err != nil {
					return nil, err
				}
			}
			if !named {
				x.fresh = 1
			}
		default:
			x.fresh = 1
		}
	}
	return sh, nil
}
