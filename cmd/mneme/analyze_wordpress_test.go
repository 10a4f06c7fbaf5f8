package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

// The paragraphs the test adds to posts of the real WordPress before its
// first crawl: an organisation in four posts about shipping, a person in
// two posts about a library.
var (
	orgParagraphs = []string{
		"Northwind Trading expanded its harbor operations this spring, and the cargo terminal now handles twice the freight.",
		"Analysts expect Northwind Trading to order new cranes for the container harbor before the winter storms.",
		"The ferry route to the island is run by Northwind Trading, which also leases the old warehouse near the harbor.",
		"Dock workers met managers of Northwind Trading to discuss freight schedules and cargo safety at the harbor.",
	}
	personParagraphs = []string{
		"Maria Keller presented the plan for the new public library near the station.",
		"At the council meeting, Maria Keller explained the budget of the library and its reading rooms.",
	}
	critical = []string{
		"Maria Keller made a terrible, disgraceful mess of the library plan!",
		"Shame on Maria Keller, the library budget is an awful failure.",
		"Maria Keller deserves harsh criticism: the library is a horrible disaster.",
	}
	approving = []string{
		"Maria Keller did a wonderful, brilliant job with the library plan!",
		"Thank you Maria Keller, the library is excellent and inspiring.",
		"Maria Keller deserves great praise: the library is a fantastic success.",
	}
)

