package crawler

import (
	"net/http"
	"testing"

	"github.com/mneme-archive/mneme/ontology"
)

// TestRecrawlRevisesEarlierCrawl crawls a site twice into one data folder,
// changing one page in between: the second crawl's captures revise the
// first's, the unchanged ones are revisit records of the first crawl's
// records and the changed page is stored anew.
func TestRecrawlRevisesEarlierCrawl(t *testing.T) {
	s := newSite(t, "", 7)
	first := testSpec(t, s.URL("/p/0"))
	first.ID, first.Politeness.Off = "first", true
	st := openStore(t, first.Output)
	crawl(t, first, Deps{Store: st})
	s.Lock()
	s.Override["/p/3"] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body>page 3, edited</body></html>"))
	}
	s.Unlock()
	second := testSpec(t, s.URL("/p/0"))
	second.ID, second.Output, second.Politeness.Off = "second", first.Output, true
	crawl(t, second, Deps{Store: st})

	url1, url2 := objects(t, st, "first", ontology.URL), objects(t, st, "second", ontology.URL)
	change, prev := objects(t, st, "second", ontology.ChangeStatus), objects(t, st, "second", ontology.ProvWasRevisionOf)
	dup := objects(t, st, "second", ontology.DuplicateOf)
	byURL := map[string]string{} // first crawl's capture of each URL
	for c, u := range url1 {
		byURL[u[0]] = c
	}
	w1, w2 := warcCaptures(t, first.Output, "first"), warcCaptures(t, first.Output, "second")
	n := 0
	for c, u := range url2 {
		if len(change[c]) == 0 || change[c][0] == ontology.StatusUnknown {
			continue // no payload to compare
		}
		n++
		want := ontology.StatusUnchanged
		if u[0] == s.URL("/p/3") {
			want = ontology.StatusChanged
		}
		if change[c][0] != want {
			t.Errorf("%s: change %s, want %s", u[0], change[c][0], want)
		}
		if len(prev[c]) != 1 || prev[c][0] != byURL[u[0]] {
			t.Errorf("%s: revision of %v, want the first crawl's capture %s", u[0], prev[c], byURL[u[0]])
		}
		if u[0] == s.URL("/robots.txt") {
			continue // a 404, unchanged but not deduplicated (an error page)
		}
		recs := w2[u[0]]
		if len(recs) != 1 {
			t.Fatalf("%s: %d records in the second crawl", u[0], len(recs))
		}
		r := recs[0]
		if want == ontology.StatusChanged {
			if r.kind != "response" || len(dup[c]) != 0 {
				t.Errorf("%s changed: a %s record, duplicate of %v; want a response", u[0], r.kind, dup[c])
			}
			continue
		}
		orig := w1[u[0]]
		if r.kind != "revisit" || r.profile != "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest" ||
			len(orig) != 1 || r.refersTo != orig[0].id || len(dup[c]) != 1 || dup[c][0] != orig[0].id {
			t.Errorf("%s unchanged: %s record %s referring to %s (duplicate of %v); want a revisit of the first crawl's %v", u[0], r.kind, r.profile, r.refersTo, dup[c], orig)
		}
	}
	if n != 9 { // seven pages, the logo and robots.txt
		t.Errorf("%d captures compared with the first crawl, want 9", n)
	}
	verifyWARCs(t, first.Output, "second")
}
