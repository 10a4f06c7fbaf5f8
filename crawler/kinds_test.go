package crawler

import (
	"net/http"
	"reflect"
	"testing"
)

// TestMissingRobotsIsNoError crawls a site without robots.txt (404) and
// with one broken link: the broken link is an error, the missing
// robots.txt is not, live and as recounted from crawl.log.
func TestMissingRobotsIsNoError(t *testing.T) {
	site := newSite(t, "", 3)
	site.Override["/p/2"] = func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }
	s := testSpec(t, site.URL("/p/0"))
	s.Politeness.Off = true
	st := crawl(t, s, Deps{})
	want := map[string]int64{"http 404": 1}
	if !reflect.DeepEqual(st.Errors, want) {
		t.Errorf("errors of the crawl %v, want %v", st.Errors, want)
	}
	if site.Hits("/robots.txt") != 1 {
		t.Fatalf("robots.txt fetched %d times, want once", site.Hits("/robots.txt"))
	}
	read, err := ReadFigures(s.Output, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(read.Errors, want) {
		t.Errorf("errors recounted from crawl.log %v, want %v", read.Errors, want)
	}
}
