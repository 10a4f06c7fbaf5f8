package adapt

import (
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

var client = &http.Client{Timeout: 20 * time.Second}

// getDoc GETs u and returns its virtual document.
func getDoc(u string) (*vdoc.Doc, error) {
	resp, err := client.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return vdoc.New(resp.Request.URL.String(), resp.Header, body)
}

// fetch is getDoc for the test's goroutine: an error ends the test.
func fetch(tb testing.TB, u string) *vdoc.Doc {
	tb.Helper()
	d, err := getDoc(u)
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

// requireChange logs the findings of relearning and fails the test when
// none is a template change.
func requireChange(t *testing.T, findings []Finding) {
	t.Helper()
	changed := false
	for _, f := range findings {
		t.Logf("finding %s %s: agreed %d, structural %d, deleted %d", f.Object, f.Field, f.Agreed, f.Structural, f.Deleted)
		changed = changed || f.Changed()
	}
	if !changed {
		t.Fatal("no template change detected")
	}
}

func logProposals(t *testing.T, props []Proposal) {
	t.Helper()
	for _, p := range props {
		t.Logf("%s %s: %s (%d relaxations of %q) on %d/%d pages", p.Method, p.What(), p.Pattern, p.Relaxations, p.Replaces, len(p.Pages), p.Checked)
	}
}

// checkAdapted logs the figures of one case ("what: a/n objects right
// before adapting, b/n after") and requires at least 95 % right after,
// and fewer before: a change that broke nothing tests nothing.
func checkAdapted(t *testing.T, what string, before, after, n, learned int, wrong []string) {
	t.Helper()
	t.Logf("%s: %d/%d right before adapting, %d/%d after (%d patterns learned)", what, before, n, after, n, learned)
	if after*100 < n*95 {
		t.Errorf("%s: %d/%d right after adapting, want ≥ 95 %%: %q", what, after, n, wrong)
	}
	if before*100 >= n*95 {
		t.Errorf("%s: %d/%d right before adapting: the template change broke nothing", what, before, n)
	}
}
