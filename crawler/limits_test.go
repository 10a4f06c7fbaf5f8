package crawler

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/frontier"
)

// TestPageLimit ends a crawl once it has the pages it may fetch; only the
// URLs in flight then may add to them.
func TestPageLimit(t *testing.T) {
	site := newSite(t, "", 200)
	s := testSpec(t, site.URL("/p/0"))
	s.Politeness.Off = true
	s.Limits.Pages = 20
	st := crawl(t, s, Deps{})
	if st.State != StateFinished || !strings.Contains(st.Reason, "page limit reached (20)") {
		t.Errorf("state %s (%s)", st.State, st.Reason)
	}
	if bound := int64(20 + s.Workers + 2*s.RDF.Batch); st.Fetched < 20 || st.Fetched > bound {
		t.Errorf("%d fetched, want 20 to %d", st.Fetched, bound)
	}
	if st.Queued == 0 {
		t.Error("nothing left queued: the limit cut nothing")
	}
}

// TestHostBudget lets each queue claim host-pages URLs, robots.txt (a
// prerequisite, not claimed) aside.
func TestHostBudget(t *testing.T) {
	a, b := newSite(t, "127.0.0.1", 50), newSite(t, "127.0.0.2", 50)
	s := testSpec(t, a.URL("/p/0"), b.URL("/p/0"))
	s.Politeness.Off = true
	s.Limits.HostPages = 7
	var ev events
	st := crawl(t, s, Deps{OnFetch: ev.add})
	for _, site := range []*site{a, b} {
		if n := len(ev.byQueue(queueKey(site))); n != 7 {
			t.Errorf("%s: %d URLs fetched, want 7", queueKey(site), n)
		}
	}
	if st.QueueState[frontier.Exhausted] != 2 {
		t.Errorf("queue states %v, want both exhausted", st.QueueState)
	}
}
