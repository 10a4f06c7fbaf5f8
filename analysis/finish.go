package analysis

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// How many topic terms a text gets, and associations of each kind an
// entity gets.
const (
	topicTerms   = 5
	associations = 10
)

// finish updates the crawl-wide figures of the analysis graph for the
// objects analysed since the figures were last written (those marked
// mneme:awaitsFigures), and the changes against the crawl analysed
// before, in one atomic commit that drops the marks. The figures are
// computed from the crawl's running totals (tallies), which it first
// updates by those objects' texts: each text's share as last counted is
// taken away and its share now added. Only the figures those objects can
// change are rewritten: their versions, the measures and associations of
// the entities they name, their texts' topic terms and those of a bounded
// number of the texts whose topic terms they make outdated (through the
// crawl's size or a term's document frequency, see coarse), the others
// being marked for a later run (see topicTexts); the name changes, which
// weigh every entity against the crawls before, are recomputed from the
// totals.
func (r *run) finish(ctx context.Context) error {
	v := r.o.Store.Snapshot()
	defer v.Close()
	b := &writes{}
	t0 := time.Now()
	r.rep.Stage = "measures"
	r.progress()
	er, err := newEraser(v, r.graph)
	if err != nil {
		return err
	}
	dirty, err := er.marked(ctx, b)
	if err != nil {
		return err
	}
	when, err := crawlStart(ctx, v, r.crawl.Value)
	if err != nil {
		return err
	}
	// The figures were never written (or by a version of the analysis
	// that did not mark what they await): all are written anew.
	before, err := er.number(ctx, ontology.TextCount)
	if err != nil {
		return err
	}
	tl, err := openTallies(ctx, v, r.id)
	if err != nil {
		return err
	}
	full := before < 0 || !tl.present
	// The versions come first: which texts are of the crawl's own time
	// enters the totals.
	vs, err := r.versionsStage(ctx, v, b, er, dirty, full, when)
	if err != nil {
		return err
	}
	recount := full || vs.all || tl.crawl.versioned != vs.versioned
	up, err := r.updateTallies(ctx, v, b, tl, dirty, vs, recount)
	if err != nil {
		return err
	}
	names, err := tl.entities(ctx)
	if err != nil {
		return err
	}
	r.rep.Entities = len(names)
	r.rep.Versions = map[string]int{"New": tl.crawl.new, "Changed": tl.crawl.changed, "Unchanged": tl.crawl.unchanged, "Deleted": tl.crawl.deleted}
	for _, e := range sortedKeys(up.touched) {
		if err := er.subject(ctx, node(r.id, "measures", e)); err != nil {
			return err
		}
		if err := er.objectsOf(ctx, ontology.AssociationOf, rdf.IRI(e)); err != nil {
			return err
		}
	}
	if err := r.measures(ctx, b, tl, when, up.touched); err != nil {
		return err
	}
	r.rep.Stages = append(r.rep.Stages, StageTime{"measures", time.Since(t0)})
	t0 = time.Now()
	r.rep.Stage = "topics"
	r.progress()
	redo, pending, err := r.topicTexts(ctx, b, er, up, recount, coarse(before) != coarse(tl.crawl.texts), r.topicBudget(len(dirty), len(up.shares)))
	if err != nil {
		return err
	}
	r.rep.TopicsPending = pending
	if err := r.topics(ctx, b, tl, up, redo); err != nil {
		return err
	}
	if err := r.associations(ctx, b, tl, up.touched); err != nil {
		return err
	}
	r.rep.Updated.Entities, r.rep.Updated.Texts = len(up.touched), len(redo)
	if err := r.setNumber(ctx, b, er, ontology.TextCount, tl.crawl.texts); err != nil {
		return err
	}
	r.rep.Stages = append(r.rep.Stages, StageTime{"topics and associations", time.Since(t0)})
	t0 = time.Now()
	r.rep.Stage = "changes"
	r.progress()
	if err := r.nameChanges(ctx, v, b, er, vs, tl); err != nil {
		return err
	}
	if err := er.flush(ctx, b); err != nil {
		return err
	}
	if err := up.erased.flush(ctx, b); err != nil {
		return err
	}
	r.rep.Stages = append(r.rep.Stages, StageTime{"changes", time.Since(t0)})
	_, err = b.batch(r.o.Store).Commit(ctx)
	return err
}

