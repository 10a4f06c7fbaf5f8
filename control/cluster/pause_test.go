package cluster

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/control/api"
)

// nodeState is how node n sees node name's pause in its heartbeats.
func nodeState(n *Node, name string) (api.Node, bool) {
	st, err := n.Status(context.Background())
	if err != nil {
		return api.Node{}, false
	}
	for _, x := range st.Nodes {
		if x.Name == name {
			return x, true
		}
	}
	return api.Node{}, false
}

// TestClusterPause pauses the crawl from one node and resumes it from
// another: every node follows, a node that joins while the cluster is
// paused starts paused, a node restarted reads the pause, and a pause
// set without any node (mneme cluster) is followed too. A node's own
// pause holds through the cluster's resume.
func TestClusterPause(t *testing.T) {
	s := startNATS(t)
	dir := t.TempDir()
	a, b := join(t, s, "a"), join(t, s, "b")
	defer a.Close()
	crawlFor(t, a, filepath.Join(dir, "a"))
	crawlFor(t, b, filepath.Join(dir, "b"))
	eventually(t, "both live", func() bool { return len(a.owners()) == 2 && len(b.owners()) == 2 })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	v, err := a.PauseCluster(ctx, true)
	if err != nil || !v.Paused || v.By != "a" || v.Rev == 0 {
		t.Fatalf("pause: %+v %v", v, err)
	}
	if p, _, _ := a.paused(); !p {
		t.Fatal("a set the pause and is not paused when PauseCluster returns")
	}
	nodes, err := a.WaitPause(ctx, v)
	if err != nil || len(nodes) != 2 {
		t.Fatalf("waiting for the pause: %+v %v", nodes, err)
	}
	for _, x := range nodes {
		if !x.Paused || x.PauseRev != v.Rev {
			t.Errorf("node %s after the pause: %+v", x.Name, x)
		}
	}

	// c joins the paused cluster: paused from its first heartbeat.
	c := join(t, s, "c")
	if p, _, rev := c.paused(); !p || rev != v.Rev {
		t.Fatalf("c joined a paused cluster and is not paused (rev %d of %d)", rev, v.Rev)
	}
	crawlFor(t, c, filepath.Join(dir, "c"))
	// b is restarted (closed without leaving, as after a kill): it reads
	// the pause again.
	b.Close()
	b = join(t, s, "b")
	if p, _, _ := b.paused(); !p {
		t.Fatal("b restarted in a paused cluster and is not paused")
	}
	if st, _ := b.Status(ctx); !st.Pause.Paused || st.Pause.By != "a" {
		t.Fatalf("b's view of the pause: %+v", st.Pause)
	}

	// c pauses itself too; b resumes the cluster: a and b run, c stays
	// paused by its own pause until it lifts it.
	c.PauseHere(true)
	v, err = b.PauseCluster(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.WaitPause(ctx, v); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a and b running, c paused by its own pause", func() bool {
		xa, _ := nodeState(b, "a")
		xb, _ := nodeState(b, "b")
		xc, _ := nodeState(b, "c")
		return !xa.Paused && !xb.Paused && xc.Paused && xc.PausedHere && xc.PauseRev == v.Rev
	})
	c.PauseHere(false)
	if p, _, _ := c.paused(); p {
		t.Fatal("c lifted its own pause and is still paused")
	}

	// A pause set straight in NATS, as mneme cluster pause --cluster does.
	p, err := NewPauser(ctx, connect(t, s), "c1")
	if err != nil {
		t.Fatal(err)
	}
	v, err = p.Set(ctx, true, "mneme cluster")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(ctx, v); err != nil {
		t.Fatal(err)
	}
	for _, n := range []*Node{a, b, c} {
		if p, _, _ := n.paused(); !p {
			t.Errorf("%s did not follow the pause set in NATS", n.Name())
		}
	}
	// A wait for a pause someone changed meanwhile says so.
	if _, err := b.PauseCluster(ctx, false); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(ctx, v); err == nil || !strings.Contains(err.Error(), "resumed by b") {
		t.Fatalf("waiting for a pause that was lifted: %v", err)
	}
	c.Close()
	b.Close()
}

func TestPauserWithoutNodes(t *testing.T) {
	s := startNATS(t)
	_, err := NewPauser(context.Background(), connect(t, s), "c1")
	if err == nil || !strings.Contains(err.Error(), "no crawler node has run") {
		t.Fatalf("a pause on a NATS server no node used: %v", err)
	}
}
