package analysis

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis/gencorpus"
	"github.com/mneme-archive/mneme/analysis/nlp"
	"github.com/mneme-archive/mneme/ontology"
)

// documentedQueries reads the queries of docs/analysis.md by name.
func documentedQueries(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../docs/analysis.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range regexp.MustCompile("(?s)<!-- query: ([a-z-]+) -->\n```sparql\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		out[m[1]] = m[2]
	}
	return out
}

// TestDocumentedQueries runs every query of docs/analysis.md on a
// generated archive, its names replaced by the generated world's, and
// checks the answers against the corpus.
func TestDocumentedQueries(t *testing.T) {
	qs := documentedQueries(t)
	c := gencorpus.Generate(gencorpus.Config{Seed: 3})
	st := loadCorpus(t, c)
	analyseAll(t, st, c)
	person := c.Rising
	key := nlp.Key(person)
	words := strings.Fields(key)
	// A post kept from crawl 1 to crawl 2 and edited.
	post := ""
	for _, tx := range c.Crawls[1].Texts {
		if tx.Version == "changed" {
			post = tx.IRI
			break
		}
	}
	r := strings.NewReplacer("crawl-1", c.Crawls[0].ID, "crawl-2", c.Crawls[1].ID,
		"maria_keller", strings.ReplaceAll(key, " ", "_"), `"keller"`, strconv.Quote(words[len(words)-1]),
		"http://blog.example/post/1/", post)
	run := func(name string) [][]string {
		q, ok := qs[name]
		if !ok {
			t.Fatalf("docs/analysis.md has no query %q", name)
		}
		return rows(t, st, r.Replace(q))
	}
	entity := EntityIRI(key)

	if got := run("find"); !slices.ContainsFunc(got, func(r []string) bool { return r[0] == entity }) {
		t.Errorf("find: %v lacks %s", got, entity)
	}
	tl := run("timeline")
	if len(tl) < 2 || !slices.IsSortedFunc(tl, func(a, b []string) int { return strings.Compare(a[0], b[0]) }) {
		t.Errorf("timeline of %s: %v, want a row per crawl naming it, in time order", person, tl)
	}
	for _, m := range run("mentions") {
		if !strings.Contains(m[3], m[2]) {
			t.Errorf("mention %q not in its sentence %q", m[2], m[3])
		}
	}
	authors := map[string]bool{}
	for _, cr := range c.Crawls {
		for _, tx := range cr.Texts {
			authors[tx.Author] = true
		}
	}
	au := run("authors")
	if len(au) == 0 {
		t.Error("authors: no rows")
	}
	for _, a := range au {
		if !authors[a[0]] {
			t.Errorf("authors: %q wrote nothing", a[0])
		}
	}
	for _, x := range run("rose-together") {
		b, _ := strconv.Atoi(x[3])
		a, _ := strconv.Atoi(x[4])
		if a <= b {
			t.Errorf("rose together: %v did not rise", x)
		}
	}
	hist := run("post-history")
	if len(hist) < 2 || hist[0][1] != CrawlIRI(c.Crawls[0].ID) || hist[1][1] != CrawlIRI(c.Crawls[1].ID) ||
		!strings.HasSuffix(hist[1][2], "StatusChanged") || !strings.Contains(hist[1][3], "added") || hist[0][4] == hist[1][4] {
		t.Errorf("history of %s: %v, want its text in crawls 1 and 2, changed in 2 with a summary", post, hist)
	}
	want := map[string]int{"Deleted": len(c.Crawls[0].Texts)}
	for _, tx := range c.Crawls[1].Texts {
		if tx.Version != "new" {
			want["Deleted"]--
		}
		want[map[string]string{"new": "New", "unchanged": "Unchanged", "changed": "Changed"}[tx.Version]]++
	}
	for _, v := range run("versions") {
		s := strings.TrimPrefix(v[0], ontology.MnemeNS+"Status")
		if n, _ := strconv.Atoi(v[1]); n != want[s] {
			t.Errorf("versions: %d %s, want %d", n, s, want[s])
		}
	}
	renamed := map[string]bool{}
	for _, x := range run("renames") {
		renamed[x[1]+" → "+x[2]] = true
		if x[4] == "" {
			t.Errorf("renames: %v without evidence", x)
		}
	}
	found := 0
	for _, p := range c.Renames {
		if renamed[p.Old+" → "+p.New] {
			found++
		}
	}
	if found == 0 {
		t.Errorf("renames: none of the planted %v among %v", c.Renames, renamed)
	}
	if len(run("associations")) == 0 {
		t.Errorf("associations of %s: none", person)
	}
	top := run("controversial")
	if c.ControversialFrom <= 1 && !slices.ContainsFunc(top, func(r []string) bool { return r[0] == EntityIRI(nlp.Key(c.Controversial)) }) {
		t.Errorf("controversial: %v lacks %s, controversial from crawl 2", top, c.Controversial)
	}
}