// writes collects the statements a finish deletes (the figures it
// replaces) and adds (the figures anew), to commit their net change: a
// figure written anew as it was is left out of the commit.
type writes struct {
	dels, adds []rdf.Quad
}

func (w *writes) Add(q rdf.Quad)    { w.adds = append(w.adds, q) }
func (w *writes) Delete(q rdf.Quad) { w.dels = append(w.dels, q) }

// batch returns the net change as a batch: the deletions of statements
// not added again, then the additions of statements not deleted (every
// statement deleted was there; a batch applies its operations in order).
func (w *writes) batch(s *graph.Store) *graph.Batch {
	gone := make(map[string]bool, len(w.dels))
	for _, q := range w.dels {
		gone[q.String()] = true
	}
	again := map[string]bool{}
	var adds []rdf.Quad
	for _, q := range w.adds {
		k := q.String()
		if gone[k] {
			again[k] = true
			continue
		}
		adds = append(adds, q)
	}
	b := s.NewBatch()
	for _, q := range w.dels {
		if !again[q.String()] {
			b.Delete(q)
		}
	}
	for _, q := range adds {
		b.Add(q)
	}
	return b
}

// eraser collects the quads of the analysis graph that a finish replaces,
// to delete them in its batch before the new ones are added (a quad
// deleted and added again is left as it was).
type eraser struct {
	v     *graph.View
	g     rdf.Term
	gid   graph.ID
	quads []graph.IDQuad
}

func newEraser(v *graph.View, g rdf.Term) (*eraser, error) {
	gid, _, err := v.Lookup(g)
	return &eraser{v: v, g: g, gid: gid}, err
}

// lookup returns the ID of t, or false when the store never held it (nor
// any quad naming it).
func (e *eraser) lookup(t rdf.Term) (graph.ID, bool, error) {
	if e.gid == graph.Any {
		return graph.Any, false, nil
	}
	return e.v.Lookup(t)
}

// pattern collects the quads of the graph matching p (its G is set).
func (e *eraser) pattern(ctx context.Context, p graph.Pattern) error {
	p.G = e.gid
	it, err := e.v.Scan(ctx, p, graph.ScanOptions{})
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
		e.quads = append(e.quads, it.Quad())
	}
	return it.Err()
}

// subject collects the statements about s.
func (e *eraser) subject(ctx context.Context, s rdf.Term) error {
	id, ok, err := e.lookup(s)
	if err != nil || !ok {
		return err
	}
	return e.pattern(ctx, graph.Pattern{S: id})
}

// objectsOf collects the statements about every node n with "n p o".
func (e *eraser) objectsOf(ctx context.Context, p string, o rdf.Term) error {
	pid, ok, err := e.lookup(rdf.IRI(p))
	if err != nil || !ok {
		return err
	}
	oid, ok, err := e.lookup(o)
	if err != nil || !ok {
		return err
	}
	nodes, err := values(ctx, e.v, graph.Pattern{P: pid, O: oid, G: e.gid}, false)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		if err := e.pattern(ctx, graph.Pattern{S: n}); err != nil {
			return err
		}
	}
	return nil
}

// class collects the statements about every node of class c.
func (e *eraser) class(ctx context.Context, c string) error {
	return e.objectsOf(ctx, rdf.RDFType, rdf.IRI(c))
}

// predicate collects the statements of s with predicate p.
func (e *eraser) predicate(ctx context.Context, s rdf.Term, p string) error {
	sid, ok, err := e.lookup(s)
	if err != nil || !ok {
		return err
	}
	pid, ok, err := e.lookup(rdf.IRI(p))
	if err != nil || !ok {
		return err
	}
	return e.pattern(ctx, graph.Pattern{S: sid, P: pid})
}

