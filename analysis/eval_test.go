package analysis

import (
	"context"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/analysis/nlp"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// evalSeeds are the seeds of the generated corpora measured, held out:
// the analysis was developed and its name-change threshold chosen on
// seeds 1, 2, 103 and 104 (101 and 102, looked at once, are retired);
// these were not looked at before they were measured.
var evalSeeds = []uint64{105, 106}

// loadCorpus writes the crawls of a generated corpus into a fresh store.
func loadCorpus(t testing.TB, c *gencorpus.Corpus) *graph.Store {
	t.Helper()
	st, err := graph.Open(filepath.Join(t.TempDir(), "store"), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := c.Write(context.Background(), st); err != nil {
		t.Fatal(err)
	}
	return st
}

// analyseAll analyses the corpus's crawls in order.
func analyseAll(t testing.TB, st *graph.Store, c *gencorpus.Corpus) []*Report {
	t.Helper()
	var reps []*Report
	for _, cr := range c.Crawls {
		rep, err := Run(context.Background(), Options{Store: st, Crawl: cr.ID})
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	return reps
}

// rows runs a query on the store and returns its rows as strings.
func rows(t testing.TB, st *graph.Store, q string) [][]string {
	t.Helper()
	v := st.Snapshot()
	defer v.Close()
	var out [][]string
	err := each(context.Background(), v, q, func(row []rdf.Term) error {
		r := make([]string, len(row))
		for i, x := range row {
			r[i] = x.Value
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	return out
}

var debugEval map[string]int

// scores are precision, recall and F1 of a detector.
type scores struct{ tp, fp, fn int }

func (s scores) precision() float64 { return float64(s.tp) / float64(max(s.tp+s.fp, 1)) }
func (s scores) recall() float64    { return float64(s.tp) / float64(max(s.tp+s.fn, 1)) }
func (s scores) f1() float64 {
	p, r := s.precision(), s.recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// mentionScores compares the mentions of the analysis graphs with the
// planted ones. A planted mention is found when a mention of its text
// overlaps it and names the entity its planted name resolved to (the IRI
// most of the name's mentions got: one entity per name); every other
// mention found is a false positive.
func mentionScores(t testing.TB, st *graph.Store, c *gencorpus.Corpus) scores {
	type found struct {
		start, end int
		entity     string
		used       bool
	}
	byText := map[string][]*found{}
	for _, cr := range c.Crawls {
		for _, r := range rows(t, st, `SELECT ?o ?s ?e ?x WHERE { GRAPH <`+GraphIRI(cr.ID)+`> {
  ?m mneme:inObject ?o ; mneme:startOffset ?s ; mneme:endOffset ?e ; mneme:mentionOf ?x } }`) {
			s, _ := strconv.Atoi(r[1])
			e, _ := strconv.Atoi(r[2])
			key := cr.ID + " " + r[0]
			byText[key] = append(byText[key], &found{start: s, end: e, entity: r[3]})
		}
	}
	type gold struct {
		f    *found
		name string
		ctx  string
	}
	var golds []gold
	votes := map[string]map[string]int{}
	var sc scores
	for _, cr := range c.Crawls {
		for _, tx := range cr.Texts {
			for _, m := range tx.Mentions {
				var hit *found
				for _, f := range byText[cr.ID+" "+tx.IRI] {
					if !f.used && f.start < m.End && m.Start < f.end {
						hit = f
						break
					}
				}
				r := []rune(tx.Content)
				golds = append(golds, gold{hit, m.Name, string(r[max(0, m.Start-40):min(len(r), m.End+30)])})
				if hit == nil {
					continue
				}
				hit.used = true
				if votes[m.Name] == nil {
					votes[m.Name] = map[string]int{}
				}
				votes[m.Name][hit.entity]++
			}
		}
	}
	resolved := map[string]string{}
	for name, vs := range votes {
		best := ""
		for _, e := range sortedKeys(vs) {
			if best == "" || vs[e] > vs[best] {
				best = e
			}
		}
		resolved[name] = best
	}
	for _, g := range golds {
		switch {
		case g.f == nil:
			sc.fn++
		case g.f.entity == resolved[g.name]:
			sc.tp++
		default:
			sc.fn++
			sc.fp++
		}
	}
	for _, fs := range byText {
		for _, f := range fs {
			if !f.used {
				sc.fp++
				if debugEval != nil {
					debugEval["fp "+f.entity]++
				}
			}
		}
	}
	if debugEval != nil {
		for _, g := range golds {
			if g.f == nil {
				debugEval["fn "+g.name]++
				debugEval["ctx "+g.ctx]++
			} else if g.f.entity != resolved[g.name] {
				debugEval["wrong "+g.name+" as "+g.f.entity]++
			}
		}
	}
	return sc
}

// renameScores compares the proposed name changes with the planted ones.
func renameScores(t testing.TB, st *graph.Store, c *gencorpus.Corpus) (scores, [][]string) {
	planted := map[[2]string]bool{}
	for _, r := range c.Renames {
		planted[[2]string{EntityIRI(nlp.Key(r.Old)), EntityIRI(nlp.Key(r.New))}] = true
	}
	got := rows(t, st, `SELECT DISTINCT ?old ?new ?score WHERE { GRAPH ?a { ?x a mneme:NameChange ; mneme:formerName ?old ; mneme:laterName ?new ; mneme:score ?score } }`)
	var sc scores
	seen := map[[2]string]bool{}
	for _, r := range got {
		k := [2]string{r[0], r[1]}
		if seen[k] {
			continue
		}
		seen[k] = true
		if planted[k] {
			sc.tp++
		} else {
			sc.fp++
		}
	}
	sc.fn = len(planted) - sc.tp
	return sc, got
}

// evaluate generates, loads and analyses the corpus of one seed and
// returns its scores.
func evaluate(t *testing.T, seed uint64) (mentions, renames scores) {
	c := gencorpus.Generate(gencorpus.Config{Seed: seed})
	st := loadCorpus(t, c)
	analyseAll(t, st, c)
	mentions = mentionScores(t, st, c)
	renames, got := renameScores(t, st, c)
	t.Logf("seed %d: mentions P %.3f R %.3f F1 %.3f (%+v); renames P %.2f R %.2f (%+v)", seed,
		mentions.precision(), mentions.recall(), mentions.f1(), mentions, renames.precision(), renames.recall(), renames)
	if renames.fp > 0 || renames.fn > 0 {
		t.Logf("seed %d: planted %v, proposed %v", seed, c.Renames, got)
	}
	checkVersions(t, st, c)
	checkMeasures(t, st, c)
	return mentions, renames
}

// TestGeneratedCorpus measures the analysis on the generated corpora of
// the evaluation seeds: NER and resolution F1 ≥ 0.85 on the planted
// mentions, every object's version right, the planted rise and
// controversy in the measures, and the name changes found with recall
// ≥ 0.9 at precision ≥ 0.8.
func TestGeneratedCorpus(t *testing.T) {
	var m, r scores
	for _, seed := range evalSeeds {
		ms, rs := evaluate(t, seed)
		m.tp, m.fp, m.fn = m.tp+ms.tp, m.fp+ms.fp, m.fn+ms.fn
		r.tp, r.fp, r.fn = r.tp+rs.tp, r.fp+rs.fp, r.fn+rs.fn
	}
	t.Logf("figures: mentions P %.3f R %.3f F1 %.3f; renames P %.2f R %.2f (%d planted)", m.precision(), m.recall(), m.f1(), r.precision(), r.recall(), r.tp+r.fn)
	if m.f1() < 0.85 {
		t.Errorf("mention F1 %.3f, want ≥ 0.85", m.f1())
	}
	if r.recall() < 0.9 || r.precision() < 0.8 {
		t.Errorf("name changes: recall %.2f precision %.2f, want ≥ 0.9 and ≥ 0.8", r.recall(), r.precision())
	}
}

// checkVersions compares every object's version status with the corpus.
func checkVersions(t *testing.T, st *graph.Store, c *gencorpus.Corpus) {
	t.Helper()
	for k := 1; k < len(c.Crawls); k++ {
		want := map[string]string{}
		for _, tx := range c.Crawls[k-1].Texts {
			want[tx.IRI] = "Deleted"
		}
		for _, tx := range c.Crawls[k].Texts {
			want[tx.IRI] = map[string]string{"new": "New", "unchanged": "Unchanged", "changed": "Changed"}[tx.Version]
		}
		got := map[string]string{}
		for _, r := range rows(t, st, `SELECT ?o ?s WHERE { GRAPH <`+GraphIRI(c.Crawls[k].ID)+`> { ?v mneme:versionOf ?o ; mneme:versionStatus ?s } }`) {
			got[r[0]] = strings.TrimPrefix(r[1], ontology.MnemeNS+"Status")
		}
		wrong := 0
		for o, w := range want {
			if got[o] != w {
				if wrong < 5 {
					t.Errorf("crawl %d: %s is %q, want %q", k+1, o, got[o], w)
				}
				wrong++
			}
		}
		if len(got) != len(want) {
			t.Errorf("crawl %d: %d versions, want %d", k+1, len(got), len(want))
		}
	}
}

// measure returns an entity's measure per crawl, in crawl order.
func measure(t *testing.T, st *graph.Store, c *gencorpus.Corpus, name, m string) []float64 {
	t.Helper()
	out := make([]float64, len(c.Crawls))
	for _, r := range rows(t, st, `SELECT ?c ?v WHERE { GRAPH ?a { ?x mneme:measuresOf <`+EntityIRI(nlp.Key(name))+`> ; mneme:inCrawl ?c ; mneme:`+m+` ?v } }`) {
		for k, cr := range c.Crawls {
			if r[0] == CrawlIRI(cr.ID) {
				out[k], _ = strconv.ParseFloat(r[1], 64)
			}
		}
	}
	return out
}

// checkMeasures checks the planted rise and controversy.
func checkMeasures(t *testing.T, st *graph.Store, c *gencorpus.Corpus) {
	t.Helper()
	pop := measure(t, st, c, c.Rising, "popularity")
	if pop[len(pop)-1] <= 2*pop[0] {
		t.Errorf("the rising entity %q has popularity %v across crawls, want it rising", c.Rising, pop)
	}
	if c.ControversialFrom >= len(c.Crawls)-1 {
		return // one crawl of controversy, among the older posts still listed: too little to tell
	}
	con := measure(t, st, c, c.Controversial, "controversiality")
	before := 0.0
	for _, v := range con[:c.ControversialFrom] {
		before = max(before, v)
	}
	after := con[len(con)-1]
	if after <= before {
		t.Errorf("%q turns controversial at crawl %d: controversiality %v across crawls", c.Controversial, c.ControversialFrom+1, con)
	}
	others := []float64{}
	for _, e := range c.Entities {
		if e.Name != c.Controversial {
			v := measure(t, st, c, e.Name, "controversiality")
			others = append(others, v[len(v)-1])
		}
	}
	sort.Float64s(others)
	if med := others[len(others)/2]; after <= med {
		t.Errorf("the controversial entity's controversiality %.2f is not above the median of the others %.2f", after, med)
	}
}
