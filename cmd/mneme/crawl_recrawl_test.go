package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/sparql"
)

// TestRecrawlWordPressRevisits crawls the real WordPress twice into one
// data folder. The second crawl stores the unchanged pages as revisit
// records of the first crawl's (a fifth of the WARC bytes at most), and
// each of its captures revises the first crawl's capture of its URL, as
// docs/data-model.md's two-crawl diff query shows.
func TestRecrawlWordPressRevisits(t *testing.T) {
	base := testenv.CMS(t, testenv.WordPress, "")
	data := t.TempDir()
	for _, id := range []string{"first", "second"} {
		if code, _, errOut := mneme(t, "", "crawl", "--data", data, "--id", id, "--politeness", "off", base+"/"); code != 0 {
			t.Fatalf("crawl %s: exit %d: %s", id, code, errOut)
		}
	}
	l := crawler.Layout{Data: data}
	size := map[string]int64{}
	var files []string
	for _, id := range []string{"first", "second"} {
		warcs, err := filepath.Glob(filepath.Join(l.WARCs(id), "*.warc.gz"))
		if err != nil || len(warcs) == 0 {
			t.Fatalf("crawl %s: no WARC files (%v)", id, err)
		}
		for _, f := range warcs {
			fi, err := os.Stat(f)
			if err != nil {
				t.Fatal(err)
			}
			size[id] += fi.Size()
		}
		files = append(files, warcs...)
	}
	t.Logf("WARC bytes: first crawl %d, second %d (%.1f %%)", size["first"], size["second"], 100*float64(size["second"])/float64(size["first"]))
	if size["second"]*5 > size["first"] {
		t.Errorf("the second crawl wrote %d WARC bytes, more than a fifth of the first's %d", size["second"], size["first"])
	}
	warctest.Check(t, files...)

	st, _ := checkArchive(t, data, "second")
	doc, err := os.ReadFile("../../docs/data-model.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(doc), "<!-- diff-query -->\n```sparql\n")
	query, _, _ := strings.Cut(rest, "```")
	query = strings.NewReplacer("crawl-20260601-120000", "first", "crawl-20260602-120000", "second").Replace(query)
	prefixes := "PREFIX mneme: <" + ontology.MnemeNS + ">\nPREFIX prov: <http://www.w3.org/ns/prov#>\n"
	// The earlier capture each one revises, and the graph it is in.
	check := prefixes + `SELECT ?after ?url ?before ?g ?dup ?dg WHERE {
  GRAPH <urn:mneme:crawl:second> { ?after a mneme:Capture ; mneme:url ?url ; mneme:httpStatus ?status .
    OPTIONAL { ?after prov:wasRevisionOf ?before } OPTIONAL { ?after mneme:duplicateOf ?dup } }
  OPTIONAL { GRAPH ?g { ?before a mneme:Capture ; mneme:url ?url } }
  OPTIONAL { GRAPH ?dg { ?dup a mneme:Capture } }
}`
	rows := func(q string) [][]string {
		t.Helper()
		p, err := sparql.Prepare(q, sparql.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Exec(context.Background(), st.Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var out [][]string
		for r.Next() {
			var row []string
			for _, v := range r.Row() {
				row = append(row, v.Value)
			}
			out = append(out, row)
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	captures := rows(check)
	if len(captures) < 20 {
		t.Fatalf("the second crawl has %d captures with a response", len(captures))
	}
	for _, r := range captures {
		if r[3] != "urn:mneme:crawl:first" {
			t.Errorf("%s (%s) revises %q in graph %q, not the first crawl's capture", r[0], r[1], r[2], r[3])
		}
		if r[4] != "" && r[5] != "urn:mneme:crawl:first" {
			t.Errorf("%s (%s) is a duplicate of %q in graph %q, not a record of the first crawl", r[0], r[1], r[4], r[5])
		}
	}
	diff := rows(prefixes + query)
	unchanged := 0
	for _, r := range diff {
		if r[1] == ontology.StatusUnchanged {
			unchanged++
		}
	}
	revisits := 0
	for _, f := range files {
		if !strings.Contains(f, "second") {
			continue
		}
		b, err := os.ReadFile(strings.TrimSuffix(f, ".warc.gz") + ".cdxj")
		if err != nil {
			t.Fatal(err)
		}
		revisits += strings.Count(string(b), `"mime":"warc/revisit"`)
	}
	t.Logf("second crawl: %d captures, %d unchanged, %d revisit records", len(diff), unchanged, revisits)
	if len(diff) < len(captures) || unchanged < len(captures)*9/10 || revisits != unchanged {
		t.Errorf("diff query: %d captures, %d unchanged, %d revisit records; want at least %d captures, nine in ten unchanged, one revisit record each",
			len(diff), unchanged, revisits, len(captures))
	}
}