// marked returns the objects marked mneme:awaitsFigures, whose marks it
// deletes in b.
func (e *eraser) marked(ctx context.Context, b *writes) (map[string]bool, error) {
	pid, ok, err := e.lookup(rdf.IRI(ontology.AwaitsFigures))
	if err != nil || !ok {
		return map[string]bool{}, err
	}
	objs, err := values(ctx, e.v, graph.Pattern{P: pid, O: e.gid, G: e.gid}, false)
	if err != nil {
		return nil, err
	}
	ts, err := e.v.Terms(ctx, objs, nil)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(ts))
	for _, t := range ts {
		out[t.Value] = true
		b.Delete(rdf.Quad{S: t, P: rdf.IRI(ontology.AwaitsFigures), O: e.g, G: e.g})
	}
	return out, nil
}

// number returns the integer the analysis states with predicate p (-1
// when it states none).
func (e *eraser) number(ctx context.Context, p string) (int, error) {
	return numberOf(ctx, e.v, e.g, e.g, p)
}

// numberOf returns the integer node s states with predicate p in graph g
// (-1 when none).
func numberOf(ctx context.Context, v *graph.View, g, s rdf.Term, p string) (int, error) {
	ids, err := v.LookupTerms([]rdf.Term{g, s, rdf.IRI(p)})
	if err != nil || ids[0] == graph.Any || ids[1] == graph.Any || ids[2] == graph.Any {
		return -1, err
	}
	os, err := values(ctx, v, graph.Pattern{S: ids[1], P: ids[2], G: ids[0]}, true)
	if err != nil || len(os) == 0 {
		return -1, err
	}
	t, err := v.Term(os[0])
	if err != nil {
		return -1, err
	}
	n, err := strconv.Atoi(t.Value)
	if err != nil {
		return -1, nil
	}
	return n, nil
}

// setNumber replaces the analysis's statement with predicate p by n.
func (r *run) setNumber(ctx context.Context, b *writes, e *eraser, p string, n int) error {
	if err := e.predicate(ctx, r.graph, p); err != nil {
		return err
	}
	b.Add(rdf.Quad{S: r.graph, P: rdf.IRI(p), O: integer(n), G: r.graph})
	return nil
}

// flush deletes the collected quads in b.
func (e *eraser) flush(ctx context.Context, b *writes) error {
	ids := make([]graph.ID, 0, 3*len(e.quads))
	for _, q := range e.quads {
		ids = append(ids, q.S, q.P, q.O)
	}
	terms, err := e.v.Terms(ctx, ids, nil)
	if err != nil {
		return err
	}
	for i := range e.quads {
		b.Delete(rdf.Quad{S: terms[3*i], P: terms[3*i+1], O: terms[3*i+2], G: e.g})
	}
	e.quads = nil
	return nil
}

// crawlStart is when crawl c started (zero when its graph does not say).
func crawlStart(ctx context.Context, v *graph.View, c string) (time.Time, error) {
	var t time.Time
	err := each(ctx, v, `SELECT ?t WHERE { GRAPH `+rdf.IRI(c).String()+` { `+rdf.IRI(c).String()+` prov:startedAtTime ?t } }`,
		func(row []rdf.Term) error {
			if x, err := time.Parse(time.RFC3339Nano, row[0].Value); err == nil && (t.IsZero() || x.Before(t)) {
				t = x
			}
			return nil
		})
	return t, err
}

