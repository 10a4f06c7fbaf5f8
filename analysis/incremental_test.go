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
// and the third changes it. The second rerun is first stopped in its
// crawl-wide stage (nothing of it committed), the third after a commit
// of its text stage.
func TestIncrementalParts(t *testing.T) {
	ctx := context.Background()
	c := gencorpus.Generate(gencorpus.Config{Seed: 7, Crawls: 2, PostsPerCrawl: 40})
	whole := loadCorpus(t, c)
	for _, cr := range c.Crawls {
		if _, err := Run(ctx, Options{Store: whole, Crawl: cr.ID}); err != nil {
			t.Fatal(err)
		}
	}
	parts, err := graph.Open(filepath.Join(t.TempDir(), "store"), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer parts.Close()
	write := func(qs []rdf.Quad) {
		b := parts.NewBatch()
		for _, q := range qs {
			b.Add(q)
		}
		if _, err := b.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	write(c.Quads(0))
	first, id := c.Crawls[0].ID, c.Crawls[1].ID
	if _, err := Run(ctx, Options{Store: parts, Crawl: first}); err != nil {
		t.Fatal(err)
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
	if _, err := Run(ctx, Options{Store: parts, Crawl: id}); err != nil {
		t.Fatal(err)
	}

	write(c.CaptureQuads(1, cut1, cut2))
	stop, cancel := context.WithCancel(ctx)
	if _, err := Run(stop, Options{Store: parts, Crawl: id, Progress: func(p Progress) {
		if p.Stage == "topics" {
			cancel()
		}
	}}); err == nil {
		t.Fatal("the run stopped in its crawl-wide stage did not fail")
	}
	rep, err := Run(ctx, Options{Store: parts, Crawl: id})
	if err != nil {
		t.Fatal(err)
	}
	added := n - textsBefore(cut1)
	if rep.Updated.Texts >= n || rep.Updated.Versions != added {
		t.Errorf("the rerun after %d new texts wrote anew the topic terms of %d of %d texts and %d versions; want fewer than all, and %d", added, rep.Updated.Texts, n, rep.Updated.Versions, added)
	}
	t.Logf("rerun after %d new texts of %d: updated %+v of %d entities", added, n, rep.Updated, rep.Entities)

	write(c.CaptureQuads(1, cut2, len(caps)))
	stop, cancel = context.WithCancel(ctx)
	if _, err := Run(stop, Options{Store: parts, Crawl: id, Batch: 3, Progress: func(p Progress) {
		if p.Stage == "texts" && p.Done > 0 {
			cancel()
		}
	}}); err == nil {
		t.Fatal("the run stopped in its text stage did not fail")
	}
	if _, err := Run(ctx, Options{Store: parts, Crawl: id}); err != nil {
		t.Fatal(err)
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
