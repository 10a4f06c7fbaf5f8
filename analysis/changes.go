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

// changes adds the versions of the crawl's objects against the crawl
// analysed before it, and the candidate name changes against the crawls
// analysed before it (nameWindow of them), replacing those written
// before (collected in er). The versions are written anew for the
// objects of dirty only, unless the crawl compared against is another,
// or has more texts, than when they were last written (or full).
func (r *run) changes(ctx context.Context, v *graph.View, b *graph.Batch, er *eraser, s *stats, dirty map[string]bool, full bool, when time.Time) error {
	prevs, err := r.earlier(ctx, v, when, nameWindow)
	if err != nil {
		return err
	}
	var oldPrev string
	if ids, err := v.LookupTerms([]rdf.Term{r.graph, rdf.IRI(ontology.PreviousAnalysis)}); err != nil {
		return err
	} else if ids[0] != graph.Any && ids[1] != graph.Any {
		os, err := values(ctx, v, graph.Pattern{S: ids[0], P: ids[1], G: ids[0]}, true)
		if err != nil {
			return err
		}
		if len(os) > 0 {
			t, err := v.Term(os[0])
			if err != nil {
				return err
			}
			oldPrev = t.Value
		}
	}
	oldCount, err := er.number(ctx, ontology.PreviousTextCount)
	if err != nil {
		return err
	}
	for _, p := range []string{ontology.PreviousAnalysis, ontology.PreviousTextCount} {
		if err := er.predicate(ctx, r.graph, p); err != nil {
			return err
		}
	}
	if err := er.class(ctx, ontology.NameChange); err != nil {
		return err
	}
	if len(prevs) == 0 {
		if oldPrev != "" {
			s.status = nil
			s.setFresh()
			return er.class(ctx, ontology.ObjectVersion)
		}
		return nil
	}
	id, _ := CrawlID(prevs[0])
	r.rep.Previous = id
	var before []*stats
	for _, p := range prevs {
		pid, _ := CrawlID(p)
		ps, err := loadStats(ctx, v, GraphIRI(pid))
		if err != nil {
			return err
		}
		before = append(before, ps)
	}
	count := len(before[0].docs)
	b.Add(rdf.Quad{S: r.graph, P: rdf.IRI(ontology.PreviousAnalysis), O: rdf.IRI(GraphIRI(id)), G: r.graph})
	b.Add(rdf.Quad{S: r.graph, P: rdf.IRI(ontology.PreviousTextCount), O: integer(count), G: r.graph})
	if full || oldPrev != GraphIRI(id) || oldCount != count {
		if err := er.class(ctx, ontology.ObjectVersion); err != nil {
			return err
		}
		if err := r.versions(ctx, v, b, prevs[0], s); err != nil {
			return err
		}
	} else if err := r.versionsOf(ctx, v, b, er, prevs[0], s, dirty); err != nil {
		return err
	}
	s.prior = before[0].docEntities
	return r.nameChanges(ctx, v, b, before, prevs, s)
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
func (r *run) versions(ctx context.Context, v *graph.View, b *graph.Batch, prev string, s *stats) error {
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
	// The crawl's texts of its own time, recomputed with the versions
	// (those read from the graph are an earlier run's).
	s.status = map[string]string{}
	for _, o := range sortedKeys(all) {
		hb, inB := before[o]
		ha, inA := after[o]
		r.rep.Updated.Versions++
		if err := r.version(ctx, v, b, prev, s, o, hb, inB, ha, inA); err != nil {
			return err
		}
	}
	r.countVersions(s)
	return nil
}

// versionsOf writes anew the versions of the objects of dirty, the
// others left as they are, and updates s.
func (r *run) versionsOf(ctx context.Context, v *graph.View, b *graph.Batch, er *eraser, prev string, s *stats, dirty map[string]bool) error {
	if s.status == nil {
		s.status = map[string]string{}
	}
	for _, o := range sortedKeys(dirty) {
		if err := er.subject(ctx, node(r.id, "version", o)); err != nil {
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
		delete(s.status, o)
		if inA || inB {
			r.rep.Updated.Versions++
			if err := r.version(ctx, v, b, prev, s, o, hb, inB, ha, inA); err != nil {
				return err
			}
		}
	}
	r.countVersions(s)
	return nil
}

// countVersions sets the report's versions and the crawl's texts of its
// own time from s.status.
func (r *run) countVersions(s *stats) {
	r.rep.Versions = map[string]int{}
	for _, st := range s.status {
		r.rep.Versions[strings.TrimPrefix(st, ontology.MnemeNS+"Status")]++
	}
	s.setFresh()
}

// version adds the mneme:ObjectVersion of object o, whose text digests
// in the crawl before and this one are hb and ha (inB and inA: it has
// one there), and records its status in s.
func (r *run) version(ctx context.Context, v *graph.View, b *graph.Batch, prev string, s *stats, o string, hb uint64, inB bool, ha uint64, inA bool) error {
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
	s.status[o] = status
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
// before, prevs their IRIs) to this one c: an entity whose share of the
// crawl's new and changed texts (those of its time) fell by half or more, and one
// whose share rose as much (a burst), used with similar co-occurring
// terms and entities, the old name's context before and the new one's
// after. Each old and new name goes into one proposal at most, the best
// scored. The entities are left as they are.
func (r *run) nameChanges(ctx context.Context, v *graph.View, b *graph.Batch, before []*stats, prevs []string, c *stats) error {
	add := func(sub rdf.Term, pr string, o rdf.Term) { b.Add(rdf.Quad{S: sub, P: rdf.IRI(pr), O: o, G: r.graph}) }
	cands, err := nameCandidates(ctx, v, r.graph.Value, before, c)
	if err != nil {
		return err
	}
	usedOld, usedNew := map[string]bool{}, map[string]bool{}
	for _, k := range cands {
		p, prev := before[k.p], prevs[k.p]
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
		docs := (*stats).freshDocs
		oldName, newName := entityKey(k.old), entityKey(k.cur)
		add(x, ontology.Evidence, rdf.String(fmt.Sprintf("%q was named in %d of the %d new or changed texts of the earlier crawl and %d of %d of this one, %d of them reporting the change (share down %.0f %%)",
			oldName, docs(p, k.old), int(p.nFresh()), docs(c, k.old), int(c.nFresh()), k.linked, 100*k.decline)))
		add(x, ontology.Evidence, rdf.String(fmt.Sprintf("%q was named in %d of the %d new or changed texts of the earlier crawl and %d of %d of this one (burst %.0f %%)",
			newName, docs(p, k.cur), int(p.nFresh()), docs(c, k.cur), int(c.nFresh()), 100*k.burst)))
		add(x, ontology.Evidence, rdf.String(fmt.Sprintf("the contexts of %q before and of %q after are similar (cosine %.2f), sharing %s",
			oldName, newName, k.cs, strings.Join(k.shared, ", "))))
		if k.statement != "" {
			add(x, ontology.Evidence, rdf.String(fmt.Sprintf("%d texts of this crawl say so, as %q", k.linked, k.statement)))
		}
		if k.apart > 0 {
			add(x, ontology.Evidence, rdf.String(fmt.Sprintf("%d texts of this crawl name both as distinct entities", k.apart)))
		}
		if s, o, ok, err := r.together(ctx, v, c, k.old, k.cur); err != nil {
			return err
		} else if ok {
			add(x, ontology.Evidence, rdf.String(fmt.Sprintf("named together in %s: %q", o, s)))
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
// two were found as different kinds of thing or named as distinct
// entities in the same texts, more when a text says that one is the
// other's new name.
func nameScore(k *nameCand, p, c *stats) float64 {
	s := 0.5*k.cs + 0.25*k.decline + 0.25*k.burst
	if !sameClasses(p.types[k.old], c.types[k.cur]) {
		s -= 0.15
	}
	if k.apart > 0 {
		s -= apartPenalty * float64(k.apart) / float64(max(1, min(c.freshDocs(k.old), c.freshDocs(k.cur))))
	}
	if k.linked > 0 {
		s += linkedBonus
	}
	return s
}

// nameCandidates scores the pairs of an entity of an earlier crawl (one
// of before) and one whose share of the new texts burst in this crawl
// (analysis graph g, figures c), best first: those of similar contexts
// whose old name declined, once the texts reporting the change are left
// out (see cooccurrence). Those below minNameChange are kept, for the
// evaluation to see.
func nameCandidates(ctx context.Context, v *graph.View, g string, before []*stats, c *stats) ([]nameCand, error) {
	nc := c.nFresh()
	share := func(s *stats, e string, n float64) float64 { return float64(s.freshDocs(e)) / n }
	var cands []nameCand
	for pi, p := range before {
		np := p.nFresh()
		var olds, news []string
		for _, e := range sortedKeys(p.entities) {
			if p.freshDocs(e) >= minTexts {
				olds = append(olds, e)
			}
		}
		for _, e := range sortedKeys(c.entities) {
			sp, sc := share(p, e, np), share(c, e, nc)
			if c.freshDocs(e) >= minTexts && (sc-sp)/sc >= minBurst {
				news = append(news, e)
			}
		}
		for _, x := range olds {
			var vx map[string]float64
			for _, y := range news {
				if x == y || !compatible(p.types[x], c.types[y]) {
					continue
				}
				if vx == nil {
					vx = p.context(x)
				}
				ax, vy := maps.Clone(vx), c.context(y)
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
				sp, sc := share(p, y, np), share(c, y, nc)
				k := nameCand{old: x, cur: y, burst: (sc - sp) / sc, cs: cs, shared: shared, p: pi}
				if err := cooccurrence(ctx, v, g, c, p, &k); err != nil {
					return nil, err
				}
				if k.decline < minDecline {
					continue
				}
				k.score = nameScore(&k, p, c)
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

// cooccurrence finds the new or changed texts of this crawl (analysis
// graph g, figures c) that name both k.old and k.cur, and tells those
// saying in a sentence that one is the other's new name (k.linked) from
// those naming them as distinct entities (k.apart). The old name's
// decline is then its share of the texts naming it on its own: a text
// reporting the change still uses the old name, and is no sign of it
// living on.
func cooccurrence(ctx context.Context, v *graph.View, g string, c *stats, before *stats, k *nameCand) error {
	both := map[string]bool{}
	for d, es := range c.docEntities {
		if es[k.old] == 0 || es[k.cur] == 0 || c.fresh != nil && (!c.fresh[d] || c.changed[d] && c.prior[d][k.old] > 0) {
			continue
		}
		both[d] = true
	}
	linked := map[string]string{}
	if len(both) > 0 {
		if err := each(ctx, v, `SELECT ?o ?sent ?a ?b WHERE { GRAPH `+rdf.IRI(g).String()+` {
	  ?m mneme:mentionOf `+rdf.IRI(k.old).String()+` ; mneme:inObject ?o ; mneme:sentence ?sent ; mneme:surfaceForm ?a .
	  ?n mneme:mentionOf `+rdf.IRI(k.cur).String()+` ; mneme:inObject ?o ; mneme:sentence ?sent ; mneme:surfaceForm ?b } }`,
			func(row []rdf.Term) error {
				o, sent, a, b := row[0].Value, row[1].Value, row[2].Value, row[3].Value
				if !both[o] || linked[o] != "" {
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
					linked[o] = sent
				}
				return nil
			}); err != nil {
			return err
		}
	}
	for _, d := range sortedKeys(both) {
		if s, ok := linked[d]; ok {
			if k.linked++; k.statement == "" {
				k.statement = s
			}
		} else {
			k.apart++
		}
	}
	sp := float64(before.freshDocs(k.old)) / before.nFresh()
	sc := float64(c.freshDocs(k.old)-k.linked) / c.nFresh()
	k.decline = (sp - sc) / sp
	return nil
}

// together finds a text of this crawl naming both entities, and a
// sentence of it naming the second.
func (r *run) together(ctx context.Context, v *graph.View, c *stats, a, b string) (sentence, object string, ok bool, err error) {
	for _, d := range sortedKeys(c.docEntities) {
		if c.docEntities[d][a] > 0 && c.docEntities[d][b] > 0 {
			object = d
			break
		}
	}
	if object == "" {
		return "", "", false, nil
	}
	err = each(ctx, v, `SELECT ?s WHERE { GRAPH `+r.graph.String()+` { ?m mneme:mentionOf `+rdf.IRI(b).String()+` ; mneme:inObject `+rdf.IRI(object).String()+` ; mneme:sentence ?s } } ORDER BY ?s LIMIT 1`,
		func(row []rdf.Term) error {
			sentence, ok = row[0].Value, true
			return nil
		})
	return sentence, object, ok, err
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
func (s *stats) context(e string) map[string]float64 {
	ents, terms := s.cooccurring(e)
	n, ne := len(s.docs), len(s.entities[e].docs)
	out := map[string]float64{}
	for t, k := range terms {
		if w := pmi(n, k, ne, s.df[t]); w > 0 {
			out[t] = float64(k) * w
		}
	}
	for f, k := range ents {
		if w := pmi(n, k, ne, len(s.entities[f].docs)); w > 0 {
			out["@"+f] = float64(k) * w
		}
	}
	return out
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