// measures adds the measures of the entities of the crawl in only.
func (r *run) measures(ctx context.Context, b *writes, tl *tallies, when time.Time, only map[string]bool) error {
	add := func(sub rdf.Term, p string, o rdf.Term) { b.Add(rdf.Quad{S: sub, P: rdf.IRI(p), O: o, G: r.graph}) }
	for _, e := range sortedKeys(only) {
		es, err := tl.entity(ctx, e)
		if err != nil {
			return err
		}
		if es == nil {
			continue
		}
		co, err := tl.cooccurring(ctx, e)
		if err != nil {
			return err
		}
		m := node(r.id, "measures", e)
		add(m, rdf.RDFType, rdf.IRI(ontology.EntityMeasures))
		add(m, ontology.MeasuresOf, rdf.IRI(e))
		add(m, ontology.InCrawl, r.crawl)
		add(m, ontology.ProvWasGeneratedBy, r.graph)
		if !when.IsZero() {
			add(m, ontology.CrawlTime, rdf.Literal(when.UTC().Format(time.RFC3339), rdf.XSDDateTime))
		}
		add(m, ontology.Popularity, integer(es.docs))
		add(m, ontology.MentionCount, integer(es.mentions))
		att, sen, con := 0.0, 0.0, 0.0
		if es.sentiments > 0 {
			n := 1e4 * float64(es.sentiments)
			att, sen = float64(es.sumE4)/n, float64(es.absE4)/n
		}
		if es.opinions > 0 {
			con = 2 * float64(min(es.strongPos, es.strongNeg)) / float64(es.opinions)
		}
		add(m, ontology.Attitude, decimal(att))
		add(m, ontology.Sentimentality, decimal(sen))
		add(m, ontology.Controversiality, decimal(con))
		add(m, ontology.Connectedness, integer(len(co.ents)))
	}
	return nil
}

// idf is the inverse document frequency of a term in a crawl of n texts,
// df of which have it among their most frequent terms (smoothed: a term
// in every text still weighs a little), both counted coarsely (see
// coarse).
func idf(n, df int) float64 { return math.Log(1 + float64(coarse(n))/float64(max(coarse(df), 1))) }

// coarse is a count as TF-IDF takes it: n rounded down to two significant
// bits (1, 2, 3, 4, 6, 8, 12, 16, 24 …). With the counts themselves every
// weight of the crawl would change whenever a text is added (n), and
// every weight of a term whenever a text using it is (its df): a rerun
// would rewrite the topic terms of nearly every text. Counted coarsely, a
// text's topic terms change only when the crawl grows by a third or more
// (when they are all written anew), or the document frequency of one of
// its topic terms by as much. Rounding moves n/df by less than a factor
// of 1.5 either way, which moves a weight by less than log 1.5 and leaves
// the order of a text's terms nearly always as it was.
func coarse(n int) int {
	if n < 4 {
		return max(n, 0)
	}
	e := bits.Len(uint(n)) - 2 // n >> e is 2 or 3
	return n >> e << e
}

