package analysis

import (
	"bytes"
	"context"
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
