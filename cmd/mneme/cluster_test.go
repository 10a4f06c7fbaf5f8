package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/control/cluster"
	"github.com/mneme-archive/mneme/crawler"
)

// nodeAPI waits for the control API a running node notes in its data
// folder and returns a client of it.
func nodeAPI(t *testing.T, n *clusterNode) *api.Client {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		u, ok := servedURL(crawler.Layout{Data: n.data}.Store())
		tok, err := os.ReadFile(crawler.Layout{Data: n.data}.Token())
		if ok && err == nil {
			return &api.Client{Base: strings.TrimSuffix(u, "/sparql"), Token: strings.TrimSpace(string(tok))}
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s serves no control API:\n%s", n.name, n.out)
		}
	}
}

// requests copies the web's request counts, robots.txt included.
func (w *testWeb) requests() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return maps.Clone(w.hits)
}

// TestNodesPauseCluster pauses a crawl run by node processes from one
// node's control API: once the pause returns, no node fetches anything,
// also a node that joins the paused cluster (and is handed queues) and a
// node killed and restarted meanwhile. mneme cluster, pointed at another
// node, resumes it, and the crawl completes with every page fetched once:
// the kill came while nothing was in flight.
func TestNodesPauseCluster(t *testing.T) {
	const hosts, ips, pages = 12, 6, 6
	web := serveTestWeb(t, hosts, ips, pages, 20*time.Millisecond)
	ns, err := cluster.Embedded(t.TempDir(), "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Shutdown()
	specFile := web.spec(t, 1, 100*time.Millisecond)
	dir := t.TempDir()
	data := func(name string) string { return filepath.Join(dir, name) }
	nodes := map[string]*clusterNode{}
	for _, name := range []string{"n1", "n2"} {
		nodes[name] = startNode(t, web, ns.ClientURL(), specFile, name, data(name))
	}
	c1 := nodeAPI(t, nodes["n1"])
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if n, _ := web.snapshot(); n >= 12 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the crawl never got going:\n%s\n%s", nodes["n1"].out, nodes["n2"].out)
		}
	}

	ctx := context.Background()
	start := time.Now()
	cl, err := c1.ClusterPause(ctx, true, 30*time.Second)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("pausing through n1: %v\n%s", err, nodes["n1"].out)
	}
	if !cl.Pause.Paused || cl.Pause.By != "n1" {
		t.Fatalf("the pause: %+v", cl.Pause)
	}
	pausedAt := time.Now()
	atPause, _ := web.snapshot()
	before := web.requests()
	if atPause >= hosts*pages {
		t.Fatalf("the crawl was over (%d pages) before the pause", atPause)
	}

	// n3 joins the paused cluster; n2 is killed and restarted. Both
	// hold queued URLs, and fetch none of them.
	nodes["n3"] = startNode(t, web, ns.ClientURL(), specFile, "n3", data("n3"))
	if err := nodes["n2"].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-nodes["n2"].done
	restarted := time.Now()
	nodes["n2"] = startNode(t, web, ns.ClientURL(), specFile, "n2", data("n2"))
	// Three heartbeats each of the restarted n2 and of n3 with URLs
	// queued: time enough to fetch some, were they not paused.
	beats := map[string]map[time.Time]bool{"n2": {}, "n3": {}}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		st, err := c1.ClusterStatus(ctx)
		for _, n := range st.Nodes {
			// n1's view may still hold a heartbeat written while the
			// pause waited for a node's fetches: those after count.
			if n.Beat.After(pausedAt) && (!n.Paused || n.PauseRev != cl.Pause.Rev || n.InFlight > 0) {
				t.Fatalf("node %s in the paused cluster: %+v\n%s", n.Name, n, nodes[n.Name].out)
			}
			if b := beats[n.Name]; b != nil && n.Started.After(restarted) && n.Queued > 0 {
				b[n.Beat] = true
			}
		}
		if err == nil && len(st.Nodes) == 3 && len(beats["n2"]) >= 3 && len(beats["n3"]) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("n2 and n3 never held queued URLs in the paused cluster: %+v %v", st.Nodes, err)
		}
	}
	if after := web.requests(); !maps.Equal(after, before) {
		for k, n := range after {
			if n != before[k] {
				t.Errorf("%s requested %d times during the pause (%d before)", k, n-before[k], before[k])
			}
		}
		t.FailNow()
	}
	code, out, errOut := mneme(t, "", "cluster", "status", "--cluster", ns.ClientURL(), "--id", "web")
	if code != 0 || !strings.Contains(out, "crawl web: paused by n1") || len(regexp.MustCompile(`(?m)^n[123] +paused +0 `).FindAllString(out, -1)) != 3 {
		t.Fatalf("mneme cluster status: exit %d\n%s%s", code, out, errOut)
	}

	// n2, restarted, resumes the crawl through mneme cluster.
	start = time.Now()
	code, out, errOut = mneme(t, "", "cluster", "resume", "--data", data("n2"))
	tookResume := time.Since(start)
	if code != 0 || !strings.Contains(out, "crawl web resumed") || !strings.Contains(out, "resumed by n2") {
		t.Fatalf("mneme cluster resume: exit %d\n%s%s", code, out, errOut)
	}
	for _, name := range []string{"n1", "n2", "n3"} {
		nodes[name].wait(t, 90*time.Second)
		if !strings.Contains(nodes[name].out.String(), "crawl web finished") {
			t.Errorf("node %s did not finish the crawl:\n%s", name, nodes[name].out)
		}
	}
	total, overlaps := web.snapshot()
	for _, o := range overlaps {
		t.Errorf("two requests on one IP at once: %s", o)
	}
	for _, h := range web.hosts {
		for p := range pages {
			if n := web.hits[fmt.Sprintf("%s/p%d", h, p)]; n != 1 {
				t.Errorf("%s/p%d fetched %d times", h, p, n)
			}
		}
	}
	t.Logf("%d pages, %d of them before the pause; the pause took %v, the resume %v; after the resume: %s",
		total, atPause, took.Round(time.Millisecond), tookResume.Round(time.Millisecond), lastLine(nodes["n3"].out.String()))
}

// TestClusterCmdErrors: mneme cluster says clearly what it lacks.
func TestClusterCmdErrors(t *testing.T) {
	empty := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"cluster", "pause", "--cluster", "embeded", "--id", "web"}, 2, "is not a NATS URL"},
		{[]string{"cluster", "resume", "--cluster", "nats://127.0.0.1:4222"}, 2, "give the crawl's --id"},
		{[]string{"cluster", "status", "--data", empty}, 1, "no node runs on data folder " + empty},
		{[]string{"cluster", "pause", "--data", empty, "--wait", "-1s"}, 2, "--wait"},
		{[]string{"cluster", "pause", "extra"}, 2, ""},
	} {
		code, _, errOut := mneme(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("mneme %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, errOut, c.code, c.want)
		}
	}
}
