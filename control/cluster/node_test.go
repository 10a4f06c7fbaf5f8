package cluster

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/internal/testenv"
)

// Test timings: short, so that membership changes show within seconds.
const (
	testBeat = 100 * time.Millisecond
	testTTL  = 2 * time.Second
)

// startNATS runs a real NATS server with JetStream on a loopback port.
func startNATS(t testing.TB) *server.Server {
	t.Helper()
	s, err := Embedded(t.TempDir(), "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

func connect(t testing.TB, s *server.Server) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// join makes a node of crawl "c1" with spec hash "h".
func join(t testing.TB, s *server.Server, name string) *Node { return joinTTL(t, s, name, testTTL) }

// joinTTL makes a node whose heartbeat lasts ttl.
func joinTTL(t testing.TB, s *server.Server, name string, ttl time.Duration) *Node {
	t.Helper()
	n, err := Join(context.Background(), Config{
		Conn: connect(t, s), Name: name, Crawl: "c1", SpecHash: "h", Heartbeat: testBeat, TTL: ttl, IPTTL: 5 * time.Second,
		Log: &testLog{t: t, name: name},
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

type testLog struct {
	t    testing.TB
	name string
}

func (l *testLog) Write(p []byte) (int, error) {
	l.t.Logf("%s: %s", l.name, p)
	return len(p), nil
}

// eventually waits (at most 20 s) for cond; it says how long it took.
func eventually(t testing.TB, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(start)
}

func TestMembership(t *testing.T) {
	s := startNATS(t)
	a, b := join(t, s, "a"), join(t, s, "b")
	defer a.Close()
	both := []string{"a", "b"}
	eventually(t, "both nodes see a and b", func() bool {
		return slices.Equal(a.owners(), both) && slices.Equal(b.owners(), both)
	})
	c := join(t, s, "c")
	eventually(t, "every node sees c join", func() bool {
		all := []string{"a", "b", "c"}
		return slices.Equal(a.owners(), all) && slices.Equal(b.owners(), all) && slices.Equal(c.owners(), all)
	})
	// c falls silent, as a crashed process does: it leaves the live set
	// once its heartbeat expires.
	c.Close()
	took := eventually(t, "c dropped after it fell silent", func() bool {
		return slices.Equal(a.owners(), both) && slices.Equal(b.owners(), both)
	})
	t.Logf("a silent node was dropped after %v (TTL %v, heartbeat %v)", took, testTTL, testBeat)
	// b quits: it is gone at once.
	if err := b.Quit(context.Background()); err != nil {
		t.Fatal(err)
	}
	b.Close()
	eventually(t, "b gone after it quit", func() bool { return slices.Equal(a.owners(), []string{"a"}) })
}

func TestMismatchedSpecRefused(t *testing.T) {
	s := startNATS(t)
	a := join(t, s, "a")
	defer a.Close()
	_, err := Join(context.Background(), Config{Conn: connect(t, s), Name: "b", Crawl: "c1", SpecHash: "other", Heartbeat: testBeat, TTL: testTTL})
	if !errors.Is(err, ErrSpecMismatch) {
		t.Fatalf("a node with another spec joined: %v", err)
	}
	if _, err := Join(context.Background(), Config{Conn: connect(t, s), Name: "bad name", Crawl: "c1", SpecHash: "h"}); err == nil {
		t.Fatal("a node with a space in its name joined")
	}
}

func TestLedger(t *testing.T) {
	s := startNATS(t)
	a, b := join(t, s, "a"), join(t, s, "b")
	defer a.Close()
	defer b.Close()
	ctx := context.Background()
	const u = "http://x.test/page"
	if by, ok, err := a.Begin(ctx, u); err != nil || !ok || by != "a" {
		t.Fatalf("first Begin: %q %v %v", by, ok, err)
	}
	if by, ok, err := b.Begin(ctx, u); err != nil || ok || by != "a" {
		t.Fatalf("b fetches a URL a fetched: %q %v %v", by, ok, err)
	}
	if _, ok, err := a.Begin(ctx, u); err != nil || !ok {
		t.Fatalf("a cannot fetch again a URL it began (resume after a crash): %v %v", ok, err)
	}
}

// TestIPRegistry has workers of two nodes fetch from one IP: never two at
// once, never before the rest the last one asked for; then a node holding
// the IP dies and the other gets it once the dead node leaves the live set.
func TestIPRegistry(t *testing.T) {
	s := startNATS(t)
	a, b := join(t, s, "a"), join(t, s, "b")
	defer a.Close()
	eventually(t, "both live", func() bool { return len(a.owners()) == 2 && len(b.owners()) == 2 })
	ip := netip.MustParseAddr("127.0.0.9")
	var (
		mu       sync.Mutex
		holders  int
		restEnd  time.Time
		overlaps int
		early    int
		fetches  atomic.Int64
	)
	const rest = 15 * time.Millisecond
	var wg sync.WaitGroup
	for i := range 6 {
		n := []*Node{a, b}[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				release, err := n.Acquire(context.Background(), ip)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				holders++
				if holders > 1 {
					overlaps++
				}
				if time.Now().Before(restEnd) {
					early++
				}
				mu.Unlock()
				fetches.Add(1)
				time.Sleep(2 * time.Millisecond) // the fetch
				mu.Lock()
				holders--
				restEnd = time.Now().Add(rest)
				mu.Unlock()
				release(rest)
			}
		}()
	}
	wg.Wait()
	if overlaps > 0 || early > 0 {
		t.Fatalf("%d fetches overlapped, %d came before the rest was over (of %d)", overlaps, early, fetches.Load())
	}
	// b claims the IP and dies holding it.
	if _, err := b.Acquire(context.Background(), ip); err != nil {
		t.Fatal(err)
	}
	claims, err := a.Claims(context.Background())
	if err != nil || len(claims) != 1 || claims[0].Node != "c1.b" || !claims[0].Fetching || claims[0].IP != "127.0.0.9" {
		t.Fatalf("claims: %+v %v", claims, err)
	}
	b.Close()
	got := make(chan error, 1)
	go func() {
		release, err := a.Acquire(context.Background(), ip)
		if err == nil {
			release(0)
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(a.owners(), "b") {
			t.Fatal("a took the IP while b, which holds it, was live")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the claim of a dead node never lapsed")
	}
}

// crawlFor opens a crawl of node n (not run: its frontier takes what
// other nodes send).
func crawlFor(t testing.TB, n *Node, data string) *crawler.Crawl {
	t.Helper()
	s := spec.Default()
	s.ID, s.Output = "c1", data
	s.Seeds = []string{"http://seed.test/"}
	s.UserAgent = "mneme-test/1 (+https://example.org/bot)"
	st, err := crawler.Layout{Data: data}.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c, err := crawler.New(s, crawler.Deps{Store: st, Cluster: n})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := n.Attach(c); err != nil {
		t.Fatal(err)
	}
	return c
}

// candidates makes n URLs over domains sites, scored by their index.
func candidates(n, sites int) []frontier.Candidate {
	out := make([]frontier.Candidate, n)
	for i := range out {
		host := fmt.Sprintf("www.site%d.test", i%sites)
		out[i] = frontier.Candidate{URL: fmt.Sprintf("http://%s/p%d", host, i), QueueKey: host, Hops: "L", Via: "http://" + host + "/", Score: float64(i)}
	}
	return out
}

func queued(c *crawler.Crawl) int64 { return c.Status().Queued }

// TestForwardingAndHandOver follows URLs across membership changes: links
// go to their owner's frontier; a node that joins gets the queued URLs of
// its domains; a node that leaves gracefully hands its queue back, and
// the URLs queued again where they had been released; messages for a node
// that died are routed by a live one. No URL is lost on the way.
func TestForwardingAndHandOver(t *testing.T) {
	s := startNATS(t)
	dir := t.TempDir()
	a, b := join(t, s, "a"), join(t, s, "b")
	defer a.Close()
	eventually(t, "both live", func() bool { return len(a.owners()) == 2 && len(b.owners()) == 2 })
	ca, cb := crawlFor(t, a, filepath.Join(dir, "a")), crawlFor(t, b, filepath.Join(dir, "b"))
	eventually(t, "the seed with its owner", func() bool { return queued(ca)+queued(cb) == 1 })
	seeds := int64(1)
	cands := candidates(3000, 60)
	local, sent, err := a.Route(slices.Clone(cands))
	if err != nil {
		t.Fatal(err)
	}
	if err := ca.Accept(local); err != nil {
		t.Fatal(err)
	}
	if err := sent(); err != nil {
		t.Fatal(err)
	}
	total := seeds + int64(len(cands))
	eventually(t, "b's frontier took what a sent", func() bool {
		ok := queued(ca)+queued(cb) == total
		if !ok {
			t.Logf("a %d, b %d, want %d in all; a sent %d URLs, b took %d", queued(ca), queued(cb), total, a.forwarded.Load(), b.received.Load())
			time.Sleep(time.Second)
		}
		return ok
	})
	if queued(ca) == seeds || queued(cb) == seeds {
		t.Fatalf("one node owns everything: a %d, b %d", queued(ca), queued(cb))
	}
	for _, c := range cands {
		if !a.Owns(c.QueueKey) && !b.Owns(c.QueueKey) {
			t.Fatalf("nobody owns %s", c.QueueKey)
		}
	}

	// c joins: a and b hand it the queues of its domains.
	c := join(t, s, "c")
	cc := crawlFor(t, c, filepath.Join(dir, "c"))
	eventually(t, "c got its share", func() bool { return queued(cc) > 0 })
	eventually(t, "nothing lost or doubled in the hand-over", func() bool { return queued(ca)+queued(cb)+queued(cc) == total })
	for _, q := range queuesOf(cc) {
		if !c.Owns(q) {
			t.Fatalf("c holds %s, which it does not own", q)
		}
	}

	// c leaves gracefully: its URLs go back, to frontiers that had
	// released them.
	if err := c.Leave(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if n := queued(cc); n != 0 {
		t.Fatalf("c left with %d URLs queued", n)
	}
	eventually(t, "c's URLs back with a and b", func() bool { return queued(ca)+queued(cb) == total })

	// b dies; URLs sent to it meanwhile wait in the stream until a
	// routes them to itself.
	b.Close()
	cb.Close()
	late := candidates(500, 7)
	for i := range late {
		late[i].URL += "/late"
	}
	local, sent, err = a.Route(late)
	if err != nil {
		t.Fatal(err)
	}
	if err := ca.Accept(local); err != nil {
		t.Fatal(err)
	}
	if err := sent(); err != nil {
		t.Fatal(err)
	}
	before := queued(ca)
	eventually(t, "a took the URLs sent to b while b was dead", func() bool {
		return slices.Equal(a.owners(), []string{"a"}) && queued(ca) == before+int64(len(late)-len(local))
	})
}

func queuesOf(c *crawler.Crawl) []string {
	var keys []string
	c.Queues(func(q frontier.QueueStats) bool {
		if q.Size > 0 {
			keys = append(keys, q.Key)
		}
		return true
	})
	return keys
}

// BenchmarkForward measures URLs forwarded from one node to another's
// frontier, batched, through a real NATS server on loopback: from Route
// on the sender to the receiver's frontier having synced them.
func BenchmarkForward(b *testing.B) {
	s := startNATS(b)
	dir := b.TempDir()
	// A long TTL: on a loaded machine a late heartbeat must not drop y
	// from the live set mid-run.
	x, y := joinTTL(b, s, "x", time.Minute), joinTTL(b, s, "y", time.Minute)
	defer x.Close()
	defer y.Close()
	eventually(b, "both live", func() bool { return len(x.owners()) == 2 && len(y.owners()) == 2 })
	crawlFor(b, x, filepath.Join(dir, "x"))
	cy := crawlFor(b, y, filepath.Join(dir, "y"))
	var sites []string
	for i := 0; len(sites) < 200; i++ {
		if h := fmt.Sprintf("www.site%d.test", i); Owner(Domain(h), x.owners()) == "y" {
			sites = append(sites, h)
		}
	}
	start := queued(cy)
	// The links are made before the clock starts: the benchmark times
	// their way from one frontier to the other, not their making.
	const page = 50 // links per page, as a worker routes them
	var pages [][]frontier.Candidate
	for i := 0; i < b.N; i += page {
		cands := make([]frontier.Candidate, 0, page)
		for j := i; j < min(i+page, b.N); j++ {
			h := sites[j%len(sites)]
			cands = append(cands, frontier.Candidate{URL: fmt.Sprintf("http://%s/bench/%d", h, j), QueueKey: h, Hops: "L", Via: "http://" + h + "/", Score: 1})
		}
		pages = append(pages, cands)
	}
	cpu0 := testenv.CPUTime()
	b.ResetTimer()
	var waits []func() error
	for _, cands := range pages {
		local, sent, err := x.Route(cands)
		if err != nil {
			b.Fatal(err)
		}
		if len(local) > 0 || sent == nil {
			b.Fatalf("x kept %d of %d URLs of y's domains (live set %v)", len(local), len(cands), x.owners())
		}
		waits = append(waits, sent)
	}
	for _, w := range waits {
		if err := w(); err != nil {
			b.Fatal(err)
		}
	}
	for queued(cy)-start < int64(b.N) {
		time.Sleep(time.Millisecond)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
	// The CPU the process spent (sender, NATS server and receiver): the
	// rate a core gives, whatever else the machine runs.
	b.ReportMetric(float64((testenv.CPUTime()-cpu0).Microseconds())/float64(b.N), "CPU-µs/URL")
}
