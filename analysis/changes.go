package analysis

import (
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// earlier returns the crawls analysed before this one, latest first: of
// the crawls with an analysis graph, those that started before this crawl
// did, at most window of them.
func (r *run) earlier(ctx context.Context, v *graph.View, when time.Time, window int) ([]string, error) {
	if when.IsZero() {
		return nil, nil
	}
	type crawl struct {
		iri string
		t   time.Time
	}
	var cs []crawl
	err := each(ctx, v, `SELECT DISTINCT ?c ?t WHERE { GRAPH ?a { ?a a mneme:Analysis ; mneme:analysedCrawl ?c } GRAPH ?c { ?c prov:startedAtTime ?t } }`,
		func(row []rdf.Term) error {
			t, err := time.Parse(time.RFC3339Nano, row[1].Value)
			if err == nil && row[0].Value != r.crawl.Value && t.Before(when) {
				cs = append(cs, crawl{row[0].Value, t})
			}
			return nil
		})
	sort.Slice(cs, func(i, j int) bool {
		if !cs[i].t.Equal(cs[j].t) {
			return cs[i].t.After(cs[j].t)
		}
		return cs[i].iri > cs[j].iri
	})
	var out []string
	for _, c := range cs[:min(window, len(cs))] {
		out = append(out, c.iri)
	}
	return out, err
}

// nameWindow is how many earlier crawls a crawl's names are compared
// with: a new name takes over gradually when a site's older pages keep
// the old one, so the change shows against the crawls before it began.
const nameWindow = 3

// versionState is what versionsStage found and wrote.
type versionState struct {
	prevs     []string // the crawls analysed before, latest first (see earlier)
	prevGraph rdf.Term // the analysis graph of prevs[0]; zero when none
	// versioned: the crawl is compared with prevs[0]; all: every version
	// was written anew.
	versioned, all bool
	// status is the version status of the objects whose versions were
	// written anew, and old their status before (when not all).
	status, old map[string]string
}

// versionsStage adds the versions of the crawl's objects against the
// crawl analysed before it, replacing those written before (collected
// in er). The versions are written anew for the objects of dirty only,
// unless the crawl compared against is another, or has more texts, than
// when they were last written (or full).
func (r *run) versionsStage(ctx context.Context, v *graph.View, b *graph.Batch, er *eraser, dirty map[string]bool, full bool, when time.Time) (*versionState, error) {
	prevs, err := r.earlier(ctx, v, when, nameWindow)
	if err != nil {
		return nil, err
	}
	vs := &versionState{prevs: prevs, status: map[string]string{}, old: map[string]string{}}
	var oldPrev string
	if ids, err := v.LookupTerms([]rdf.Term{r.graph, rdf.IRI(ontology.PreviousAnalysis)}); err != nil {
		return nil, err
	} else if ids[0] != graph.Any && ids[1] != graph.Any {
		os, err := values(ctx, v, graph.Pattern{S: ids[0], P: ids[1], G: ids[0]}, true)
		if err != nil {
			return nil, err
		}
		if len(os) > 0 {
			t, err := v.Term(os[0])
			if err != nil {
				return nil, err
			}
			oldPrev = t.Value
		}
	}
	oldCount, err := er.number(ctx, ontology.PreviousTextCount)
	if err != nil {
		return nil, err
	}
	for _, p := range []string{ontology.PreviousAnalysis, ontology.PreviousTextCount} {
		if err := er.predicate(ctx, r.graph, p); err != nil {
			return nil, err
		}
	}
	if len(prevs) == 0 {
		if oldPrev != "" {
			vs.all = true
			return vs, er.class(ctx, ontology.ObjectVersion)
		}
		return vs, nil
	}
	id, _ := CrawlID(prevs[0])
	r.rep.Previous = id
	vs.versioned, vs.prevGraph = true, rdf.IRI(GraphIRI(id))
	pt, err := openTallies(ctx, v, id)
	if err != nil {
		return nil, err
	}
	if !pt.present {
		return nil, fmt.Errorf("the analysis of crawl %s, the crawl before, has no running totals (it was analysed by an earlier version of mneme): run mneme analyze --crawl %s first", id, id)
	}
	count := pt.crawl.texts
	b.Add(rdf.Quad{S: r.graph, P: rdf.IRI(ontology.PreviousAnalysis), O: vs.prevGraph, G: r.graph})
	b.Add(rdf.Quad{S: r.graph, P: rdf.IRI(ontology.PreviousTextCount), O: integer(count), G: r.graph})
	if full || oldPrev != GraphIRI(id) || oldCount != count {
		vs.all = true
		if err := er.class(ctx, ontology.ObjectVersion); err != nil {
			return nil, err
		}
		return vs, r.versions(ctx, v, b, prevs[0], vs)
	}
	return vs, r.versionsOf(ctx, v, b, er, prevs[0], vs, dirty)
}

// contents returns a digest of the text of every object of crawl graph c
// (of all its texts, when captures disagree).
func contents(ctx context.Context, v *graph.View, c string) (map[string]uint64, error) {
	out := map[string]uint64{}
	err := each(ctx, v, `SELECT ?o ?c WHERE { GRAPH `+rdf.IRI(c).String()+` { ?o sioc:content ?c } }`, func(row []rdf.Term) error {
		h := fnv.New64a()
		h.Write([]byte(row[1].Value))
		out[row[0].Value] ^= h.Sum64() | 1
		return nil
	})
	return out, err
}

// digest returns the digest of the texts of object o in crawl graph c
// as contents does, and whether it has any.
func digest(ctx context.Context, v *graph.View, c, o string) (uint64, bool, error) {
	ids, err := v.LookupTerms([]rdf.Term{rdf.IRI(c), rdf.IRI(o), rdf.IRI(ontology.SIOCContent)})
	if err != nil || ids[0] == graph.Any || ids[1] == graph.Any || ids[2] == graph.Any {
		return 0, false, err
	}
	cs, err := values(ctx, v, graph.Pattern{S: ids[1], P: ids[2], G: ids[0]}, true)
	if err != nil || len(cs) == 0 {
		return 0, false, err
	}
	ts, err := v.Terms(ctx, cs, nil)
	if err != nil {
		return 0, false, err
	}
	var d uint64
	for _, t := range ts {
		h := fnv.New64a()
		h.Write([]byte(t.Value))
		d ^= h.Sum64() | 1
	}
	return d, true, nil
}

// content returns the text of object o in crawl graph c (the least of
// its texts, when captures disagree).
func content(ctx context.Context, v *graph.View, c, o string) (string, error) {
	var out string
	first := true
	err := each(ctx, v, `SELECT ?c WHERE { GRAPH `+rdf.IRI(c).String()+` { `+rdf.IRI(o).String()+` sioc:content ?c } }`, func(row []rdf.Term) error {
		if first || row[0].Value < out {
			out, first = row[0].Value, false
		}
		return nil
	})
	return out, err
}

// versions adds an mneme:ObjectVersion for every object of this crawl
// or the previous one: new, changed (with a summary of the words removed
// and added), unchanged or deleted.
func (r *run) versions(ctx context.Context, v *graph.View, b *graph.Batch, prev string, vs *versionState) error {
	before, err := contents(ctx, v, prev)
	if err != nil {
		return err
	}
	after, err := contents(ctx, v, r.crawl.Value)
	if err != nil {
		return err
	}
	all := map[string]bool{}
	for o := range before {
		all[o] = true
	}
	for o := range after {
		all[o] = true
	}
	for _, o := range sortedKeys(all) {
		hb, inB := before[o]
		ha, inA := after[o]
		r.rep.Updated.Versions++
		if err := r.version(ctx, v, b, prev, vs, o, hb, inB, ha, inA); err != nil {
			return err
		}
	}
	return nil
}

// versionsOf writes anew the versions of the objects of dirty, the
// others left as they are, recording their status before and now in vs.
func (r *run) versionsOf(ctx context.Context, v *graph.View, b *graph.Batch, er *eraser, prev string, vs *versionState, dirty map[string]bool) error {
	pid, ok, err := er.lookup(rdf.IRI(ontology.VersionStatus))
	if err != nil {
		return err
	}
	for _, o := range sortedKeys(dirty) {
		x := node(r.id, "version", o)
		if xid, found, err := er.lookup(x); err != nil {
			return err
		} else if found && ok {
			sts, err := values(ctx, v, graph.Pattern{S: xid, P: pid, G: er.gid}, true)
			if err != nil {
				return err
			}
			if len(sts) > 0 {
				t, err := v.Term(sts[0])
				if err != nil {
					return err
				}
				vs.old[o] = t.Value
			}
		}
		if err := er.subject(ctx, x); err != nil {
			return err
		}
		hb, inB, err := digest(ctx, v, prev, o)
		if err != nil {
			return err
		}
		ha, inA, err := digest(ctx, v, r.crawl.Value, o)
		if err != nil {
			return err
		}
		if inA || inB {
			r.rep.Updated.Versions++
			if err := r.version(ctx, v, b, prev, vs, o, hb, inB, ha, inA); err != nil {
				return err
			}
		}
	}
	return nil
}

// version adds the mneme:ObjectVersion of object o, whose text digests
// in the crawl before and this one are hb and ha (inB and inA: it has
// one there), and records its status in vs.
func (r *run) version(ctx context.Context, v *graph.View, b *graph.Batch, prev string, vs *versionState, o string, hb uint64, inB bool, ha uint64, inA bool) error {
	add := func(sub rdf.Term, p string, o rdf.Term) { b.Add(rdf.Quad{S: sub, P: rdf.IRI(p), O: o, G: r.graph}) }
	status := ontology.StatusUnchanged
	switch {
	case !inB:
		status = ontology.StatusNew
	case !inA:
		status = ontology.StatusDeleted
	case ha != hb:
		status = ontology.StatusChanged
	}
	vs.status[o] = status
	x := node(r.id, "version", o)
	add(x, rdf.RDFType, rdf.IRI(ontology.ObjectVersion))
	add(x, ontology.VersionOf, rdf.IRI(o))
	add(x, ontology.InCrawl, r.crawl)
	add(x, ontology.PreviousCrawl, rdf.IRI(prev))
	add(x, ontology.VersionStatus, rdf.IRI(status))
	if status != ontology.StatusChanged {
		return nil
	}
	old, err := content(ctx, v, prev, o)
	if err != nil {
		return err
	}
	cur, err := content(ctx, v, r.crawl.Value, o)
	if err != nil {
		return err
	}
	d := diffWords(old, cur)
	add(x, ontology.WordsRemoved, integer(d.removed))
	add(x, ontology.WordsAdded, integer(d.added))
	add(x, ontology.DiffSummary, rdf.String(d.summary))
	return nil
}

// wordDiff is how a text's words changed.
type wordDiff struct {
	removed, added int
	summary        string
}

// maxDiffWords bounds the texts diffed word by word; longer ones are
// compared as bags of words.
const maxDiffWords = 50000

// diffWords compares two texts word by word (Myers' diff, by
// diffmatchpatch) and summarises the change: counts and the first few
// replacements, deletions and insertions.
func diffWords(old, cur string) wordDiff {
	a, b := strings.Fields(old), strings.Fields(cur)
	var d wordDiff
	if len(a) > maxDiffWords || len(b) > maxDiffWords {
		count := map[string]int{}
		for _, w := range a {
			count[w]++
		}
		for _, w := range b {
			count[w]--
		}
		for _, n := range count {
			if n > 0 {
				d.removed += n
			} else {
				d.added -= n
			}
		}
		d.summary = fmt.Sprintf("%d words removed, %d added (long texts: compared as bags of words)", d.removed, d.added)
		return d
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // the same answer on every run
	ra, rb, lines := dmp.DiffLinesToRunes(strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n")
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), lines)
	words := func(s string) []string { return strings.Fields(s) }
	var examples []string
	for i := 0; i < len(diffs); i++ {
		df := diffs[i]
		switch df.Type {
		case diffmatchpatch.DiffDelete:
			del := words(df.Text)
			d.removed += len(del)
			if i+1 < len(diffs) && diffs[i+1].Type == diffmatchpatch.DiffInsert {
				ins := words(diffs[i+1].Text)
				d.added += len(ins)
				examples = append(examples, fmt.Sprintf("%q → %q", clip(del), clip(ins)))
				i++
			} else {
				examples = append(examples, fmt.Sprintf("removed %q", clip(del)))
			}
		case diffmatchpatch.DiffInsert:
			ins := words(df.Text)
			d.added += len(ins)
			examples = append(examples, fmt.Sprintf("added %q", clip(ins)))
		}
	}
	d.summary = fmt.Sprintf("%d words removed, %d added", d.removed, d.added)
	if len(examples) > 0 {
		more := ""
		if len(examples) > 3 {
			more = fmt.Sprintf("; and %d more changes", len(examples)-3)
			examples = examples[:3]
		}
		d.summary += ": " + strings.Join(examples, "; ") + more
	}
	return d
}

// clip joins at most 12 words of ws.
func clip(ws []string) string {
	if len(ws) > 12 {
		return strings.Join(ws[:12], " ") + " …"
	}
	return strings.Join(ws, " ")
}

// NEER's thresholds (Tahmasebi et al., "NEER: An unsupervised method for
// named entity evolution recognition", COLING 2012), set from the method's
// reasoning rather than fitted: a new name is one (nearly) unused before
// — its share of the new texts at least ten times what it was — and it
// replaces the old one, whose share of the new texts falls by more than
// half, the two used in contexts of clearly similar, specific terms.
const (
	minTexts      = 3    // texts a name needs in the crawl where it is strong
	minDecline    = 0.6  // least decline of the old name's share
	minBurst      = 0.9  // least burst of the new name's share
	minContext    = 0.35 // least cosine similarity of their contexts
	minNameChange = 0.80 // least score proposed (see below)
)

// nameChanges proposes name changes from an earlier crawl p (each of
// the crawls of vs.prevs) to this one c (its totals tl): an entity whose
// share of the crawl's new and changed texts (those of its time) fell by
// half or more, and one whose share rose as much (a burst), used with
// similar co-occurring terms and entities, the old name's context before
// and the new one's after. Each old and new name goes into one proposal
// at most, the best scored. The entities are left as they are. The
// proposals written before (collected in er) are replaced.
func (r *run) nameChanges(ctx context.Context, v *graph.View, b *graph.Batch, er *eraser, vs *versionState, c *tallies) error {
	if err := er.class(ctx, ontology.NameChange); err != nil {
		return err
	}
	var before []*tallies
	for _, p := range vs.prevs {
		pid, _ := CrawlID(p)
		pt, err := openTallies(ctx, v, pid)
		if err != nil {
			return err
		}
		if !pt.present {
			return fmt.Errorf("the analysis of crawl %s, a crawl before, has no running totals (it was analysed by an earlier version of mneme): run mneme analyze --crawl %s first", pid, pid)
		}
		before = append(before, pt)
	}
	add := func(sub rdf.Term, pr string, o rdf.Term) { b.Add(rdf.Quad{S: sub, P: rdf.IRI(pr), O: o, G: r.graph}) }
	cands, err := nameCandidates(ctx, v, before, c)
	if err != nil {
		return err
	}
	usedOld, usedNew := map[string]bool{}, map[string]bool{}
	for _, k := range cands {
		p, prev := before[k.p], vs.prevs[k.p]
		if k.score < minNameChange {
			continue
		}
		if usedOld[k.old] || usedNew[k.cur] {
			continue
		}
		usedOld[k.old], usedNew[k.cur] = true, true
		r.rep.NameChanges++
		x := node(r.id, "namechange", k.old, k.cur)
		add(x, rdf.RDFType, rdf.IRI(ontology.NameChange))
		add(x, ontology.FormerName, rdf.IRI(k.old))
		add(x, ontology.LaterName, rdf.IRI(k.cur))
		add(x, ontology.InCrawl, r.crawl)
		add(x, ontology.PreviousCrawl, rdf.IRI(prev))
		add(x, ontology.Score, decimal(k.score))
		add(x, ontology.ContextSimilarity, decimal(k.cs))
		add(x, ontology.Burst, decimal(k.burst))
		var n [4]int
		for i, f := range []struct {
			t *tallies
			e string
		}{{p, k.old}, {c, k.old}, {p, k.cur}, {c, k.cur}} {
			if n[i], err = f.t.freshDocs(ctx, f.e); err != nil {
				return err
			}
		}
		oldName, newName := entityKey(k.old), entityKey(k.cur)
		add(x, ontology.Evidence, rdf.String(fmt.Sprintf("%q was named in %d of the %d new or changed texts of the earlier crawl and %d of %d of this one, %d of them reporting the change (share down %.0f %%)",
			oldName, n[0], int(p.nFresh()), n[1], int(c.nFresh()), k.linked, 100*k.decline)))
		add(x, ontology.Evidence, rdf.String(fmt.Sprintf("%q was named in %d of the %d new or changed texts of the earlier crawl and %d of %d of this one (burst %.0f %%)",
			newName, n[2], int(p.nFresh()), n[3], int(c.nFresh()), 100*k.burst)))
		add(x, ontology.Evidence, rdf.String(fmt.Sprintf("the contexts of %q before and of %q after are similar (cosine %.2f), sharing %s",
			oldName, newName, k.cs, strings.Join(k.shared, ", "))))
		if k.statement != "" {
			add(x, ontology.Evidence, rdf.String(fmt.Sprintf("%d texts of this crawl say so, as %q", k.linked, k.statement)))
		}
		if k.apart > 0 {
			add(x, ontology.Evidence, rdf.String(fmt.Sprintf("%d texts of this crawl name both as distinct entities", k.apart)))
		}
		if s, ok, err := r.together(ctx, v, k.first, k.cur); err != nil {
			return err
		} else if ok {
			add(x, ontology.Evidence, rdf.String(fmt.Sprintf("named together in %s: %q", k.first, s)))
		}
	}
	return nil
}

// nameCand is a candidate name change: old, an entity of the earlier
// crawl before[p], and cur, one of this crawl, with the evidence scored.
type nameCand struct {
	old, cur           string
	decline, burst, cs float64
	score              float64
	shared             []string
	p                  int
	// linked are the new or changed texts of this crawl that name both
	// in one sentence saying the one is the other's new name, with one
	// such sentence; apart those naming both as distinct entities.
	linked, apart int
	statement     string
	first         string // the first text of this crawl naming both
}

// Weights of the evidence of a name change beyond NEER's three: two
// names found as distinct entities in the same texts are two entities
// (the penalty is scaled by the share of the texts of the rarer name
// naming both), and a sentence saying "Y, formerly X" is the site's own
// word. minNameChange was chosen on the generated corpora of seeds 1, 2,
// 103 and 104: between the best-scored distractor (0.78) and the
// least-scored planted change (0.85).
const (
	apartPenalty = 0.5
	linkedBonus  = 0.1
)

// nameScore scores a candidate name change: NEER's evidence (context
// similarity, the old name's decline, the new one's burst), less when the
// two were found as different kinds of thing (same false) or named as
// distinct entities in the same texts (of rarer, the texts of its time
// naming the rarer of the two), more when a text says that one is the
// other's new name.
func nameScore(k *nameCand, same bool, rarer int) float64 {
	s := 0.5*k.cs + 0.25*k.decline + 0.25*k.burst
	if !same {
		s -= 0.15
	}
	if k.apart > 0 {
		s -= apartPenalty * float64(k.apart) / float64(max(1, rarer))
	}
	if k.linked > 0 {
		s += linkedBonus
	}
	return s
}

// nameCandidates scores the pairs of an entity of an earlier crawl (one
// of before) and one whose share of the new texts burst in this crawl
// (totals c), best first: those of similar contexts whose old name
// declined, once the texts reporting the change are left out (see
// cooccurrence). Those below minNameChange are kept, for the evaluation
// to see.
func nameCandidates(ctx context.Context, v *graph.View, before []*tallies, c *tallies) ([]nameCand, error) {
	nc := c.nFresh()
	cnames, err := c.entities(ctx)
	if err != nil {
		return nil, err
	}
	var cands []nameCand
	for pi, p := range before {
		np := p.nFresh()
		pnames, err := p.entities(ctx)
		if err != nil {
			return nil, err
		}
		fresh := func(t *tallies, e string) int {
			if x := t.ents[e]; x != nil { // both are listed
				return x.fresh
			}
			return 0
		}
		var olds, news []string
		for _, e := range pnames {
			if fresh(p, e) >= minTexts {
				olds = append(olds, e)
			}
		}
		for _, e := range cnames {
			sp, sc := float64(fresh(p, e))/np, float64(fresh(c, e))/nc
			if fresh(c, e) >= minTexts && (sc-sp)/sc >= minBurst {
				news = append(news, e)
			}
		}
		for _, x := range olds {
			var vx map[string]float64
			tx, err := p.classes(ctx, x)
			if err != nil {
				return nil, err
			}
			for _, y := range news {
				ty, err := c.classes(ctx, y)
				if err != nil {
					return nil, err
				}
				if x == y || !compatible(tx, ty) {
					continue
				}
				if vx == nil {
					if vx, err = p.context(ctx, x); err != nil {
						return nil, err
					}
				}
				vy, err := c.context(ctx, y)
				if err != nil {
					return nil, err
				}
				ax := maps.Clone(vx)
				for _, e := range []string{x, y} {
					for w := range nameWords(e) {
						delete(ax, w)
						delete(vy, w)
					}
				}
				delete(ax, "@"+y)
				delete(vy, "@"+x)
				cs, shared := cosine(ax, vy)
				if cs < minContext {
					continue
				}
				sp, sc := float64(fresh(p, y))/np, float64(fresh(c, y))/nc
				k := nameCand{old: x, cur: y, burst: (sc - sp) / sc, cs: cs, shared: shared, p: pi}
				if err := cooccurrence(ctx, v, c, p, &k); err != nil {
					return nil, err
				}
				if k.decline < minDecline {
					continue
				}
				k.score = nameScore(&k, sameClasses(tx, ty), min(fresh(c, x), fresh(c, y)))
				cands = append(cands, k)
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].old+cands[i].cur < cands[j].old+cands[j].cur
	})
	return cands, nil
}

// renameCues are the words that, between two names in a sentence, say
// that one is the other's new name ("Y, formerly X", "X, now called Y").
var renameCues = []string{"formerly", "previously", "renamed", "rebranded", "née", "nee", "now called",
	"now known as", "known as", "once called", "then called", "name change", "new name", "old name"}

// linkedBy reports whether the words between two names in a sentence say
// that one is the other's new name.
func linkedBy(between string) bool {
	ws := " " + strings.Join(strings.FieldsFunc(strings.ToLower(between), func(r rune) bool {
		return !unicode.IsLetter(r)
	}), " ") + " "
	for _, c := range renameCues {
		if strings.Contains(ws, " "+c+" ") {
			return true
		}
	}
	return false
}

// cooccurrence finds the texts of this crawl (totals c) that name both
// k.old and k.cur (the first of them in k.first), and among those of its
// own time for k.old tells those saying in a sentence that one is the
// other's new name (k.linked) from those naming them as distinct
// entities (k.apart). The old name's decline is then its share of the
// texts naming it on its own: a text reporting the change still uses the
// old name, and is no sign of it living on. The texts are found through
// the entities' schema:mentions, so the cost is that of the two names'
// texts, not of the crawl's.
func cooccurrence(ctx context.Context, v *graph.View, c, before *tallies, k *nameCand) error {
	ids, err := v.LookupTerms([]rdf.Term{rdf.IRI(ontology.SchemaMentions), rdf.IRI(k.old), rdf.IRI(k.cur)})
	if err != nil {
		return err
	}
	var both []string
	if ids[0] != graph.Any && ids[1] != graph.Any && ids[2] != graph.Any && c.gid != graph.Any {
		a, err := values(ctx, v, graph.Pattern{P: ids[0], O: ids[1], G: c.gid}, false)
		if err != nil {
			return err
		}
		bs, err := values(ctx, v, graph.Pattern{P: ids[0], O: ids[2], G: c.gid}, false)
		if err != nil {
			return err
		}
		in := map[graph.ID]bool{}
		for _, d := range a {
			in[d] = true
		}
		var common []graph.ID
		for _, d := range bs {
			if in[d] {
				common = append(common, d)
				in[d] = false
			}
		}
		ts, err := v.Terms(ctx, common, nil)
		if err != nil {
			return err
		}
		for _, t := range ts {
			both = append(both, t.Value)
		}
		sort.Strings(both)
	}
	if len(both) > 0 {
		k.first = both[0]
	}
	up := &update{tl: c}
	for _, d := range both {
		sh, err := up.share(ctx, d)
		if err != nil {
			return err
		}
		if sh == nil || sh.ents[k.old] == nil || sh.ents[k.old].fresh == 0 {
			continue // not of the crawl's time for the old name
		}
		linked := ""
		err = each(ctx, v, `SELECT ?sent ?a ?b WHERE { GRAPH `+c.g.String()+` {
	  ?m mneme:inObject `+rdf.IRI(d).String()+` ; mneme:mentionOf `+rdf.IRI(k.old).String()+` ; mneme:sentence ?sent ; mneme:surfaceForm ?a .
	  ?n mneme:inObject `+rdf.IRI(d).String()+` ; mneme:mentionOf `+rdf.IRI(k.cur).String()+` ; mneme:sentence ?sent ; mneme:surfaceForm ?b } } ORDER BY ?sent ?a ?b`,
			func(row []rdf.Term) error {
				sent, a, b := row[0].Value, row[1].Value, row[2].Value
				if linked != "" {
					return nil
				}
				i, j := strings.Index(sent, a), strings.Index(sent, b)
				if i < 0 || j < 0 {
					return nil
				}
				var between string
				if i < j {
					between = sent[min(i+len(a), j):j]
				} else {
					between = sent[min(j+len(b), i):i]
				}
				if linkedBy(between) {
					linked = sent
				}
				return nil
			})
		if err != nil {
			return err
		}
		if linked != "" {
			if k.linked++; k.statement == "" {
				k.statement = linked
			}
		} else {
			k.apart++
		}
	}
	fp, err := before.freshDocs(ctx, k.old)
	if err != nil {
		return err
	}
	fc, err := c.freshDocs(ctx, k.old)
	if err != nil {
		return err
	}
	sp := float64(fp) / before.nFresh()
	sc := float64(fc-k.linked) / c.nFresh()
	k.decline = (sp - sc) / sp
	return nil
}

// together returns a sentence of text object naming entity e.
func (r *run) together(ctx context.Context, v *graph.View, object, e string) (sentence string, ok bool, err error) {
	if object == "" {
		return "", false, nil
	}
	err = each(ctx, v, `SELECT ?s WHERE { GRAPH `+r.graph.String()+` { ?m mneme:mentionOf `+rdf.IRI(e).String()+` ; mneme:inObject `+rdf.IRI(object).String()+` ; mneme:sentence ?s } } ORDER BY ?s LIMIT 1`,
		func(row []rdf.Term) error {
			sentence, ok = row[0].Value, true
			return nil
		})
	return sentence, ok, err
}

// compatible reports whether two entities' classes allow one to be the
// other's new name: not when the specific classes they were found with
// (person, organisation, place) are disjoint.
func compatible(a, b map[string]bool) bool {
	var sa, sb bool
	for _, c := range []string{ontology.SchemaPerson, ontology.SchemaOrganization, ontology.SchemaPlace} {
		if a[c] && b[c] {
			return true
		}
		sa, sb = sa || a[c], sb || b[c]
	}
	return !sa || !sb
}

// sameClasses reports whether two entities were found as the same
// specific classes (person, organisation, place).
func sameClasses(a, b map[string]bool) bool {
	for _, c := range []string{ontology.SchemaPerson, ontology.SchemaOrganization, ontology.SchemaPlace} {
		if a[c] != b[c] {
			return false
		}
	}
	return true
}

// context is the context vector of entity e in a crawl: the terms of its
// texts and the other entities named with it ("@" + IRI), each weighted by
// the number of its texts they occur in times their pointwise mutual
// information with it, when positive: the words every text uses say
// nothing of an entity.
func (t *tallies) context(ctx context.Context, e string) (map[string]float64, error) {
	co, err := t.cooccurring(ctx, e)
	if err != nil {
		return nil, err
	}
	n := t.crawl.texts
	ne, err := t.docs(ctx, e)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for w, k := range co.terms {
		df, err := t.docFreq(ctx, w)
		if err != nil {
			return nil, err
		}
		if x := pmi(n, k, ne, df); x > 0 {
			out[w] = float64(k) * x
		}
	}
	for f, k := range co.ents {
		nf, err := t.docs(ctx, f)
		if err != nil {
			return nil, err
		}
		if x := pmi(n, k, ne, nf); x > 0 {
			out["@"+f] = float64(k) * x
		}
	}
	return out, nil
}

// cosine is the cosine similarity of two vectors, with the features that
// contribute most to it.
func cosine(a, b map[string]float64) (float64, []string) {
	var dot, na, nb float64
	type part struct {
		f string
		w float64
	}
	var parts []part
	for f, x := range a {
		na += x * x
		if y, ok := b[f]; ok {
			dot += x * y
			parts = append(parts, part{f, x * y})
		}
	}
	for _, y := range b {
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0, nil
	}
	sort.Slice(parts, func(i, j int) bool {
		if parts[i].w != parts[j].w {
			return parts[i].w > parts[j].w
		}
		return parts[i].f < parts[j].f
	})
	var top []string
	for _, p := range parts[:min(8, len(parts))] {
		f := p.f
		if e, ok := strings.CutPrefix(f, "@"); ok {
			f = entityKey(e)
		}
		top = append(top, f)
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb)), top
}
