package archive_test

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/tui"
	"github.com/mneme-archive/mneme/tui/archive"
	"github.com/mneme-archive/mneme/tui/console"
)

// TestBrowseToObjectHistory walks URL → captures → objects → the
// object's history query, which runs in the console.
func TestBrowseToObjectHistory(t *testing.T) {
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{})
	s := tuitest.Start(t, app)
	s.Press("2")
	s.Wait(t, "3 of 3")
	for _, url := range []string{"http://blog.example/", "http://blog.example/2026/hello", "http://blog.example/missing"} {
		if !strings.Contains(s.Screen(), url) {
			t.Errorf("URL list lacks %s:\n%s", url, s.Screen())
		}
	}
	s.Press("j", "enter") // the post's URL: two captures
	s.Wait(t, "2 of 2")
	if sc := s.Screen(); !strings.Contains(sc, "2026-05-01T10:00:02Z") || !strings.Contains(sc, "mneme:StatusChanged") {
		t.Errorf("captures of the post lack the first time or the second's change:\n%s", sc)
	}
	s.Press("j", "enter") // the second capture: the edited post, three types
	s.Wait(t, "capture 2026-06-01T10:00:02Z")
	s.Wait(t, "3 of 3")
	if sc := s.Screen(); !strings.Contains(sc, "Hello, world (edited)") || !strings.Contains(sc, "schema:BlogPosting") {
		t.Errorf("objects of the capture:\n%s", sc)
	}
	s.Press("enter") // the object's history, in the console
	s.Wait(t, "1 SPARQL")
	s.Wait(t, "rows ·")
	s.Finish(t)

	if app.Active() != 0 {
		t.Errorf("active screen %d, want the console", app.Active())
	}
	c := app.Screen(0).(*console.Model)
	if q := c.Query(); !strings.Contains(q, "<http://blog.example/2026/hello> prov:wasDerivedFrom ?capture") {
		t.Errorf("console query is not the object's history:\n%s", q)
	}
	titles := map[string]bool{}
	g := c.Grid()
	for range g.Len() {
		row, _ := g.Selected()
		if row[2].Value == "http://purl.org/dc/terms/title" {
			titles[row[3].Value] = true
		}
		g.Update(tuitest.Key("j"))
	}
	if !titles["Hello, world"] || !titles["Hello, world (edited)"] || len(titles) != 2 {
		t.Errorf("titles in the history %v, want both crawls' titles", titles)
	}
	if b := app.Screen(1).(*archive.Model); b.Depth() != 3 {
		t.Errorf("browser depth %d, want it left at the objects", b.Depth())
	}
}

func TestBackFilterAndQuery(t *testing.T) {
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{})
	s := tuitest.Start(t, app)
	s.Press("2")
	s.Wait(t, "3 of 3")
	s.Press("/")
	s.Type("missing")
	s.Press("enter")
	s.Wait(t, "1 of 3")
	s.Press("enter")
	s.Wait(t, "URLs › http://blog.example/missing")
	s.Wait(t, "404")
	s.Press("esc")
	s.Wait(t, "1 of 3") // back at the URL list, still filtered
	s.Press("s")        // the level's query, in the console
	s.Wait(t, "SELECT ?url (COUNT(?capture)")
	s.Finish(t)
	b := app.Screen(1).(*archive.Model)
	if b.Depth() != 1 || b.Breadcrumb() != "URLs" {
		t.Errorf("after esc: depth %d, breadcrumb %q", b.Depth(), b.Breadcrumb())
	}
	c := app.Screen(0).(*console.Model)
	if app.Active() != 0 || !strings.Contains(c.Query(), "COUNT(?capture)") {
		t.Errorf("s did not open the URL list's query in the console: screen %d, query %q", app.Active(), c.Query())
	}
}
