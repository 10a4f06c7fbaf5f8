package adapt

import (
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

var client = &http.Client{Timeout: 20 * time.Second}

// fetch GETs u and returns its virtual document.
func fetch(tb testing.TB, u string) *vdoc.Doc {
	tb.Helper()
	resp, err := client.Get(u)
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
	d, err := vdoc.New(resp.Request.URL.String(), resp.Header, body)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func builtin(tb testing.TB) *kb.KB {
	tb.Helper()
	k, err := kb.Builtin()
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

// crawl follows the navigation actions of k from start, level by level,
// as the application-aware crawler does, and returns the pages of each
// level (URL → document), at most max pages in all. Navigation to the
// levels in skip is not followed.
func crawl(tb testing.TB, k *kb.KB, start string, max int, skip ...string) map[string]map[string]*vdoc.Doc {
	tb.Helper()
	det := kb.NewDetector(k, nil)
	out := map[string]map[string]*vdoc.Doc{}
	queue := []string{start}
	seen := map[string]bool{start: true}
	for n := 0; len(queue) > 0 && n < max; n++ {
		u := queue[0]
		queue = queue[1:]
		doc := fetch(tb, u)
		d := det.Detect(doc)
		if d.Type == nil || d.Level == nil {
			continue
		}
		if out[d.Level.Name] == nil {
			out[d.Level.Name] = map[string]*vdoc.Doc{}
		}
		out[d.Level.Name][u] = doc
		links, _ := d.Type.Navigate(d.Level, doc)
		for _, l := range links {
			if !seen[l.URL] && !contains(skip, l.Target) {
				seen[l.URL] = true
				queue = append(queue, l.URL)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// restrict returns k with type id cut down to the alternatives (branches
// of unions taken apart) that fired on the given pages of each level:
// for each page, the first that selected something. That is the
// knowledge base as it would be written for the site's old template: the
// shipped entries know several themes at once, and a template change
// among those themes would leave nothing to adapt.
func restrict(tb testing.TB, k *kb.KB, id string, pages map[string]map[string]*vdoc.Doc) *kb.KB {
	tb.Helper()
	out := &kb.KB{}
	for _, t := range k.Types {
		if t.ID != id {
			out.Types = append(out.Types, t)
			continue
		}
		t = cloneType(t)
		for _, l := range t.Levels {
			docs := pages[l.Name]
			for _, n := range l.Navigate {
				n.Select = firing(tb, n.Select, docs, func(p *kb.Pattern, d *vdoc.Doc) bool { return len(p.Select(d.Root)) > 0 })
			}
			for _, x := range l.Extract {
				for f, alts := range x.Fields {
					x.Fields[f] = firing(tb, alts, docs, func(p *kb.Pattern, d *vdoc.Doc) bool {
						for _, r := range x.Records.Select(d.Root) {
							o := kb.Object{Kind: x.Object}
							if kb.ExtractField(&o, f, []*kb.Pattern{p}, r.Node, d) {
								return true
							}
						}
						return false
					})
				}
			}
		}
		out.Types = append(out.Types, t)
	}
	return out
}

// firing returns the union branches of alts that are the first to give
// something on one of docs; alts unchanged when none is.
func firing(tb testing.TB, alts []*kb.Pattern, docs map[string]*vdoc.Doc, gives func(*kb.Pattern, *vdoc.Doc) bool) []*kb.Pattern {
	var branches []*kb.Pattern
	for _, a := range alts {
		srcs := []string{a.String()}
		if a.NodeSet() {
			srcs = splitUnion(a.String())
		}
		for _, b := range srcs {
			p, err := compile(b)
			if err != nil {
				tb.Fatalf("branch %q of %q: %v", b, a, err)
			}
			branches = append(branches, p)
		}
	}
	fired := map[int]bool{}
	for _, d := range docs {
		for i, p := range branches {
			if gives(p, d) {
				fired[i] = true
				break
			}
		}
	}
	var out []*kb.Pattern
	for i, p := range branches {
		if fired[i] {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return alts
	}
	return out
}

// wpQuery runs SQL on the WordPress database with the mysql client and
// returns the rows, tab-separated fields unescaped.
func wpQuery(tb testing.TB, sql string) [][]string {
	tb.Helper()
	if _, err := exec.LookPath("mysql"); err != nil {
		tb.Skip("no mysql client to read the WordPress database: run bash ../shared/cms/setup-cms.sh")
	}
	out, err := exec.Command("mysql", "-h", "127.0.0.1", "-u", "wordpress", "-paah-wp-db-pass", "wordpress",
		"-N", "-B", "-e", sql).Output()
	if err != nil {
		tb.Fatalf("mysql: %v", err)
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