// topicTexts returns the texts whose topic terms this run writes anew,
// collecting their old ones in er, and keeps the queue of texts whose
// topic terms are outdated (mneme:awaitsTopicTerms): every text's are
// written anew when all (its totals were counted anew); else those of the
// update's texts, and of at most budget texts of the queue (all of it when
// budget < 0), the oldest marks first. The queue gains, marked in b, the
// texts left whose topic terms moved: every text's when the crawl's size
// as counted (see coarse) changed or a term's document frequency as
// counted fell (a term's weight rose, which may bring it into any text's
// topic terms); else the texts having as a topic term one whose document
// frequency as counted rose (its weight fell: a term that is not among a
// text's topic terms stays out). So every text without a mark has the
// topic terms an analysis of the whole crawl gives it, and a run costs
// its own texts and its budget, however many texts a term's step moves.
// It returns how many texts the queue holds after the run.
func (r *run) topicTexts(ctx context.Context, b *writes, er *eraser, up *update, all, step bool, budget int) (map[string]bool, int, error) {
	redo := map[string]bool{}
	if all {
		// The texts counted before (their shares read for topics), and
		// those of the update.
		ds, err := up.tl.texts(ctx)
		if err != nil {
			return nil, 0, err
		}
		for _, d := range ds {
			redo[d] = true
		}
		for d := range up.shares {
			redo[d] = true
		}
		for _, p := range []string{ontology.HasTopicTerm, ontology.AwaitsTopicTerms} {
			pid, ok, err := er.lookup(rdf.IRI(p))
			if err != nil {
				return nil, 0, err
			}
			if ok {
				if err := er.pattern(ctx, graph.Pattern{P: pid}); err != nil {
					return nil, 0, err
				}
			}
		}
		return redo, 0, er.class(ctx, ontology.TopicTerm)
	}
	for d := range up.shares {
		redo[d] = true
	}
	q, pending, err := r.staleQueue(ctx, er, up, step, redo, budget)
	if err != nil {
		return nil, 0, err
	}
	for _, x := range q {
		switch {
		case redo[x.d]: // the run's own text: its mark, if any, goes
		case budget != 0:
			budget = max(budget-1, -1)
			redo[x.d] = true
		default:
			pending++
			if x.since < 0 {
				b.Add(rdf.Quad{S: rdf.IRI(x.d), P: rdf.IRI(ontology.AwaitsTopicTerms), O: integer(up.tl.crawl.texts), G: r.graph})
			}
			continue
		}
		if x.since >= 0 {
			b.Delete(rdf.Quad{S: rdf.IRI(x.d), P: rdf.IRI(ontology.AwaitsTopicTerms), O: integer(x.since), G: r.graph})
		}
	}
	hid, ok, err := er.lookup(rdf.IRI(ontology.HasTopicTerm))
	if err != nil || !ok {
		return redo, pending, err
	}
	for _, d := range sortedKeys(redo) {
		id, ok, err := er.lookup(rdf.IRI(d))
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			continue
		}
		nodes, err := values(ctx, er.v, graph.Pattern{S: id, P: hid, G: er.gid}, true)
		if err != nil {
			return nil, 0, err
		}
		for _, n := range nodes {
			er.quads = append(er.quads, graph.IDQuad{S: id, P: hid, O: n, G: er.gid})
		}
		for _, n := range nodes {
			if err := er.pattern(ctx, graph.Pattern{S: n}); err != nil {
				return nil, 0, err
			}
		}
	}
	return redo, pending, nil
}

// staleText is a text of the queue of outdated topic terms, marked when
// the crawl had since texts (-1: not yet marked).
type staleText struct {
	d     string
	since int
}

