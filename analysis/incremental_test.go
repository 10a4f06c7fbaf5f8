package analysis

import (
	"bytes"
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// dump returns the quads of graph g, sorted, as N-Quads lines.
func dump(t testing.TB, st *graph.Store, g string) string {
	t.Helper()
	v := st.Snapshot()
	defer v.Close()
	var lines []string
	err := each(context.Background(), v, `SELECT ?s ?p ?o WHERE { GRAPH <`+g+`> { ?s ?p ?o } }`, func(row []rdf.Term) error {
		lines = append(lines, rdf.Quad{S: row[0], P: row[1], O: row[2], G: rdf.IRI(g)}.String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestIncremental analyses half of a crawl's captures (a run stopped
// after some commits), then the rest: only the remaining captures are
// read, and the graph equals that of one uninterrupted run; a third run
// reads nothing and changes nothing.
func TestIncremental(t *testing.T) {
	c := gencorpus.Generate(gencorpus.Config{Seed: 7, Crawls: 2, PostsPerCrawl: 40})
	whole, parts := loadCorpus(t, c), loadCorpus(t, c)
	for _, cr := range c.Crawls {
		if _, err := Run(context.Background(), Options{Store: whole, Crawl: cr.ID}); err != nil {
			t.Fatal(err)
		}
	}
	id := c.Crawls[0].ID
	if _, err := Run(context.Background(), Options{Store: parts, Crawl: id}); err != nil {
		t.Fatal(err)
	}
	// Crawl 2: stop after three commits.
	id = c.Crawls[1].ID
	ctx, cancel := context.WithCancel(context.Background())
	commits := 0
	_, err := Run(ctx, Options{Store: parts, Crawl: id, Batch: 5, Progress: func(p Progress) {
		if p.Stage == "texts" && p.Done > 0 {
			if commits++; commits == 3 {
				cancel()
			}
		}
	}})
	if err == nil {
		t.Fatal("the cancelled run did not stop")
	}
	rep, err := Run(context.Background(), Options{Store: parts, Crawl: id})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, tx := range c.Crawls[1].Texts {
		if tx.ReplyTo == "" {
			total++
		}
	}
	if rep.Captures != total-15 {
		t.Errorf("the second run read %d captures, want %d (of %d, 15 read before)", rep.Captures, total-15, total)
	}
	a, b := dump(t, whole, GraphIRI(id)), dump(t, parts, GraphIRI(id))
	if a != b {
		t.Errorf("the graph of the interrupted analysis differs from the uninterrupted one:\n%s", firstDiff(a, b))
	}
	if x, y := dump(t, whole, TallyIRI(id)), dump(t, parts, TallyIRI(id)); x != y || x == "" {
		t.Errorf("the running totals of the interrupted analysis differ from the uninterrupted one's:\n%s", firstDiff(x, y))
	}
	rep, err = Run(context.Background(), Options{Store: parts, Crawl: id})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Captures != 0 || rep.Texts != 0 {
		t.Errorf("a rerun read %d captures, %d texts; want none", rep.Captures, rep.Texts)
	}
	if c := dump(t, parts, GraphIRI(id)); c != b {
		t.Errorf("a rerun changed the graph:\n%s", firstDiff(b, c))
	}
}

// firstDiff shows the first lines in which two dumps differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out bytes.Buffer
	for i := 0; i < max(len(la), len(lb)) && out.Len() < 2000; i++ {
		x, y := "", ""
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			out.WriteString("- " + x + "\n+ " + y + "\n")
		}
	}
	return out.String()
}

// TestIncrementalParts stores the second crawl's captures in three parts
// and analyses the crawl after each, as the analysis of a crawl still
// being crawled would run; its figures (measures, associations, topic
// terms, versions, name changes) must then equal those of the crawl
// analysed once, whole. The parts are cut so that the second keeps the
// crawl's size as TF-IDF counts it (topic terms are updated text by text)
// and the third changes it (every text's topic terms are outdated). The
// runs rewrite few outdated topic terms (TopicRefresh), so the queue of
// texts marked mneme:awaitsTopicTerms fills: every text without a mark
// must have the topic terms of the whole analysis, and a run with nothing
// new empties the queue. The second rerun is first stopped in its
// crawl-wide stage (nothing of it committed), the third after a commit of
// its text stage; after each, both graphs (the queue too) must equal those
// of the same parts analysed without interruption.
func TestIncrementalParts(t *testing.T) {
	ctx := context.Background()
	c := gencorpus.Generate(gencorpus.Config{Seed: 7, Crawls: 2, PostsPerCrawl: 40})
	whole := loadCorpus(t, c)
	for _, cr := range c.Crawls {
		if _, err := Run(ctx, Options{Store: whole, Crawl: cr.ID}); err != nil {
			t.Fatal(err)
		}
	}
	open := func(name string) *graph.Store {
		st, err := graph.Open(filepath.Join(t.TempDir(), name), graph.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	// parts is analysed with interruptions, steady without.
	parts, steady := open("parts"), open("steady")
	write := func(qs []rdf.Quad) {
		for _, st := range []*graph.Store{parts, steady} {
			b := st.NewBatch()
			for _, q := range qs {
				b.Add(q)
			}
			if _, err := b.Commit(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	const refresh = 3
	run := func(st *graph.Store, id string) *Report {
		t.Helper()
		rep, err := Run(ctx, Options{Store: st, Crawl: id, TopicRefresh: refresh})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	write(c.Quads(0))
	first, id := c.Crawls[0].ID, c.Crawls[1].ID
	run(parts, first)
	run(steady, first)
	same := func(a, b *graph.Store, what string) {
		t.Helper()
		for _, g := range []string{GraphIRI(id), TallyIRI(id)} {
			if x, y := dump(t, a, g), dump(t, b, g); x != y {
				t.Errorf("%s: %s differs:\n%s", what, g, firstDiff(x, y))
			}
		}
	}
	// Cut the captures so that the first two parts hold from q to q' - 1
	// texts, q and q' consecutive values of coarse below the crawl's
	// count, and the third reaches q'.
	caps := c.Captures(1)
	texts := map[string]int{}
	for _, tx := range c.Crawls[1].Texts {
		texts[tx.Capture]++
	}
	total := len(c.Crawls[1].Texts)
	q2 := coarse(total - 1)
	q := coarse(q2 - 1)
	cut1, cut2, n := -1, -1, 0
	for i, capt := range caps {
		if cut1 < 0 && n >= q {
			cut1 = i
		}
		if n+texts[capt] >= q2 {
			cut2 = i
			break
		}
		n += texts[capt]
	}
	textsBefore := func(cut int) int {
		k := 0
		for _, capt := range caps[:cut] {
			k += texts[capt]
		}
		return k
	}
	if cut1 < 0 || cut2 <= cut1 {
		t.Fatalf("no cuts for %d texts in %d captures", total, len(caps))
	}
	write(c.CaptureQuads(1, 0, cut1))
	run(parts, id)
	run(steady, id)

	write(c.CaptureQuads(1, cut1, cut2))
	stop, cancel := context.WithCancel(ctx)
	if _, err := Run(stop, Options{Store: parts, Crawl: id, TopicRefresh: refresh, Progress: func(p Progress) {
		if p.Stage == "topics" {
			cancel()
		}
	}}); err == nil {
		t.Fatal("the run stopped in its crawl-wide stage did not fail")
	}
	rep := run(parts, id)
	run(steady, id)
	same(parts, steady, "stopped in its crawl-wide stage and run again")
	// The crawl as it is now, analysed whole: what the unmarked texts'
	// topic terms must be.
	now := open("now")
	for _, qs := range [][]rdf.Quad{c.Quads(0), c.CaptureQuads(1, 0, cut2)} {
		b := now.NewBatch()
		for _, q := range qs {
			b.Add(q)
		}
		if _, err := b.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	run(now, first)
	run(now, id)
	if got := staleTopics(t, now, parts, id); got != rep.TopicsPending || got == 0 {
		t.Errorf("%d texts are marked mneme:awaitsTopicTerms, the run reported %d; want some", got, rep.TopicsPending)
	}
	added := n - textsBefore(cut1)
	if rep.Updated.Texts != added+refresh || rep.Updated.Versions != added {
		t.Errorf("the rerun after %d new texts wrote anew the topic terms of %d of %d texts and %d versions; want %d (its own and %d outdated), and %d", added, rep.Updated.Texts, n, rep.Updated.Versions, added+refresh, refresh, added)
	}
	t.Logf("rerun after %d new texts of %d: updated %+v of %d entities, %d texts' topic terms outdated", added, n, rep.Updated, rep.Entities, rep.TopicsPending)

	write(c.CaptureQuads(1, cut2, len(caps)))
	stop, cancel = context.WithCancel(ctx)
	if _, err := Run(stop, Options{Store: parts, Crawl: id, Batch: 3, TopicRefresh: refresh, Progress: func(p Progress) {
		if p.Stage == "texts" && p.Done > 0 {
			cancel()
		}
	}}); err == nil {
		t.Fatal("the run stopped in its text stage did not fail")
	}
	rep = run(parts, id)
	run(steady, id)
	same(parts, steady, "stopped in its text stage and run again")
	if rep.TopicsPending == 0 {
		t.Errorf("the crawl's size as counted changed, yet no text's topic terms are left outdated (%+v)", rep.Updated)
	}
	if got := staleTopics(t, whole, parts, id); got != rep.TopicsPending {
		t.Errorf("%d texts are marked mneme:awaitsTopicTerms, the run reported %d", got, rep.TopicsPending)
	}
	// A run with nothing new rewrites every outdated text's topic terms.
	rep, err := Run(ctx, Options{Store: parts, Crawl: id})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Captures != 0 || rep.TopicsPending != 0 {
		t.Errorf("the run with nothing new read %d captures and left %d texts' topic terms outdated; want none", rep.Captures, rep.TopicsPending)
	}
	// The running totals too: counted by parts, they are those of the
	// whole crawl.
	for _, g := range []string{GraphIRI(first), GraphIRI(id), TallyIRI(first), TallyIRI(id)} {
		a, b := dump(t, whole, g), dump(t, parts, g)
		if a != b {
			t.Errorf("%s analysed in parts differs from it analysed whole:\n%s", g, firstDiff(a, b))
		}
	}
}

// staleTopics checks that every text of crawl id in st not marked
// mneme:awaitsTopicTerms has the topic terms (terms and weights) it has in
// ref, the crawl analysed whole, and returns how many are marked.
func staleTopics(t *testing.T, ref, st *graph.Store, id string) int {
	t.Helper()
	topics := func(st *graph.Store) (map[string]string, map[string]bool) {
		v := st.Snapshot()
		defer v.Close()
		g := "<" + GraphIRI(id) + ">"
		byText := map[string][]string{}
		err := each(context.Background(), v, `SELECT ?d ?t ?w WHERE { GRAPH `+g+` { ?d mneme:hasTopicTerm ?n . ?n mneme:term ?t ; mneme:weight ?w } }`,
			func(row []rdf.Term) error {
				byText[row[0].Value] = append(byText[row[0].Value], row[1].Value+" "+row[2].Value)
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for d, ts := range byText {
			sort.Strings(ts)
			out[d] = strings.Join(ts, ", ")
		}
		marked := map[string]bool{}
		err = each(context.Background(), v, `SELECT ?d WHERE { GRAPH `+g+` { ?d mneme:awaitsTopicTerms ?n } }`, func(row []rdf.Term) error {
			marked[row[0].Value] = true
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out, marked
	}
	want, _ := topics(ref)
	got, marked := topics(st)
	for d := range want {
		if _, ok := got[d]; !ok && !marked[d] {
			got[d] = ""
		}
	}
	for _, d := range sortedKeys(got) {
		if !marked[d] && got[d] != want[d] {
			t.Errorf("%s is not marked outdated, but its topic terms are %q, not %q", d, got[d], want[d])
		}
	}
	return len(marked)
}
