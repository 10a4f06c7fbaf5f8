package review_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/adapt"
	"github.com/mneme-archive/mneme/tui"
	"github.com/mneme-archive/mneme/tui/review"
)

// TestReview archives the fixture's blog post, records a learned title
// pattern and an unchecked one for it, then reviews them on the screen:
// the failed KB patterns, the preview (no title before, the headline
// after), accept, and reject after the question.
func TestReview(t *testing.T) {
	ctl := tuitest.NewControl(t, 1)
	ctx := context.Background()
	page := ctl.Site.URL("/post")
	ctl.Run(t, "r1", "id: r1\npoliteness: {off: true}\nrdf: {interval: 5ms}\nseeds: ["+page+"]\n")
	if err := ctl.Client.Events(ctx, "r1", func(s api.Status, end bool) error { return nil }); err != nil {
		t.Fatal(err)
	}
	l, err := adapt.OpenLearned(adapt.LearnedPath(ctl.Data))
	if err != nil {
		t.Fatal(err)
	}
	p := adapt.Proposal{Status: adapt.Pending, Site: ctl.Site.Host(), Type: "wordpress", Level: "post",
		Action: adapt.ActionField, Object: kb.BlogPost, Field: kb.FieldTitle, Pattern: ".//h2[contains(@class, 'headline')]",
		Replaces: []string{".//h1[contains(@class, 'entry-title')]", ".//h1"}, Method: adapt.MethodRelearn,
		Pages: []string{page}, Checked: 4, Learned: time.Now().UTC()}
	other := p
	other.Pattern, other.Method = ".//article/h2", adapt.MethodRelax
	if _, err := l.Add(p, other); err != nil {
		t.Fatal(err)
	}
	list := l.List()

	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{Client: ctl.Client, Interval: 50 * time.Millisecond})
	s := tuitest.Start(t, app)
	s.Press("4")
	s.Wait(t, "2 learned patterns")
	s.Wait(t, list[0].ID+"  pending")
	s.Wait(t, "wordpress/post: blog-post title")
	s.Wait(t, "replaces .//h1[contains(@class, 'entry-title')] | .//h1")
	s.Press("enter")
	s.Wait(t, "on "+page)
	s.Wait(t, "title: Barn owls nest again")
	sc := s.Screen()
	for _, want := range []string{"before", "after", "✗ field title failed", "content: Two chicks this spring."} {
		if !strings.Contains(sc, want) {
			t.Errorf("preview lacks %q:\n%s", want, sc)
		}
	}
	s.Press("a")
	s.Wait(t, "accepted "+list[0].ID)
	s.Wait(t, list[0].ID+"  accepted")
	s.Press("j", "x")
	s.Wait(t, fmt.Sprintf("Reject %s (wordpress/post: blog-post title)? (y/n)", list[1].ID))
	s.Press("y")
	s.Wait(t, list[1].ID+"  rejected")
	s.Finish(t)

	got := app.Screen(3).(*review.Model).Patterns()
	if len(got) != 2 || got[0].Status != api.Accepted || got[1].Status != api.Rejected {
		t.Errorf("patterns after the review: %+v", got)
	}
	reread, err := adapt.OpenLearned(adapt.LearnedPath(ctl.Data))
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := reread.Get(list[1].ID); a.Status != adapt.Rejected {
		t.Errorf("the file has %s %s", a.ID, a.Status)
	}
}