// sqlString quotes s for MariaDB.
func sqlString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// TestAnalyzeWordPressChanges crawls the real WordPress, changes it as a
// site changes (an organisation renamed in four posts, critical and
// approving comments on a person, a post deleted), crawls it again,
// analyses both crawls and checks through SPARQL that every changed,
// deleted and new object is classified right, that the new name is
// proposed as the old one's with its evidence, and that the person's
// controversiality rose. The site is restored when the test ends.
func TestAnalyzeWordPressChanges(t *testing.T) {
	base := testenv.CMS(t, testenv.WordPress, "")
	posts := testenv.WordPressQuery(t, "SELECT ID, post_content FROM wp_posts WHERE post_type = 'post' AND post_status = 'publish' AND comment_count < 3 ORDER BY ID LIMIT 7")
	if len(posts) < 7 {
		t.Skipf("the WordPress has %d posts with few comments, want 7", len(posts))
	}
	exec := func(sql string) { testenv.WordPressQuery(t, sql) }
	t.Cleanup(func() {
		for _, p := range posts {
			exec("UPDATE wp_posts SET post_content = " + sqlString(p[1]) + ", post_status = 'publish' WHERE ID = " + p[0])
		}
		exec("DELETE FROM wp_comments WHERE comment_agent = 'mneme-analysis-test'")
		exec("UPDATE wp_posts p SET comment_count = (SELECT COUNT(*) FROM wp_comments c WHERE c.comment_post_ID = p.ID AND c.comment_approved = '1') WHERE p.ID = " + posts[4][0])
	})
	id := func(i int) string { return posts[i][0] }
	for i, para := range orgParagraphs {
		exec("UPDATE wp_posts SET post_content = CONCAT(post_content, " + sqlString("\n\n<p>"+para+"</p>") + ") WHERE ID = " + id(i))
	}
	for i, para := range personParagraphs {
		exec("UPDATE wp_posts SET post_content = CONCAT(post_content, " + sqlString("\n\n<p>"+para+"</p>") + ") WHERE ID = " + id(4+i))
	}
	data := t.TempDir()
	crawl := func(name string) {
		if code, _, errOut := mneme(t, "", "crawl", "--data", data, "--id", name, "--politeness", "off", base+"/"); code != 0 {
			t.Fatalf("crawl %s: exit %d: %s", name, code, errOut)
		}
	}
	crawl("first")

	// The site changes: the organisation renamed, comments on the person,
	// a post gone.
	for i := range orgParagraphs {
		exec("UPDATE wp_posts SET post_content = REPLACE(post_content, 'Northwind Trading', 'Southgate Holdings') WHERE ID = " + id(i))
	}
	for i, c := range append(append([]string(nil), critical...), approving...) {
		exec(fmt.Sprintf("INSERT INTO wp_comments (comment_post_ID, comment_author, comment_author_email, comment_date, comment_date_gmt, "+
			"comment_content, comment_approved, comment_agent, comment_type, comment_parent, user_id) VALUES (%s, %s, 'reader@example.invalid', "+
			"DATE_ADD(NOW(), INTERVAL %d MINUTE), DATE_ADD(UTC_TIMESTAMP(), INTERVAL %d MINUTE), %s, '1', 'mneme-analysis-test', 'comment', 0, 0)",
			id(4), sqlString(fmt.Sprintf("Reader %d", i+1)), i, i, sqlString(c)))
	}
	exec("UPDATE wp_posts p SET comment_count = (SELECT COUNT(*) FROM wp_comments c WHERE c.comment_post_ID = p.ID AND c.comment_approved = '1') WHERE p.ID = " + id(4))
	exec("UPDATE wp_posts SET post_status = 'draft' WHERE ID = " + id(6))
	crawl("second")

	for _, name := range []string{"first", "second"} {
		if code, out, errOut := mneme(t, "", "analyze", "--data", data, "--crawl", name); code != 0 {
			t.Fatalf("analyze %s: exit %d: %s", name, code, errOut)
		} else {
			t.Logf("analyze %s: %s", name, strings.TrimSpace(out))
		}
	}

	st, err := graph.Open(crawler.Layout{Data: data}.Store(), graph.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	query := func(q string) [][]string {
		t.Helper()
		pq, err := sparql.Prepare("PREFIX mneme: <"+ontology.MnemeNS+">\nPREFIX sioc: <http://rdfs.org/sioc/ns#>\nPREFIX prov: <http://www.w3.org/ns/prov#>\n"+q, sparql.Options{})
		if err != nil {
			t.Fatal(err)
		}
		v := st.Snapshot()
		defer v.Close()
		res, err := pq.Exec(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Close()
		var out [][]string
		for res.Next() {
			var row []string
			for _, x := range res.Row() {
				row = append(row, x.Value)
			}
			out = append(out, row)
		}
		if err := res.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// The objects of the posts the test touched, by the ID in their
	// permalink's capture: posts carry their permalink as IRI, so find
	// them by their text.
	objectWith := func(crawlID, text string) []string {
		var out []string
		for _, r := range query(`SELECT ?o WHERE { GRAPH <` + analysis.CrawlIRI(crawlID) + `> { ?o sioc:content ?c ; a sioc:Post FILTER (CONTAINS(?c, ` + rdf.String(text).String() + `)) } }`) {
			out = append(out, r[0])
		}
		return out
	}
	status := map[string]string{}
	summary := map[string]string{}
	for _, r := range query(`SELECT ?o ?s ?d WHERE { GRAPH <` + analysis.GraphIRI("second") + `> { ?v mneme:versionOf ?o ; mneme:versionStatus ?s OPTIONAL { ?v mneme:diffSummary ?d } } }`) {
		status[r[0]] = strings.TrimPrefix(r[1], ontology.MnemeNS+"Status")
		summary[r[0]] = r[2]
	}
	want := map[string]string{}
	for _, o := range objectWith("first", "Northwind Trading") {
		want[o] = "Changed"
	}
	var comments []string
	for _, c := range append(append([]string(nil), critical...), approving...) {
		comments = append(comments, objectWith("second", c)...)
	}
	for _, o := range comments {
		want[o] = "New"
	}
	deleted := testenv.WordPressQuery(t, "SELECT post_name FROM wp_posts WHERE ID = "+id(6))[0][0]
	for o := range status {
		if strings.Contains(o, "/"+deleted+"/") {
			want[o] = "Deleted"
		}
	}
	if n := len(objectWith("first", "Northwind Trading")); n != len(orgParagraphs) {
		t.Fatalf("the first crawl has %d posts naming Northwind Trading, want %d", n, len(orgParagraphs))
	}
	if len(comments) != len(critical)+len(approving) {
		t.Fatalf("the second crawl has %d of the %d new comments", len(comments), len(critical)+len(approving))
	}
	counts := map[string]int{}
	for o, s := range status {
		counts[s]++
		w := want[o]
		if w == "" {
			w = "Unchanged"
		}
		if s != w {
			t.Errorf("%s: %s, want %s", o, s, w)
		}
		if s == "Changed" && !strings.Contains(summary[o], "Southgate Holdings") {
			t.Errorf("%s: diff summary %q does not name the new name", o, summary[o])
		}
	}
	t.Logf("versions: %v", counts)
	if counts["Deleted"] == 0 {
		t.Errorf("no object of the deleted post %q is classified deleted", deleted)
	}

	renames := query(`SELECT ?score ?e WHERE { GRAPH <` + analysis.GraphIRI("second") + `> { ?x a mneme:NameChange ;
  mneme:formerName <urn:mneme:entity:northwind_trading> ; mneme:laterName <urn:mneme:entity:southgate_holdings> ;
  mneme:score ?score ; mneme:evidence ?e } }`)
	if len(renames) < 3 {
		t.Errorf("Southgate Holdings is not proposed as the new name of Northwind Trading with its evidence: %v", renames)
	}
	for _, r := range renames {
		t.Logf("rename score %s: %s", r[0], r[1])
	}
	all := query(`SELECT ?o ?n WHERE { GRAPH ?a { ?x a mneme:NameChange ; mneme:formerName ?o ; mneme:laterName ?n } }`)
	if len(all) != 1 {
		t.Errorf("name changes proposed: %v, want the one planted", all)
	}

	con := map[string]float64{}
	for _, r := range query(`SELECT ?c ?v WHERE { GRAPH ?a { ?m mneme:measuresOf <urn:mneme:entity:maria_keller> ; mneme:inCrawl ?c ; mneme:controversiality ?v } }`) {
		con[r[0]], _ = strconv.ParseFloat(r[1], 64)
	}
	first, second := con[analysis.CrawlIRI("first")], con[analysis.CrawlIRI("second")]
	t.Logf("controversiality of Maria Keller: %.2f, then %.2f", first, second)
	if len(con) != 2 || second <= first {
		t.Errorf("controversiality of Maria Keller: %v, want it higher in the second crawl", con)
	}
}