// staleQueue returns the queue of texts whose topic terms are outdated,
// oldest marks first (then by IRI, so that the order does not depend on
// the store's history): the marked texts and those the update's moves
// make outdated (see topicTexts; step: the crawl's size as counted
// changed). Of the marked texts it names only those a run with budget
// (see topicTexts) takes and those of own, and returns how many it left
// out: the marks are read as IDs, and only the texts taken are looked up.
func (r *run) staleQueue(ctx context.Context, er *eraser, up *update, step bool, own map[string]bool, budget int) ([]staleText, int, error) {
	ids, err := er.v.LookupTerms([]rdf.Term{rdf.IRI(ontology.AwaitsTopicTerms), rdf.IRI(ontology.HasTopicTerm), rdf.IRI(ontology.Term)})
	if err != nil || er.gid == graph.Any {
		return nil, 0, err
	}
	mid, hid, tid := ids[0], ids[1], ids[2]
	ownIDs := map[graph.ID]string{}
	for d := range own {
		id, ok, err := er.v.Lookup(rdf.IRI(d))
		if err != nil {
			return nil, 0, err
		}
		if ok {
			ownIDs[id] = d
		}
	}
	var q []staleText
	bySince := map[graph.ID][]graph.ID{} // the marked texts, not own, by their marks' values
	marked := map[graph.ID]bool{}
	if mid != graph.Any {
		it, err := er.v.Scan(ctx, graph.Pattern{P: mid, G: er.gid}, graph.ScanOptions{})
		if err != nil {
			return nil, 0, err
		}
		var ownMarks []graph.IDQuad
		for it.Next() {
			m := it.Quad()
			marked[m.S] = true
			if _, ok := ownIDs[m.S]; ok {
				ownMarks = append(ownMarks, m)
				continue
			}
			bySince[m.O] = append(bySince[m.O], m.S)
		}
		it.Close()
		if err := it.Err(); err != nil {
			return nil, 0, err
		}
		for _, m := range ownMarks {
			t, err := er.v.Term(m.O)
			if err != nil {
				return nil, 0, err
			}
			n, err := strconv.Atoi(t.Value)
			if err != nil {
				return nil, 0, fmt.Errorf("%s %s %q: %w", ownIDs[m.S], ontology.AwaitsTopicTerms, t.Value, err)
			}
			q = append(q, staleText{ownIDs[m.S], n})
		}
	}
	var moved []graph.ID // texts made outdated by this update, not marked before
	texts := func(p graph.Pattern) error {
		it, err := er.v.Scan(ctx, p, graph.ScanOptions{})
		if err != nil {
			return err
		}
		defer it.Close()
		for it.Next() {
			if d := it.Quad().S; !marked[d] {
				marked[d] = true
				if _, ok := ownIDs[d]; !ok {
					moved = append(moved, d)
				}
			}
		}
		return it.Err()
	}
	fell := false
	var rose []string
	for _, t := range sortedKeys(up.dfBefore) {
		switch now, was := coarse(up.tl.df[t]), coarse(up.dfBefore[t]); {
		case now < was:
			fell = true
		case now > was:
			rose = append(rose, t)
		}
	}
	switch {
	case hid == graph.Any:
	case step || fell:
		if err := texts(graph.Pattern{P: hid, G: er.gid}); err != nil {
			return nil, 0, err
		}
	case tid != graph.Any:
		for _, t := range rose {
			id, ok, err := er.lookup(rdf.String(t))
			if err != nil {
				return nil, 0, err
			}
			if !ok {
				continue
			}
			nodes, err := values(ctx, er.v, graph.Pattern{P: tid, O: id, G: er.gid}, false)
			if err != nil {
				return nil, 0, err
			}
			for _, n := range nodes {
				if err := texts(graph.Pattern{P: hid, O: n, G: er.gid}); err != nil {
					return nil, 0, err
				}
			}
		}
	}
	// The marks' values, oldest first; the texts of each in the order of
	// their IRIs, looked up while the budget lasts.
	sinceIDs := make([]graph.ID, 0, len(bySince))
	for o := range bySince {
		sinceIDs = append(sinceIDs, o)
	}
	sinceTerms, err := er.v.Terms(ctx, sinceIDs, nil)
	if err != nil {
		return nil, 0, err
	}
	type group struct {
		since int
		ds    []graph.ID
	}
	groups := make([]group, len(sinceIDs))
	for i, o := range sinceIDs {
		n, err := strconv.Atoi(sinceTerms[i].Value)
		if err != nil {
			return nil, 0, fmt.Errorf("%s %q: %w", ontology.AwaitsTopicTerms, sinceTerms[i].Value, err)
		}
		groups[i] = group{n, bySince[o]}
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].since < groups[j].since })
	groups = append(groups, group{-1, moved})
	left := 0
	for _, g := range groups {
		if budget == 0 && g.since >= 0 {
			left += len(g.ds)
			continue
		}
		ts, err := er.v.Terms(ctx, g.ds, nil)
		if err != nil {
			return nil, 0, err
		}
		names := make([]string, len(ts))
		for i, t := range ts {
			names[i] = t.Value
		}
		sort.Strings(names)
		for _, d := range names {
			q = append(q, staleText{d, g.since})
		}
		if budget > 0 {
			budget = max(budget-len(names), 0)
		}
	}
	return q, left, nil
}

