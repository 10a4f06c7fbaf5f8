package campaign

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/social/socialrdf"
	"github.com/mneme-archive/mneme/social/socialtest"
)

// TestMain lets the kill test run a campaign in a child process: the
// test binary itself, told so by the environment.
func TestMain(m *testing.M) {
	if data := os.Getenv("MNEME_SOCIAL_TEST_CHILD"); data != "" {
		os.Exit(child(data))
	}
	os.Exit(m.Run())
}

// child runs the campaign of the data folder that MNEME_SOCIAL_TEST_CAMPAIGN
// names ("killed" by default) to its end.
func child(data string) int {
	id := os.Getenv("MNEME_SOCIAL_TEST_CAMPAIGN")
	if id == "" {
		id = "killed"
	}
	r, err := openRunner(Layout{Data: data}, id, os.Environ())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := r.Run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	r.Store.Close()
	return 0
}

// TestCampaignSurvivesKill9 kills a campaign's process three times at
// random points after it committed some pages, resumes it each time, and
// lets it finish: every post is stored once, with one observation, and
// the WARC files pass the verifier.
func TestCampaignSurvivesKill9(t *testing.T) {
	f := socialtest.NewFeed(t, 300, 6, token)
	f.Delay = 10 * time.Millisecond
	data := t.TempDir()
	l := Layout{Data: data}
	spec, err := Parse([]byte(fmt.Sprintf("id: killed\npairs:\n  - {platform: feed, kind: list, query: %q}\n", f.URL())), "spec")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Create(spec); err != nil {
		t.Fatal(err)
	}
	start := killThrice(t, l, "killed", f.Items, 15*time.Millisecond, "MNEME_SOCIAL_FEED_TOKEN="+token)
	if err := start().Wait(); err != nil {
		t.Fatalf("the resumed campaign failed: %v", err)
	}
	r := runner(t, l, "killed", nil)
	checkPosts(t, r.Store, "killed", f, 1)
	if st, _ := l.ReadState("killed"); st.State != Done {
		t.Errorf("state %+v", st)
	}
	files, _ := filepath.Glob(filepath.Join(l.WARCs("killed"), "*.warc.gz"))
	warctest.Check(t, files...)
	socialtest.NoSecret(t, data, token)
}

// killThrice runs campaign id of l in a child process (this test binary,
// with env added) and kills it with SIGKILL three times, each time once
// the run has committed a page or two of its own, at a random moment
// (up to jitter) of the next. Each kill must come mid-run: some but not
// all of the campaign's total posts committed. It returns how to start
// the child once more, to resume and finish.
func killThrice(t *testing.T, l Layout, id string, total int, jitter time.Duration, env ...string) (start func() *exec.Cmd) {
	start = func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "MNEME_SOCIAL_TEST_CHILD="+l.Data, "MNEME_SOCIAL_TEST_CAMPAIGN="+id)
		cmd.Env = append(cmd.Env, env...)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	pages := func() int {
		b, _ := os.ReadFile(l.Log(id))
		return bytes.Count(b, []byte(`"msg":"page"`))
	}
	midway := 0
	for kill := 0; kill < 3; kill++ {
		before := pages()
		cmd := start()
		waitFor(t, func() bool { return pages() >= before+1+kill%2 })
		time.Sleep(time.Duration(rand.Int64N(int64(jitter))))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		n := countPosts(t, l, id)
		t.Logf("kill %d: %d posts committed", kill+1, n)
		if n > 0 && n < total {
			midway++
		}
	}
	if midway < 3 {
		t.Errorf("only %d of the 3 kills came mid-run", midway)
	}
	return start
}

// countPosts counts the posts of campaign id, reading the store between
// two runs.
func countPosts(t *testing.T, l Layout, id string) int {
	st, err := graph.Open(l.Store(), graph.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows := query(t, st, `SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { GRAPH <`+socialrdf.CampaignIRI(id)+`> { ?p a <http://rdfs.org/sioc/ns#Post> } }`)
	var n int
	fmt.Sscan(rows[0][0].Value, &n)
	return n
}
