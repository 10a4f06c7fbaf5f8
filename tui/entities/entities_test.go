package entities_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mneme-archive/mneme/internal/analysistest"
	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/tui"
)

// row waits for a line of the screen matching re (the table pads columns).
func row(t *testing.T, s *tuitest.Session, re string) {
	t.Helper()
	r := regexp.MustCompile(`(?m)` + re)
	for deadline := time.Now().Add(30 * time.Second); !r.MatchString(s.Screen()); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no line %s; last screen:\n%s", re, s.Screen())
		}
	}
}

// TestEntityScreen analyses an archive in which an organisation is
// renamed, then walks the screen: find the new name, its timeline, its
// names with the proposed rename, to the old name, to its neighbour, and
// from a mention to the archived object's history in the console.
func TestEntityScreen(t *testing.T) {
	ctl := tuitest.NewControl(t, 3)
	c := analysistest.Renamed()
	analysistest.Load(t, ctl.Store, c)
	analysistest.Analyse(t, ctl.Client, c)
	ctx := context.Background()
	keller, err := ctl.Client.Entity(ctx, "maria_keller", 200)
	if err != nil {
		t.Fatal(err)
	}

	app := tui.New(ctl.Backend(t), t.TempDir(), "daemon", tui.Crawls{Client: ctl.Client, Interval: 50 * time.Millisecond})
	s := tuitest.Start(t, app)
	s.Press("8")
	s.Wait(t, "most popular entities")
	s.TM.Send(tea.WindowSizeMsg{Width: 160, Height: 40}) // room for the evidence
	s.Wait(t, "8 Entities    ")
	row(t, s, `^Maria Keller +person +`+fmt.Sprint(keller.Popularity)+` +2 +maria_keller`)
	s.Press("f")
	s.Wait(t, "find an entity (name or alias): ")
	s.Type("southgate")
	s.Press("enter")
	s.Wait(t, `1 entities named "southgate"`)
	s.Press("enter")
	s.Wait(t, "Entity · Southgate Holdings (organization)")
	// One crawl names it: its timeline has one row, popularity 8 (the
	// new posts of the second crawl).
	row(t, s, `^popularity +█  8 → 8`)
	row(t, s, `^blog-2 +2026-03-09 09:00 +8 +`)

	s.Press("n")
	row(t, s, `^Northwind Trading +renamed from \(proposed\) +blog-1 → blog-2 +0\.\d\d +"northwind trading" was named in 8`)
	s.Press("j", "j")
	s.Wait(t, "› ") // the evidence whole under the rows
	s.Press("enter")
	s.Wait(t, "Entity · Northwind Trading (organization)")
	row(t, s, `^blog-1 +2026-03-02 09:00 +8 +`)
	row(t, s, `^blog-2 +2026-03-09 09:00 +3 +`)
	s.Press("c")
	row(t, s, `^Maria Keller +\d+ +2 `)
	s.Press("enter")
	s.Wait(t, "Entity · Maria Keller (person)")
	// Opinion on her splits in the second crawl.
	row(t, s, fmt.Sprintf(`^controversiality +.. +%.2f → %.2f`, keller.Measures[0].Controversiality, keller.Measures[1].Controversiality))
	s.Press("m")
	s.Wait(t, fmt.Sprintf("m mentions %d/%d", len(keller.Mentions), keller.MentionsAll))
	first := keller.Mentions[0]
	s.Wait(t, "› "+first.Object+" · capture "+first.Capture)
	s.Press("enter")
	// The console shows the object's history and runs it.
	s.Wait(t, "prov:wasDerivedFrom ?capture")
	row(t, s, `^2026-03-09T09:00:\d\dZ +<urn:mneme:crawl:blog-2> +sioc:content +\S`)
	s.Press("esc", "8", "esc")
	s.Wait(t, "Entity · Northwind Trading (organization)")
	s.Press("esc")
	s.Wait(t, "Entity · Southgate Holdings (organization)")
	s.Press("esc")
	s.Wait(t, `1 entities named "southgate"`)
	s.Finish(t)
}
