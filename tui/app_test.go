package tui_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/tui"
)

func TestSwitchScreens(t *testing.T) {
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{})
	s := tuitest.Start(t, app)
	var seen []int
	step := func(key string, want int) {
		s.Press(key)
		s.Wait(t, map[int]string{0: "e edits the query", 1: "URLs"}[want])
		seen = append(seen, want)
	}
	step("tab", 1)
	step("tab", 0)
	step("shift+tab", 1)
	step("1", 0)
	step("2", 1)
	s.Press("9") // no ninth screen: nothing changes
	s.Finish(t)
	if app.Active() != 1 {
		t.Errorf("active %d after 9, want 1 still", app.Active())
	}
}

func TestHelpOverlay(t *testing.T) {
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{})
	s := tuitest.Start(t, app)
	s.Press("?")
	s.Wait(t, "SPARQL keys")
	for _, want := range []string{"run the query", "export results", "next/previous screen", "filter rows"} {
		if !strings.Contains(s.Screen(), want) {
			t.Errorf("console help lacks %q:\n%s", want, s.Screen())
		}
	}
	s.Press("esc", "2", "?")
	s.Wait(t, "Archive keys")
	if strings.Contains(s.Screen(), "run the query") || !strings.Contains(s.Screen(), "back one level") {
		t.Errorf("archive help shows the wrong keys:\n%s", s.Screen())
	}
	s.Press("esc")
	s.Wait(t, "URLs")
	s.Finish(t)
	if app.HelpShown() {
		t.Error("help still shown after esc")
	}
}

func TestQuitConfirmationWhileQueryRuns(t *testing.T) {
	app := tui.New(tuitest.Backend(t, 3000), t.TempDir(), "fixture", tui.Crawls{})
	s := tuitest.Start(t, app)
	s.Press("e")
	s.Type("SELECT (COUNT(*) AS ?n) { ?a <urn:example:p> ?x . ?b <urn:example:p> ?y . ?c <urn:example:p> ?z }")
	s.Press("ctrl+r")
	s.Wait(t, "query running")
	s.Press("ctrl+c")
	s.Wait(t, "Quit? a query is running (y/n)")
	s.Press("n")
	s.Wait(t, "? help")
	s.Press("ctrl+c")
	s.Wait(t, "Quit? a query is running")
	s.Press("y")
	s.TM.WaitFinished(t)
	if !app.Quitting() {
		t.Error("y did not quit")
	}
}

func TestQuitWithoutWorkNeedsNoConfirmation(t *testing.T) {
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{})
	s := tuitest.Start(t, app)
	s.Press("q")
	s.TM.WaitFinished(t)
	if !app.Quitting() || app.Confirming() {
		t.Errorf("quitting %v, confirming %v", app.Quitting(), app.Confirming())
	}
}

// TestResize renders at several sizes: every line fits, and the view
// is exactly as tall as the terminal.
func TestResize(t *testing.T) {
	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{})
	s := tuitest.Start(t, app)
	s.Press("2")
	s.Wait(t, "3 of 3")
	for _, size := range [][2]int{{120, 40}, {40, 12}, {80, 24}} {
		s.TM.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		s.Press("?", "esc") // a key after the resize: its view is the new size's
		s.Wait(t, "URLs")
		want := size
		for {
			lines := strings.Split(s.Screen(), "\n")
			if len(lines) == want[1] {
				for _, l := range lines {
					if n := len([]rune(l)); n > want[0] {
						t.Errorf("%dx%d: line of %d cells: %q", want[0], want[1], n, l)
					}
				}
				break
			}
			s.Wait(t, "URLs")
		}
	}
	s.Finish(t)
}

var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-79]|9[0-7]|38;[25])[;m]`)

// TestColourDegrades checks the colour profile Bubble Tea picks from the
// environment: colours on a colour terminal, none for TERM=dumb or
// NO_COLOR.
func TestColourDegrades(t *testing.T) {
	for _, tc := range []struct {
		env    []string
		colour bool
	}{
		{[]string{"TTY_FORCE=1", "TERM=xterm-256color"}, true},
		{[]string{"TTY_FORCE=1", "TERM=dumb"}, false},
		{[]string{"TTY_FORCE=1", "TERM=xterm-256color", "NO_COLOR=1"}, false},
	} {
		app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{})
		s := tuitest.Start(t, app, tea.WithEnvironment(tc.env))
		s.Press("e")
		s.Type("SELECT ?x {") // a syntax error: its message is red
		s.Press("ctrl+r")
		// Wait for the frame with the error to reach the terminal, not
		// just the view: the renderer writes at its own pace.
		var out string
		teatest.WaitFor(t, s.TM.Output(), func(b []byte) bool {
			out = string(b)
			return strings.Contains(ansi.Strip(out), "syntax error")
		}, teatest.WithDuration(20*time.Second))
		s.Finish(t)
		if got := colourSGR.MatchString(out); got != tc.colour {
			t.Errorf("%v: colour escapes %v, want %v", tc.env, got, tc.colour)
		}
	}
}
