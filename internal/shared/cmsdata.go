package shared

import (
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"regexp"
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
