package analysis

import (
	"context"
	"math"
	"sort"
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

// derivedClasses are the classes of the nodes finish recomputes, and
// derivedPredicates the statements about objects it recomputes: a run
// deletes the earlier ones in the batch that adds the new.
var (
	derivedClasses    = []string{ontology.EntityMeasures, ontology.TopicTerm, ontology.Association, ontology.ObjectVersion, ontology.NameChange}
	derivedPredicates = []string{ontology.HasTopicTerm, ontology.PreviousAnalysis}
)

// finish recomputes the crawl-wide figures of the analysis graph from its
// mentions and terms, and the changes against the crawl analysed before,
// in one atomic commit.
func (r *run) finish(ctx context.Context) error {
	v := r.o.Store.Snapshot()
	defer v.Close()
	b := r.o.Store.NewBatch()
	if err := clearDerived(ctx, v, b, r.graph); err != nil {
		return err
	}
	t0 := time.Now()
	r.rep.Stage = "measures"
	r.progress()
	s, err := loadStats(ctx, v, r.graph.Value)
	if err != nil {
		return err
	}
	when, err := crawlStart(ctx, v, r.crawl.Value)
	if err != nil {
		return err
	}
	r.measures(b, s, when)
	r.rep.Stages = append(r.rep.Stages, StageTime{"measures", time.Since(t0)})
	t0 = time.Now()
	r.rep.Stage = "topics"
	r.progress()
	r.topics(b, s)
	r.associations(b, s)
	r.rep.Stages = append(r.rep.Stages, StageTime{"topics and associations", time.Since(t0)})
	t0 = time.Now()
	r.rep.Stage = "changes"
	r.progress()
	if err := r.changes(ctx, v, b, s, when); err != nil {
		return err
	}
	r.rep.Stages = append(r.rep.Stages, StageTime{"changes", time.Since(t0)})
	_, err = b.Commit(ctx)
	return err
}

// clearDerived deletes, in b, the nodes of the derived classes in graph g
// and the derived statements.
func clearDerived(ctx context.Context, v *graph.View, b *graph.Batch, g rdf.Term) error {
	gid, ok, err := v.Lookup(g)
	if err != nil || !ok {
		return err
	}
	var quads []graph.IDQuad
	collect := func(p graph.Pattern) error {
		it, err := v.Scan(ctx, p, graph.ScanOptions{})
		if err != nil {
			return err
		}
		defer it.Close()
		for it.Next() {
			quads = append(quads, it.Quad())
		}
		return it.Err()
	}
	typ, ok, err := v.Lookup(rdf.IRI(rdf.RDFType))
	if err != nil || !ok {
		return err
	}
	for _, c := range derivedClasses {
		cid, ok, err := v.Lookup(rdf.IRI(c))
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		subjects, err := values(ctx, v, graph.Pattern{P: typ, O: cid, G: gid}, false)
		if err != nil {
			return err
		}
		for _, s := range subjects {
			if err := collect(graph.Pattern{S: s, G: gid}); err != nil {
				return err
			}
		}
	}
	for _, p := range derivedPredicates {
		pid, ok, err := v.Lookup(rdf.IRI(p))
		if err != nil {
			return err
		}
		if ok {
			if err := collect(graph.Pattern{P: pid, G: gid}); err != nil {
				return err
			}
		}
	}
	ids := make([]graph.ID, 0, 3*len(quads))
	for _, q := range quads {
		ids = append(ids, q.S, q.P, q.O)
	}
	terms, err := v.Terms(ctx, ids, nil)
	if err != nil {
		return err
	}
	for i := range quads {
		b.Delete(rdf.Quad{S: terms[3*i], P: terms[3*i+1], O: terms[3*i+2], G: g})
	}
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

// measures adds the measures of every entity of the crawl.
func (r *run) measures(b *graph.Batch, s *stats, when time.Time) {
	add := func(sub rdf.Term, p string, o rdf.Term) { b.Add(rdf.Quad{S: sub, P: rdf.IRI(p), O: o, G: r.graph}) }
	r.rep.Entities = len(s.entities)
	for _, e := range sortedKeys(s.entities) {
		es := s.entities[e]
		m := node(r.id, "measures", e)
		add(m, rdf.RDFType, rdf.IRI(ontology.EntityMeasures))
		add(m, ontology.MeasuresOf, rdf.IRI(e))
		add(m, ontology.InCrawl, r.crawl)
		add(m, ontology.ProvWasGeneratedBy, r.graph)
		if !when.IsZero() {
			add(m, ontology.CrawlTime, rdf.Literal(when.UTC().Format(time.RFC3339), rdf.XSDDateTime))
		}
		add(m, ontology.Popularity, integer(len(es.docs)))
		add(m, ontology.MentionCount, integer(es.mentions))
		att, sen, con := 0.0, 0.0, 0.0
		if es.sentiments > 0 {
			n := float64(es.sentiments)
			att, sen = es.sum/n, es.abs/n
		}
		if es.opinions > 0 {
			con = 2 * float64(min(es.strongPos, es.strongNeg)) / float64(es.opinions)
		}
		add(m, ontology.Attitude, decimal(att))
		add(m, ontology.Sentimentality, decimal(sen))
		add(m, ontology.Controversiality, decimal(con))
		ents, _ := s.cooccurring(e)
		add(m, ontology.Connectedness, integer(len(ents)))
	}
}

// idf is the inverse document frequency of a term in n texts, df of
// which have it among their most frequent terms (smoothed: a term in
// every text still weighs a little).
func idf(n, df int) float64 { return math.Log(1 + float64(n)/float64(max(df, 1))) }

// topics adds each text's topicTerms terms of highest TF-IDF.
func (r *run) topics(b *graph.Batch, s *stats) {
	add := func(sub rdf.Term, p string, o rdf.Term) { b.Add(rdf.Quad{S: sub, P: rdf.IRI(p), O: o, G: r.graph}) }
	n := len(s.terms)
	for _, d := range sortedKeys(s.terms) {
		type tw struct {
			t string
			w float64
		}
		var ws []tw
		for t, c := range s.terms[d] {
			ws = append(ws, tw{t, float64(c) * idf(n, s.df[t])})
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
}

// pmi is the pointwise mutual information of two things occurring in c
// of n texts, each in na and nb.
func pmi(n, c, na, nb int) float64 {
	return math.Log(float64(n) * float64(c) / (float64(max(na, 1)) * float64(max(nb, 1))))
}

// associations adds, for every entity, the entities and terms it occurs
// with most, with their pointwise mutual information.
func (r *run) associations(b *graph.Batch, s *stats) {
	add := func(sub rdf.Term, p string, o rdf.Term) { b.Add(rdf.Quad{S: sub, P: rdf.IRI(p), O: o, G: r.graph}) }
	n := len(s.docs)
	type assoc struct {
		other string
		c     int
		w     float64
	}
	best := func(m map[string]int, size func(string) int, na int, minCount int, skip func(string) bool) []assoc {
		var out []assoc
		for o, c := range m {
			if c < minCount || skip(o) {
				continue
			}
			out = append(out, assoc{o, c, pmi(n, c, na, size(o))})
		}
		sort.Slice(out, func(i, j int) bool {
			if out[i].c != out[j].c {
				return out[i].c > out[j].c
			}
			if out[i].w != out[j].w {
				return out[i].w > out[j].w
			}
			return out[i].other < out[j].other
		})
		return out[:min(associations, len(out))]
	}
	for _, e := range sortedKeys(s.entities) {
		es := s.entities[e]
		ents, terms := s.cooccurring(e)
		own := nameWords(e)
		minCount := 1
		if len(es.docs) > 2 {
			minCount = 2
		}
		for _, a := range best(ents, func(f string) int { return len(s.entities[f].docs) }, len(es.docs), 1, func(string) bool { return false }) {
			x := node(r.id, "association", e, a.other)
			add(x, rdf.RDFType, rdf.IRI(ontology.Association))
			add(x, ontology.AssociationOf, rdf.IRI(e))
			add(x, ontology.AssociatedEntity, rdf.IRI(a.other))
			add(x, ontology.InCrawl, r.crawl)
			add(x, ontology.Cooccurrences, integer(a.c))
			add(x, ontology.Weight, decimal(a.w))
		}
		for _, a := range best(terms, func(t string) int { return s.df[t] }, len(es.docs), minCount, func(t string) bool { return own[t] }) {
			x := node(r.id, "association", e, "term:"+a.other)
			add(x, rdf.RDFType, rdf.IRI(ontology.Association))
			add(x, ontology.AssociationOf, rdf.IRI(e))
			add(x, ontology.AssociatedTerm, rdf.String(a.other))
			add(x, ontology.InCrawl, r.crawl)
			add(x, ontology.Cooccurrences, integer(a.c))
			add(x, ontology.Weight, decimal(a.w))
		}
	}
}

// nameWords are the words of an entity's key.
func nameWords(e string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(entityKey(e)) {
		m[w] = true
	}
	return m
}
