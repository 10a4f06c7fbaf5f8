package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/internal/synthweb"
)

// tmux drives a program in a detached tmux session of its own server
// (socket in a temporary folder), 80×24.
type tmux struct {
	t    *testing.T
	sock string
}

func newTmux(t *testing.T, command string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed; .ci/run installs it")
		}
		t.Skip("tmux is not installed (CI installs it): the end-to-end TUI test needs it")
	}
	dir, err := os.MkdirTemp("", "mneme-tmux")
	if err != nil {
		t.Fatal(err)
	}
	x := &tmux{t: t, sock: filepath.Join(dir, "sock")}
	t.Cleanup(func() {
		exec.Command("tmux", "-S", x.sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	x.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "e2e", command)
	return x
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.sock}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys sends key names (tmux's: Enter, Escape, C-r) one by one.
func (x *tmux) keys(names ...string) {
	x.t.Helper()
	for _, k := range names {
		x.run("send-keys", "-t", "e2e", k)
		if k == "Escape" {
			// A key right after ESC would read as alt+key: the terminal
			// tells them apart by the pause between.
			time.Sleep(300 * time.Millisecond)
		}
	}
}

// text types text literally.
func (x *tmux) text(s string) {
	x.t.Helper()
	x.run("send-keys", "-t", "e2e", "-l", s)
}

func (x *tmux) screen() string {
	x.t.Helper()
	return x.run("capture-pane", "-p", "-t", "e2e")
}

// wait waits until the screen matches pattern and returns the match's
// groups. The deadline is for a hung program, not a speed assertion.
func (x *tmux) wait(pattern string) []string {
	x.t.Helper()
	re := regexp.MustCompile(pattern)
	deadline := time.Now().Add(60 * time.Second)
	for {
		sc := x.screen()
		if m := re.FindStringSubmatch(sc); m != nil {
			return m
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("the screen never matched %q; last screen:\n%s", pattern, sc)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestTUIInTmux drives the real binary in tmux on the data of mneme
// demo: creates a crawl from a spec file and starts it, watches its
// pages go up, pauses and resumes it, opens its detail, runs a query in
// the SPARQL console and cancels a slow one, opens the help overlay,
// creates a crawl from a URL longer than the screen and reads that URL
// whole in its frontier, and quits, confirming that the running crawl
// stops.
func TestTUIInTmux(t *testing.T) {
	data := filepath.Join(t.TempDir(), "mneme-data")
	x := newTmux(t, "sleep 600") // skips early when tmux is absent
	if err := runDemo(context.Background(), data, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	ln, err := synthweb.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	site := synthweb.ServeOn(ln, synthweb.NewBigSite(synthweb.BigOptions{Pages: 3000, MinLinks: 5, MaxLinks: 10, MinBytes: 2000, MaxBytes: 4000}))
	defer site.Close()
	// Politeness delays keep the crawl going for minutes: it is running
	// still when the test quits.
	specFile := filepath.Join(t.TempDir(), "e2e.yaml")
	spec := fmt.Sprintf("id: e2e\nseeds: [%s/]\npoliteness: {min-delay: 20ms, max-delay: 50ms, delay-factor: 1}\nrdf: {interval: 25ms}\n", site.URL)
	if err := os.WriteFile(specFile, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	exit := filepath.Join(t.TempDir(), "exit")
	x.run("respawn-pane", "-k", "-t", "e2e", fmt.Sprintf("env %s=1 TERM=xterm-256color %q tui --data %q; echo $? > %q; sleep 600",
		asMneme, os.Args[0], data, exit))

	x.wait(`demo-\S+ +finished +█+ 100%`)
	x.keys("n")
	x.wait("spec file:")
	x.text(specFile)
	x.keys("Enter")
	x.wait("created crawl e2e")
	x.keys("s") // the cursor is on the crawl just created

	pages := func(state string) int {
		n, _ := strconv.Atoi(x.wait(`e2e +` + state + ` +\S* *\d+% +(\d+) `)[1])
		return n
	}
	first := pages("running")
	for pages("running") <= first {
		time.Sleep(200 * time.Millisecond)
	}
	x.keys("p")
	paused := pages("paused")
	x.keys("r")
	for pages("running") <= paused {
		time.Sleep(200 * time.Millisecond)
	}
	x.keys("Enter")
	x.wait(`crawl e2e · running`)
	x.wait(`127\.0\.0\.1:\d+ +(busy|snoozed|ready)`)
	x.wait(`MNEME-e2e-\S+\.warc\.gz`)

	x.keys("5", "e")
	x.text("SELECT ?c ?u WHERE { ?c a <https://w3id.org/mneme#Capture> ; <https://w3id.org/mneme#url> ?u } LIMIT 5")
	x.keys("C-r")
	x.wait(`5 rows · `)
	x.wait(`urn:uuid:`)
	x.keys("e", "C-a", "C-k") // a new query in place of the first
	x.text("SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }")
	x.keys("C-r")
	x.wait(`query running… \(esc cancels\)`)
	x.keys("Escape")
	x.wait(`✗ cancelled after`)

	x.keys("Escape", "?") // leave the editor, where ? is typed

	x.wait(`SPARQL keys`)
	x.wait(`q/ctrl\+c +quit`)
	x.keys("Escape")

	// A crawl from a URL, with the default spec, started at once (the
	// cursor is on it); its crawl.log shows the seed, longer than the
	// screen is wide, whole under the rows.
	long := site.URL + "/archive/" + strings.Repeat("a-rather-long-path-segment/", 4) + "last-page.html"
	x.keys("1", "n")
	x.wait("seed URLs or spec file:")
	x.text(long)
	x.keys("Enter")
	x.wait(`created crawl crawl-\S+ from http`)
	x.keys("s")
	x.wait(`start crawl-\S+: running`)
	x.keys("Enter")
	x.wait(`crawl crawl-\S+ · `)
	x.wait(`(?m)^› ` + regexp.QuoteMeta(long[:78]) + `\n` + regexp.QuoteMeta(long[78:]) + `$`)

	x.keys("q")
	x.wait(`Quit\? (a crawl is|\d+ crawls are) running and would stop \(y/n\)`)
	x.keys("y")
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, err := os.ReadFile(exit)
		if err == nil && len(b) > 0 {
			if code := strings.TrimSpace(string(b)); code != "0" {
				t.Fatalf("mneme tui exited with %s; screen:\n%s", code, x.screen())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("mneme tui did not exit; screen:\n%s", x.screen())
		}
		time.Sleep(100 * time.Millisecond)
	}
	st, err := crawler.ReadStatus(data, "e2e")
	if err != nil || st.State != crawler.StateStopped {
		t.Errorf("crawl after quitting: %+v, %v; want it stopped", st, err)
	}
}
