package importer_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/importer"
)

// TestBulkSameQuads imports the same generated collection page by page
// (each page its own commit) and in groups of pages through the store's
// bulk loader: the two stores hold the same quads, once the names that
// differ by nature between two runs are made alike (a WARC record's id,
// named after the first post read from it; the times of the run), and
// both stores check out.
func TestBulkSameQuads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tweets.jsonl")
	generate(t, path, 2000)
	start := time.Now().UTC()
	paged, _, _, _ := runImportWith(t, "diff", &importer.Importer{PagePosts: 250, GroupPosts: -1}, path)
	bulk, _, _, _ := runImportWith(t, "diff", &importer.Importer{PagePosts: 250, GroupPosts: 700}, path)
	end := time.Now().UTC().Add(time.Second)
	a, b := canonicalQuads(t, paged, start, end), canonicalQuads(t, bulk, start, end)
	if len(a) < 2000*20 {
		t.Fatalf("%d quads from 2,000 tweets imported page by page", len(a))
	}
	for i := 0; i < len(a) || i < len(b); i++ {
		switch {
		case i == len(a):
			t.Fatalf("bulk only: %s (%d more)", b[i], len(b)-i)
		case i == len(b):
			t.Fatalf("page by page only: %s (%d more)", a[i], len(a)-i)
		case a[i] != b[i]:
			t.Fatalf("quad %d: page by page %s, bulk %s", i, a[i], b[i])
		}
	}
	for _, st := range []*graph.Store{paged, bulk} {
		if rep, err := st.Check(context.Background()); err != nil || !rep.OK() {
			t.Errorf("check: %v %+v", err, rep)
		}
	}
	sa, _ := paged.Stats()
	sb, _ := bulk.Stats()
	if sa.Quads != sb.Quads || sa.Triples != sb.Triples {
		t.Errorf("statistics: page by page %d quads %d triples, bulk %d, %d", sa.Quads, sa.Triples, sb.Quads, sb.Triples)
	}
}

// canonicalQuads returns the store's quads as sorted N-Quads lines, each
// WARC record id replaced by the smallest post IRI derived from it and
// every xsd:dateTime within [from, to] by "NOW".
func canonicalQuads(t *testing.T, st *graph.Store, from, to time.Time) []string {
	t.Helper()
	all := rows(t, st, `SELECT ?s ?p ?o ?g WHERE { GRAPH ?g { ?s ?p ?o } }`)
	stats, err := st.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(all)) != stats.Quads {
		t.Fatalf("%d quads in named graphs, %d in the store", len(all), stats.Quads)
	}
	record := map[string]string{}
	for _, r := range all {
		if r[1].Value == ontology.ProvWasDerivedFrom && strings.HasPrefix(r[2].Value, "urn:uuid:") && strings.Contains(r[0].Value, "/status/") {
			if cur, ok := record[r[2].Value]; !ok || r[0].Value < cur {
				record[r[2].Value] = r[0].Value
			}
		}
	}
	name := func(s string) string {
		if i := strings.Index(s, "urn:uuid:"); i >= 0 && len(s) >= i+45 {
			if post, ok := record[s[i:i+45]]; ok {
				return s[:i] + "record(" + post + ")" + s[i+45:]
			}
		}
		return s
	}
	var out []string
	for _, r := range all {
		q := rdf.Quad{S: r[0], P: r[1], O: r[2], G: r[3]}
		for _, tm := range []*rdf.Term{&q.S, &q.O, &q.G} {
			if tm.Kind == rdf.KindLiteral && tm.Datatype == rdf.XSDDateTime {
				if at, err := time.Parse(time.RFC3339, tm.Value); err == nil && !at.Before(from) && !at.After(to) {
					tm.Value = "NOW"
				}
				continue
			}
			tm.Value = name(tm.Value)
		}
		out = append(out, q.S.String()+" "+q.P.String()+" "+q.O.String()+" "+q.G.String())
	}
	slices.Sort(out)
	return out
}
