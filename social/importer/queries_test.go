package importer_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docQueries reads the queries of docs/data-model.md marked
// <!-- social-query: NAME -->.
func docQueries(t *testing.T) map[string]string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "data-model.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- social-query: (\\w+) -->\n```sparql\n(.*?)```")
	prefixes := `PREFIX mneme: <https://w3id.org/mneme#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX sioc: <http://rdfs.org/sioc/ns#>
PREFIX sioct: <http://rdfs.org/sioc/types#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
`
	out := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(string(doc), -1) {
		out[m[1]] = prefixes + m[2]
	}
	for _, name := range []string{"links", "authors", "hashtags"} {
		if out[name] == "" {
			t.Fatalf("docs/data-model.md has no query marked %q", name)
		}
	}
	return out
}

// TestDataModelQueries runs the example queries of docs/data-model.md on
// an imported collection and checks them against counts made from the
// raw JSON.
func TestDataModelQueries(t *testing.T) {
	queries := docQueries(t)
	path := filepath.Join(t.TempDir(), "tweets.jsonl")
	generate(t, path, 3000)
	links, authors, tags := map[string]int{}, map[string]int{}, map[string]int{}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var page struct {
			Data []struct {
				AuthorID  string `json:"author_id"`
				CreatedAt string `json:"created_at"`
				Entities  struct {
					Hashtags []struct{ Tag string } `json:"hashtags"`
					URLs     []struct {
						Expanded string `json:"expanded_url"`
					} `json:"urls"`
				} `json:"entities"`
			} `json:"data"`
			Includes struct {
				Users []struct{ ID, Username string } `json:"users"`
			} `json:"includes"`
		}
		if err := json.Unmarshal(sc.Bytes(), &page); err != nil {
			t.Fatal(err)
		}
		handle := map[string]string{}
		for _, u := range page.Includes.Users {
			handle[u.ID] = u.Username
		}
		for _, tw := range page.Data {
			for _, u := range tw.Entities.URLs {
				links[u.Expanded]++
			}
			authors["https://twitter.com/"+handle[tw.AuthorID]+"|"+handle[tw.AuthorID]]++
			for _, h := range tw.Entities.Hashtags {
				tags[strings.ToLower(h.Tag)+"|"+tw.CreatedAt[:10]]++
			}
		}
	}
	f.Close()
	st, _, _, _ := runImport(t, "queries", 1000, path)
	check := func(name string, want map[string]int, key func(r []string) string, limited bool) {
		got := rows(t, st, queries[name])
		if len(got) == 0 {
			t.Fatalf("%s: no rows", name)
		}
		most := 0
		for _, n := range want {
			most = max(most, n)
		}
		for i, r := range got {
			vals := make([]string, len(r))
			for j := range r {
				vals[j] = r[j].Value
			}
			k, n := key(vals), vals[len(vals)-1]
			if fmt.Sprint(want[k]) != n {
				t.Errorf("%s: row %v counts %s, the JSON %d", name, vals, n, want[k])
			}
			if i == 0 && fmt.Sprint(most) != n {
				t.Errorf("%s: first row counts %s, the most is %d", name, n, most)
			}
		}
		if !limited && len(got) != len(want) {
			t.Errorf("%s: %d rows, want %d", name, len(got), len(want))
		}
	}
	check("links", links, func(r []string) string { return r[0] }, true)
	check("authors", authors, func(r []string) string { return r[0] + "|" + r[1] }, true)
	check("hashtags", tags, func(r []string) string { return r[0] + "|" + r[1] }, false)
}
