package testenv

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// WordPressQuery runs SQL on the WordPress database of setup-cms.sh, the
// ground truth for the site's posts and comments, with the mysql client,
// and returns the rows, their tab-separated fields unescaped. The test is
// skipped when there is no mysql client.
func WordPressQuery(tb testing.TB, sql string) [][]string {
	tb.Helper()
	if _, err := exec.LookPath("mysql"); err != nil {
		tb.Skip("no mysql client to read the WordPress database: run bash ../shared/cms/setup-cms.sh")
	}
	out, err := exec.Command("mysql", "-h", "127.0.0.1", "-u", "wordpress", "-paah-wp-db-pass", "wordpress",
		"-N", "-B", "-e", sql).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		tb.Fatalf("mysql: %v %s", err, msg)
	}
	var rows [][]string
	unescape := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\0`, "\x00")
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		for i := range fields {
			fields[i] = unescape.Replace(fields[i])
		}
		rows = append(rows, fields)
	}
	return rows
}

// cmsClient fetches pages of the real CMSs for tests.
var cmsClient = &http.Client{Timeout: 30 * time.Second}

// Get fetches u (on one of the real CMSs) and returns the body of its 200
// response, with the response, whose Request.URL is where redirects led.
func Get(tb testing.TB, u string) ([]byte, *http.Response) {
	tb.Helper()
	resp, err := cmsClient.Get(u)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s: %s", u, resp.Status)
	}
	return body, resp
}

// GetJSON GETs u (the MediaWiki API, for instance) and decodes its JSON
// body into v.
func GetJSON(tb testing.TB, u string, v any) {
	tb.Helper()
	body, _ := Get(tb, u)
	if err := json.Unmarshal(body, v); err != nil {
		tb.Fatalf("%s: %v", u, err)
	}
}

var wikiMarkup = regexp.MustCompile(`\[\[(?:[^|\]]*\|)?([^\]]*)\]\]|'''?|==+|\{\{[^}]*\}\}|\[https?://\S+ ([^\]]*)\]|<[^>]*>`)

// WikiText is the words of MediaWiki wikitext, what a rendered article's
// text is compared with: link labels kept, markup dropped.
func WikiText(s string) string {
	return wikiMarkup.ReplaceAllString(s, " $1$2 ")
}

// WikiPage is a MediaWiki page as the wiki's API gives it: its last
// revision's time and wikitext, and its categories (without the
// "Category:" prefix, sorted).
type WikiPage struct {
	Modified   time.Time
	Wikitext   string
	Categories []string
}

// MediaWikiPage reads the page titled title of the MediaWiki at base
// through its API, the ground truth for what an extractor should find.
func MediaWikiPage(tb testing.TB, base, title string) WikiPage {
	tb.Helper()
	var rev struct {
		Query struct {
			Pages map[string]struct {
				Revisions []struct {
					Timestamp string `json:"timestamp"`
					Slots     struct {
						Main struct {
							Content string `json:"*"`
						} `json:"main"`
					} `json:"slots"`
				} `json:"revisions"`
				Categories []struct{ Title string } `json:"categories"`
			} `json:"pages"`
		} `json:"query"`
	}
	GetJSON(tb, base+"/api.php?action=query&prop=revisions|categories&rvprop=timestamp|content&rvslots=main&format=json&titles="+url.QueryEscape(title), &rev)
	for _, pg := range rev.Query.Pages {
		if len(pg.Revisions) == 0 {
			break
		}
		ts, err := time.Parse(time.RFC3339, pg.Revisions[0].Timestamp)
		if err != nil {
			tb.Fatalf("%s: revision time: %v", title, err)
		}
		p := WikiPage{Modified: ts, Wikitext: pg.Revisions[0].Slots.Main.Content}
		for _, c := range pg.Categories {
			p.Categories = append(p.Categories, strings.TrimPrefix(c.Title, "Category:"))
		}
		slices.Sort(p.Categories)
		return p
	}
	tb.Fatalf("%s: the wiki's API has no revision of this page", title)
	return WikiPage{}
}