// topics adds the topicTerms terms of highest TF-IDF of each text of
// only.
func (r *run) topics(ctx context.Context, b *writes, tl *tallies, up *update, only map[string]bool) error {
	add := func(sub rdf.Term, p string, o rdf.Term) { b.Add(rdf.Quad{S: sub, P: rdf.IRI(p), O: o, G: r.graph}) }
	n := tl.crawl.texts
	for _, d := range sortedKeys(only) {
		sh, err := up.share(ctx, d)
		if err != nil {
			return err
		}
		if sh == nil || len(sh.terms) == 0 {
			continue
		}
		type tw struct {
			t string
			w float64
		}
		var ws []tw
		for t, c := range sh.terms {
			df, err := tl.docFreq(ctx, t)
			if err != nil {
				return err
			}
			ws = append(ws, tw{t, float64(c) * idf(n, df)})
		}
		sort.Slice(ws, func(i, j int) bool {
			if ws[i].w != ws[j].w {
				return ws[i].w > ws[j].w
			}
			return ws[i].t < ws[j].t
		})
		for _, x := range ws[:min(topicTerms, len(ws))] {
			tt := node(r.id, "topic", d, x.t)
			add(rdf.IRI(d), ontology.HasTopicTerm, tt)
			add(tt, rdf.RDFType, rdf.IRI(ontology.TopicTerm))
			add(tt, ontology.Term, rdf.String(x.t))
			add(tt, ontology.Weight, decimal(x.w))
		}
	}
	return nil
}

// pmi is the pointwise mutual information of two things occurring in c
// of n texts, each in na and nb.
func pmi(n, c, na, nb int) float64 {
	return math.Log(float64(n) * float64(c) / (float64(max(na, 1)) * float64(max(nb, 1))))
}

// associations adds, for the entities of only, the entities and terms
// each occurs with most, weighted by the share of its texts they occur
// in. The weight is the entity's own (not, say, their pointwise mutual
// information, which the size of the crawl and the other's frequency
// enter): a text added to the crawl changes the associations of the
// entities it names and of no other.
func (r *run) associations(ctx context.Context, b *writes, tl *tallies, only map[string]bool) error {
	add := func(sub rdf.Term, p string, o rdf.Term) { b.Add(rdf.Quad{S: sub, P: rdf.IRI(p), O: o, G: r.graph}) }
	type assoc struct {
		other string
		c     int
	}
	best := func(m map[string]int, minCount int, skip func(string) bool) []assoc {
		var out []assoc
		for o, c := range m {
			if c < minCount || skip(o) {
				continue
			}
			out = append(out, assoc{o, c})
		}
		sort.Slice(out, func(i, j int) bool {
			if out[i].c != out[j].c {
				return out[i].c > out[j].c
			}
			return out[i].other < out[j].other
		})
		return out[:min(associations, len(out))]
	}
	for _, e := range sortedKeys(only) {
		es, err := tl.entity(ctx, e)
		if err != nil {
			return err
		}
		if es == nil {
			continue
		}
		co, err := tl.cooccurring(ctx, e)
		if err != nil {
			return err
		}
		na := float64(es.docs)
		own := nameWords(e)
		minCount := 1
		if es.docs > 2 {
			minCount = 2
		}
		for _, a := range best(co.ents, 1, func(string) bool { return false }) {
			x := node(r.id, "association", e, a.other)
			add(x, rdf.RDFType, rdf.IRI(ontology.Association))
			add(x, ontology.AssociationOf, rdf.IRI(e))
			add(x, ontology.AssociatedEntity, rdf.IRI(a.other))
			add(x, ontology.InCrawl, r.crawl)
			add(x, ontology.Cooccurrences, integer(a.c))
			add(x, ontology.Weight, decimal(float64(a.c)/na))
		}
		for _, a := range best(co.terms, minCount, func(t string) bool { return own[t] }) {
			x := node(r.id, "association", e, "term:"+a.other)
			add(x, rdf.RDFType, rdf.IRI(ontology.Association))
			add(x, ontology.AssociationOf, rdf.IRI(e))
			add(x, ontology.AssociatedTerm, rdf.String(a.other))
			add(x, ontology.InCrawl, r.crawl)
			add(x, ontology.Cooccurrences, integer(a.c))
			add(x, ontology.Weight, decimal(float64(a.c)/na))
		}
	}
	return nil
}

// nameWords are the words of an entity's key.
func nameWords(e string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(entityKey(e)) {
		m[w] = true
	}
	return m
}
