package nodes_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/nats-io/nats.go"

	"github.com/mneme-archive/mneme/control"
	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/control/cluster"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/sitetest"
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

// node is a crawler node of crawl c1 with its crawl of site, as `mneme
// node` runs it in its process.
type node struct {
	n    *cluster.Node
	c    *crawler.Crawl
	st   *graph.Store
	data string
	ran  chan error
}

func startNode(t *testing.T, url, name, data string, site *sitetest.Site) *node {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	n, err := cluster.Join(context.Background(), cluster.Config{Conn: nc, Name: name, Crawl: "c1", SpecHash: "h",
		Heartbeat: 100 * time.Millisecond, TTL: 2 * time.Second, IPTTL: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Parse([]byte(fmt.Sprintf("id: c1\noutput: %s\nworkers: 2\npoliteness: {off: true}\nrdf: {interval: 5ms}\nseeds: [%s]\n", data, site.URL("/p/0"))), name)
	if err != nil {
		t.Fatal(err)
	}
	s.UserAgent = "mneme-test/1.0 (+https://example.org/contact)"
	st, err := crawler.Layout{Data: data}.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c, err := crawler.New(s, crawler.Deps{Store: st, Cluster: n})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Attach(c); err != nil {
		t.Fatal(err)
	}
	x := &node{n: n, c: c, st: st, data: data}
	t.Cleanup(func() {
		x.stop()
		c.Close()
	})
	return x
}

// run starts the node's crawl.
func (x *node) run() {
	x.ran = make(chan error, 1)
	go func() { x.ran <- x.c.Run(context.Background()) }()
}

// sees waits until the node's live set has n nodes.
func (x *node) sees(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, err := x.n.Status(context.Background())
		if err == nil && len(st.Nodes) == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the live set of %s: %+v %v", x.n.Name(), st.Nodes, err)
		}
	}
}

// stop ends the node's crawl and takes it out of the live set at once.
func (x *node) stop() {
	if x.ran == nil {
		return
	}
	x.c.Stop()
	<-x.ran
	x.ran = nil
	x.n.Quit(context.Background())
	x.n.Close()
}

// TestClusterView runs two crawler nodes over a real NATS server and
// follows them on the cluster view of a TUI attached to one: both live
// with their heartbeats, the owner of the site's domain holding it and
// its IP, the other forwarding its seed there; pause and resume steer
// the crawl of every node; a node that quits shows as left.
func TestClusterView(t *testing.T) {
	srv, err := cluster.Embedded(t.TempDir(), "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	site := sitetest.New(t, 5) // its gate holds one fetch, so both crawls run until the test ends
	t.Cleanup(site.Open)

	a := startNode(t, srv.ClientURL(), "alpha", t.TempDir(), site)
	b := startNode(t, srv.ClientURL(), "beta", t.TempDir(), site)
	// Both crawl once both are in the live set, so that the domain has one
	// owner from the start.
	a.sees(t, 2)
	b.sees(t, 2)
	a.run()
	b.run()
	tok, err := inject.LoadToken(crawler.Layout{Data: a.data}.Token())
	if err != nil {
		t.Fatal(err)
	}
	m := control.NewManager(a.data, crawler.Deps{Store: a.st}, "mneme-test/1.0 (+https://example.org/contact)")
	ended := m.Adopt(a.c)
	h := control.NewHandler(m, tok, 0)
	h.SetCluster(a.n)
	srvAPI := httptest.NewServer(h)
	t.Cleanup(func() {
		srvAPI.Close()
		ended()
	})
	cl := &api.Client{Base: srvAPI.URL, Token: tok}
	domain, owner := a.n.OwnerOf(site.Host())
	other := map[string]string{"alpha": "beta", "beta": "alpha"}[owner]

	app := tui.New(tuitest.Backend(t, 0), t.TempDir(), "fixture", tui.Crawls{Client: cl, Interval: 50 * time.Millisecond})
	s := tuitest.Start(t, app)
	s.Press("9")
	s.Wait(t, "crawl c1 · running · attached to alpha (*)")
	s.TM.Send(tea.WindowSizeMsg{Width: 150, Height: 30})
	s.Wait(t, "9 Cluster    ")
	// The owner holds the domain, fetched the site's pages but the gate,
	// and holds the site's IP while the gate keeps its fetch; the other
	// forwarded its seed there.
	row(t, s, `^`+owner+`( \*)? +live +\S+ ago +1 +\d+ +\d+ +[1-9]\d* +[0-9.]+ +0 +1 +1 *$`)
	row(t, s, `^`+other+`( \*)? +live(, idle)? +\S+ ago +0 +0 +0 +0 +[0-9.]+ +1 +0 +0 *$`)
	s.Press("G")
	if owner == "alpha" {
		s.Press("g")
	}
	s.Press("enter")
	s.Wait(t, "domains of "+owner+": 1 owned")
	row(t, s, `^`+regexp.QuoteMeta(domain)+` +1 +\d+ *$`)
	s.Press("esc", "i")
	row(t, s, `^127\.0\.0\.1 +c1\.`+owner+` +fetching *$`)
	// p pauses both nodes, not just the one attached to: the owner is
	// pausing while the gate holds its fetch.
	s.Press("esc", "p")
	s.Wait(t, "pause c1: paused")
	s.Wait(t, "crawl c1 · paused by alpha at ")
	row(t, s, `^`+owner+`( \*)? +live, pausing +`)
	row(t, s, `^`+other+`( \*)? +live, paused +`)
	for _, x := range []*node{a, b} {
		if st := x.c.Status(); st.State != "paused" {
			t.Errorf("%s after p: %s", x.n.Name(), st.State)
		}
	}
	s.Press("r")
	s.Wait(t, "resume c1: running")
	s.Wait(t, "crawl c1 · running · attached")
	row(t, s, `^`+other+`( \*)? +live(, idle)? +\S+ ago`)
	if st := b.c.Status(); st.State != "running" {
		t.Errorf("beta after r: %s", st.State)
	}

	b.stop()
	row(t, s, `^beta +left +`)
	row(t, s, `^alpha \* +live`)
	s.Finish(t)
	if strings.Contains(s.Screen(), "✗") {
		t.Errorf("an error on the screen:\n%s", s.Screen())
	}
}
