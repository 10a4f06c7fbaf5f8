package control

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/control/cluster"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/internal/datatest"
)

// TestClusterPauseRoutes steers the pause of a crawler node's cluster
// through its control API: the crawl's own routes act on the cluster,
// or with scope=node on the node alone, and the cluster routes wait for
// the nodes; bad parameters are refused.
func TestClusterPauseRoutes(t *testing.T) {
	ns, err := cluster.Embedded(t.TempDir(), "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	node, err := cluster.Join(context.Background(), cluster.Config{Conn: nc, Name: "a", Crawl: "c1", SpecHash: "h",
		Heartbeat: 100 * time.Millisecond, TTL: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(node.Close)
	data, st, tok := datatest.DataFolder(t)
	s, err := spec.Parse(fmt.Appendf(nil, "id: c1\noutput: %s\nseeds: [http://seed.test/]\n", data), "c1")
	if err != nil {
		t.Fatal(err)
	}
	s.UserAgent = "mneme-test/1.0 (+https://example.org/contact)"
	c, err := crawler.New(s, crawler.Deps{Store: st, Cluster: node})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := node.Attach(c); err != nil {
		t.Fatal(err)
	}
	m := NewManager(data, crawler.Deps{Store: st}, s.UserAgent)
	ended := m.Adopt(c)
	h := NewHandler(m, tok, 0)
	h.SetCluster(node)
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		ended()
	})
	cl := &api.Client{Base: srv.URL, Token: tok}
	ctx := context.Background()
	self := func() api.Node {
		t.Helper()
		st, err := cl.ClusterStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range st.Nodes {
			if n.Name == "a" {
				return n
			}
		}
		return api.Node{}
	}
	eventually := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("never: %s", what)
			}
		}
	}
	post := func(path string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}

	// This node alone.
	if code := post("/api/crawls/c1/pause?scope=node"); code != http.StatusOK {
		t.Fatalf("pause here: %d", code)
	}
	eventually("a paused on its own", func() bool { n := self(); return n.Paused && n.PausedHere })
	if st, _ := cl.ClusterStatus(ctx); st.Pause.Paused {
		t.Fatalf("a node's own pause paused the cluster: %+v", st.Pause)
	}
	// The cluster, waiting for the nodes.
	got, err := cl.ClusterPause(ctx, true, 10*time.Second)
	if err != nil || !got.Pause.Paused || got.Pause.By != "a" {
		t.Fatalf("cluster pause: %+v %v", got.Pause, err)
	}
	// The crawl's route resumes the cluster; the node's own pause holds.
	if _, err := cl.Do(ctx, "c1", "resume"); err != nil {
		t.Fatal(err)
	}
	if st, _ := cl.ClusterStatus(ctx); st.Pause.Paused || st.Pause.Rev <= got.Pause.Rev {
		t.Fatalf("the crawl's resume did not resume the cluster: %+v", st.Pause)
	}
	eventually("a still paused on its own", func() bool { n := self(); return n.Paused && n.PausedHere && n.PauseRev > got.Pause.Rev })
	if code := post("/api/crawls/c1/resume?scope=node"); code != http.StatusOK {
		t.Fatalf("resume here: %d", code)
	}
	eventually("a running", func() bool { return !self().Paused })

	for path, want := range map[string]int{
		"/api/cluster/pause?wait=soon":       http.StatusBadRequest,
		"/api/crawls/c1/pause?scope=planet":  http.StatusBadRequest,
		"/api/cluster/resume?wait=0":         http.StatusOK,
		"/api/crawls/other/pause?scope=node": http.StatusNotFound, // not the cluster's crawl: the manager's answer
	} {
		if code := post(path); code != want {
			t.Errorf("POST %s: %d, want %d", path, code, want)
		}
	}
	var ae *api.APIError
	if _, err := (&api.Client{Base: srv.URL}).ClusterPause(ctx, true, 0); !errors.As(err, &ae) || ae.Code != http.StatusUnauthorized {
		t.Errorf("a pause without the token: %v", err)
	}
}
