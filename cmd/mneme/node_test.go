package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/mneme-archive/mneme/control/cluster"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/warc/warctest"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// testWeb is a web of many hosts on loopback: host names resolved (with
// mneme node --resolve) to 127.0.0.x, several names per IP, each host a
// few pages linking to each other and to other hosts. Every server
// answers after a delay and logs each request: how often each URL was
// fetched, and any moment two requests were under way on one IP.
type testWeb struct {
	hosts []string          // host names
	ipOf  map[string]string // host name → IP
	port  int
	pages int // per host
	delay time.Duration

	mu       sync.Mutex
	hits     map[string]int // "host/path" → requests
	active   map[string]int // IP → requests under way
	overlaps []string       // what was under way at once
	total    int            // page requests (not robots.txt)
	first    time.Time      // the first and last page requests
	last     time.Time
}

// serveTestWeb starts a web of hosts host names over ips IPs
// (127.0.0.2…), pages pages each, answering after delay.
func serveTestWeb(t testing.TB, hosts, ips, pages int, delay time.Duration) *testWeb {
	t.Helper()
	w := &testWeb{ipOf: map[string]string{}, pages: pages, delay: delay, hits: map[string]int{}, active: map[string]int{}}
	var lns []net.Listener
	for attempt := 0; len(lns) < ips; attempt++ {
		if attempt > 20 {
			t.Fatal("no port free on every test IP")
		}
		for _, ln := range lns {
			ln.Close()
		}
		lns = lns[:0]
		first, err := net.Listen("tcp", "127.0.0.2:0")
		if err != nil {
			t.Fatal(err)
		}
		w.port = first.Addr().(*net.TCPAddr).Port
		lns = append(lns, first)
		for i := 1; i < ips; i++ {
			ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.%d:%d", 2+i, w.port))
			if err != nil {
				break
			}
			lns = append(lns, ln)
		}
	}
	for i := range hosts {
		h := fmt.Sprintf("www.site%02d.test", i)
		w.hosts = append(w.hosts, h)
		w.ipOf[h] = fmt.Sprintf("127.0.0.%d", 2+i%ips)
	}
	for _, ln := range lns {
		srv := &http.Server{Handler: http.HandlerFunc(w.serve), ReadHeaderTimeout: 5 * time.Second}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
	}
	return w
}

func (w *testWeb) url(host, path string) string {
	return fmt.Sprintf("http://%s:%d%s", host, w.port, path)
}

func (w *testWeb) serve(rw http.ResponseWriter, r *http.Request) {
	ip, _, _ := net.SplitHostPort(r.Context().Value(http.LocalAddrContextKey).(net.Addr).String())
	host, _, _ := net.SplitHostPort(r.Host)
	w.mu.Lock()
	w.active[ip]++
	if w.active[ip] > 1 {
		w.overlaps = append(w.overlaps, fmt.Sprintf("%s on %s while %d other requests were under way", host+r.URL.Path, ip, w.active[ip]-1))
	}
	w.hits[host+r.URL.Path]++
	if r.URL.Path != "/robots.txt" {
		w.total++
		if w.first.IsZero() {
			w.first = time.Now()
		}
		w.last = time.Now()
	}
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.active[ip]--
		w.mu.Unlock()
	}()
	time.Sleep(w.delay)
	if r.URL.Path == "/robots.txt" {
		fmt.Fprint(rw, "User-agent: *\nAllow: /\n")
		return
	}
	i := 0
	if host != "" && strings.HasPrefix(host, "www.site") {
		fmt.Sscanf(host, "www.site%d.test", &i)
	}
	rw.Header().Set("Content-Type", "text/html")
	fmt.Fprintf(rw, "<html><head><title>%s%s</title></head><body>", host, r.URL.Path)
	// Each page links to the host's next page and to a page of two
	// other hosts: most links cross domains, so most go to another node.
	var p int
	fmt.Sscanf(r.URL.Path, "/p%d", &p)
	for _, l := range []string{
		w.url(host, fmt.Sprintf("/p%d", (p+1)%w.pages)),
		w.url(w.hosts[(i+1)%len(w.hosts)], fmt.Sprintf("/p%d", p)),
		w.url(w.hosts[(i+7)%len(w.hosts)], fmt.Sprintf("/p%d", (p+3)%w.pages)),
	} {
		fmt.Fprintf(rw, `<a href="%s">link</a> `, l)
	}
	fmt.Fprint(rw, "</body></html>")
}

// snapshot returns the page requests so far and the overlaps.
func (w *testWeb) snapshot() (total int, overlaps []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.total, append([]string(nil), w.overlaps...)
}

// resolveArgs are the --resolve flags of the web's host names.
func (w *testWeb) resolveArgs() []string {
	var args []string
	for _, h := range w.hosts {
		args = append(args, "--resolve", h+"="+w.ipOf[h])
	}
	return args
}

// spec writes a crawl spec of the web: every host's /p0 a seed, a
// politeness rest of rest per host (and per IP across the cluster).
func (w *testWeb) spec(t testing.TB, workers int, rest time.Duration) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "user-agent: \"mneme-test/1 (+https://example.org/bot)\"\nworkers: %d\nrobots: obey\naah: false\n", workers)
	fmt.Fprintf(&b, "politeness:\n  delay-factor: 0\n  min-delay: %s\n  max-delay: %s\n  retry-delay: 1s\n", rest, rest)
	fmt.Fprintf(&b, "rdf:\n  batch: 16\n  interval: 50ms\n  commit-within: 200ms\nseeds:\n")
	for _, h := range w.hosts {
		fmt.Fprintf(&b, "  - %s\n", w.url(h, "/p0"))
	}
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// clusterNode is a mneme node process.
type clusterNode struct {
	name, data string
	cmd        *exec.Cmd
	out        *syncBuffer
	done       chan struct{}
}

func startNode(t testing.TB, w *testWeb, natsURL, specFile, name, data string, flags ...string) *clusterNode {
	t.Helper()
	args := append([]string{"node", "--cluster", natsURL, "--id", "web", "--spec", specFile, "--data", data, "--name", name,
		"--heartbeat", "200ms", "--ttl", "3s"}, w.resolveArgs()...)
	args = append(args, flags...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asMneme+"=1")
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	n := &clusterNode{name: name, data: data, cmd: cmd, out: out, done: make(chan struct{})}
	go func() { cmd.Wait(); close(n.done) }()
	t.Cleanup(func() {
		select {
		case <-n.done:
		default:
			cmd.Process.Kill()
			<-n.done
		}
	})
	return n
}

func (n *clusterNode) wait(t testing.TB, within time.Duration) {
	t.Helper()
	select {
	case <-n.done:
	case <-time.After(within):
		t.Fatalf("node %s still running after %v:\n%s", n.name, within, n.out)
	}
}

// TestNodesCrawlOneWeb runs one crawl over mneme node processes sharing a
// NATS server: three nodes start, a fourth joins mid-crawl, one leaves
// gracefully, one is killed (SIGKILL) and restarted. The web is crawled
// whole; each page fetched once but for the URLs in flight at the kill;
// no two requests ever on one IP at once; every node's WARC files pass
// the independent verifier and agree with its store, which holds one
// capture per fetch.
func TestNodesCrawlOneWeb(t *testing.T) {
	const hosts, ips, pages, workers = 54, 18, 8, 2
	web := serveTestWeb(t, hosts, ips, pages, 5*time.Millisecond)
	ns, err := cluster.Embedded(t.TempDir(), "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Shutdown()
	specFile := web.spec(t, workers, 100*time.Millisecond)
	dir := t.TempDir()
	data := func(name string) string { return filepath.Join(dir, name) }
	nodes := map[string]*clusterNode{}
	for _, name := range []string{"n1", "n2", "n3"} {
		nodes[name] = startNode(t, web, ns.ClientURL(), specFile, name, data(name))
	}
	all := hosts * pages
	progress := func(frac float64) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			if n, _ := web.snapshot(); float64(n) >= frac*float64(all) {
				return
			}
			if time.Now().After(deadline) {
				n, _ := web.snapshot()
				t.Fatalf("the crawl is stuck at %d of %d pages", n, all)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	progress(0.2)
	// The store's daemon collects every node's statements into one store.
	one, err := graph.Open(filepath.Join(dir, "store"), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	col, err := cluster.NewCollector(nc, "web", nil)
	if err != nil {
		t.Fatal(err)
	}
	colCtx, stopCol := context.WithCancel(context.Background())
	colDone := make(chan error, 1)
	go func() { colDone <- col.Run(colCtx, one) }()
	nodes["n4"] = startNode(t, web, ns.ClientURL(), specFile, "n4", data("n4"))
	progress(0.4)
	// n2 leaves gracefully.
	if err := nodes["n2"].cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	nodes["n2"].wait(t, 60*time.Second)
	progress(0.55)
	// n3 is killed and restarted.
	killedAt, _ := web.snapshot()
	if err := nodes["n3"].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-nodes["n3"].done
	nodes["n3"] = startNode(t, web, ns.ClientURL(), specFile, "n3", data("n3"))
	for _, name := range []string{"n1", "n3", "n4"} {
		nodes[name].wait(t, 90*time.Second)
		if !strings.Contains(nodes[name].out.String(), "crawl web finished") {
			t.Errorf("node %s did not finish the crawl:\n%s", name, nodes[name].out)
		}
	}
	if !strings.Contains(nodes["n2"].out.String(), "crawl web stopped") {
		t.Errorf("n2 did not stop after leaving:\n%s", nodes["n2"].out)
	}
	for name, n := range nodes {
		t.Logf("%s: %s", name, lastLine(n.out.String()))
	}

	// Every page fetched, once but for what was in flight at the kill:
	// at most workers + 2 × rdf.batch URLs.
	_, overlaps := web.snapshot()
	for _, o := range overlaps {
		t.Errorf("two requests on one IP at once: %s", o)
	}
	extra := 0
	for _, h := range web.hosts {
		for p := range pages {
			switch n := web.hits[fmt.Sprintf("%s/p%d", h, p)]; {
			case n == 0:
				t.Errorf("%s/p%d never fetched", h, p)
			case n > 1:
				extra += n - 1
			}
		}
	}
	if bound := workers + 2*16; extra > bound {
		t.Errorf("%d pages fetched twice, more than the %d a kill can leave in flight", extra, bound)
	}
	t.Logf("%d pages on %d hosts over %d IPs; %d fetched again after the kill at %d pages", all, hosts, ips, extra, killedAt)

	// Each node's archive agrees with its store; together they hold
	// every page, each capture once (but for the refetches).
	captures := map[string]int{}
	fetchedBy := map[string]int{}
	for name := range nodes {
		_, rep := checkArchive(t, data(name), "web")
		for u, n := range rep.URLs {
			if !strings.HasSuffix(u, "/robots.txt") {
				captures[u] += n
				fetchedBy[name] += n
			}
		}
		files, err := filepath.Glob(filepath.Join(crawler.Layout{Data: data(name)}.WARCs("web"), "*.warc.gz"))
		if err != nil {
			t.Fatal(err)
		}
		warctest.Check(t, files...)
	}
	more := 0
	for _, h := range web.hosts {
		for p := range pages {
			u := web.url(h, fmt.Sprintf("/p%d", p))
			if captures[u] == 0 {
				t.Errorf("%s has no capture in any node's store", u)
			}
			more += max(captures[u]-1, 0)
		}
	}
	if more > extra {
		t.Errorf("%d extra captures for %d extra fetches", more, extra)
	}
	// The collector's store holds the one crawl graph: every page's
	// capture, each once (a node's store may keep a capture it committed
	// just before it was killed and never sent; the page was fetched
	// again and that capture sent).
	for {
		if n, err := col.Pending(context.Background()); err != nil || n == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	stopCol()
	if err := <-colDone; err != nil {
		t.Fatal(err)
	}
	inOne, err := capturesPerURL(one, "web")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range web.hosts {
		for p := range pages {
			u := web.url(h, fmt.Sprintf("/p%d", p))
			if inOne[u] == 0 || inOne[u] > captures[u] {
				t.Errorf("%s: %d captures in the cluster's store, %d in the nodes' stores", u, inOne[u], captures[u])
			}
		}
	}
	if fetchedBy["n4"] == 0 {
		t.Errorf("n4 joined and got no share: %v", fetchedBy)
	}
	t.Logf("captures per node: %v", fetchedBy)
}

// capturesPerURL counts the captures of each URL in crawl id's graph.
func capturesPerURL(st *graph.Store, id string) (map[string]int, error) {
	out := map[string]int{}
	ids, err := st.LookupTerms([]rdf.Term{rdf.IRI(ontology.URL), rdf.IRI(crawlrdf.CrawlIRI(id))})
	if err != nil || ids[0] == graph.Any || ids[1] == graph.Any {
		return out, err
	}
	ctx := context.Background()
	it, err := st.Scan(ctx, graph.Pattern{P: ids[0], G: ids[1]}, graph.ScanOptions{})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var terms []rdf.Term
	for it.Next() {
		if terms, err = st.Terms(ctx, []graph.ID{it.Quad().O}, terms); err != nil {
			return nil, err
		}
		out[terms[0].Value]++
	}
	return out, it.Err()
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// TestNodeWithoutNATS starts a node whose NATS server is not there yet:
// it says so, clearly, and goes on when the server comes up; then the
// server goes away mid-crawl and comes back: the node says so, waits, and
// finishes the crawl with every page fetched once.
func TestNodeWithoutNATS(t *testing.T) {
	const pages = 12
	web := serveTestWeb(t, 3, 1, pages, 20*time.Millisecond)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	n := startNode(t, web, "nats://"+addr, web.spec(t, 1, 50*time.Millisecond), "lonely", t.TempDir())
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("never: %s\n%s", what, n.out)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("a clear message about the missing NATS server", func() bool {
		return strings.Contains(n.out.String(), "cannot reach the NATS server at nats://"+addr)
	})
	_, port, _ := net.SplitHostPort(addr)
	store := t.TempDir()
	ns, err := cluster.Embedded(store, "127.0.0.1:"+port, false)
	if err != nil {
		t.Skipf("the port was taken meanwhile: %v", err)
	}
	waitFor("a few pages fetched", func() bool { total, _ := web.snapshot(); return total >= 5 })
	ns.Shutdown()
	waitFor("a message about the lost server", func() bool {
		return strings.Contains(n.out.String(), "lost the NATS connection")
	})
	time.Sleep(time.Second)
	if ns, err = cluster.Embedded(store, "127.0.0.1:"+port, false); err != nil {
		t.Fatal(err)
	}
	defer ns.Shutdown()
	n.wait(t, 60*time.Second)
	out := n.out.String()
	if !strings.Contains(out, "NATS connection back") || !strings.Contains(out, "crawl web finished") {
		t.Fatalf("the node did not carry on once NATS was back:\n%s", out)
	}
	total, overlaps := web.snapshot()
	if total != 3*pages || len(overlaps) > 0 {
		t.Fatalf("fetched %d pages, want %d; overlaps %v\n%s", total, 3*pages, overlaps, out)
	}
}

// BenchmarkNodeScaling crawls one politeness-bound web (60 hosts, each
// on an IP of its own, answering after 100 ms, with a rest of 200 ms per
// IP; 2 workers per node) with 1, 2 and 3 nodes in turn, in the same run,
// and reports pages/s of each (from the first page request to the last,
// as the servers saw them) and the speed-ups. scripts/bench-nodes.sh runs
// it.
func BenchmarkNodeScaling(b *testing.B) {
	const hosts, ips, pages, workers = 60, 60, 10, 2
	rates := map[int]float64{}
	for range b.N {
		for _, n := range []int{1, 2, 3} {
			web := serveTestWeb(b, hosts, ips, pages, 100*time.Millisecond)
			ns, err := cluster.Embedded(b.TempDir(), "127.0.0.1:0", false)
			if err != nil {
				b.Fatal(err)
			}
			specFile := web.spec(b, workers, 200*time.Millisecond)
			dir := b.TempDir()
			var nodes []*clusterNode
			for i := range n {
				name := fmt.Sprintf("n%d", i+1)
				nodes = append(nodes, startNode(b, web, ns.ClientURL(), specFile, name, filepath.Join(dir, name)))
			}
			for _, nd := range nodes {
				nd.wait(b, 10*time.Minute)
			}
			ns.Shutdown()
			total, overlaps := web.snapshot()
			if total != hosts*pages || len(overlaps) > 0 {
				b.Fatalf("%d nodes: %d page requests for %d pages, %d overlaps", n, total, hosts*pages, len(overlaps))
			}
			rates[n] = float64(total) / web.last.Sub(web.first).Seconds()
		}
	}
	for n, r := range rates {
		b.ReportMetric(r, fmt.Sprintf("pages/s@%dnodes", n))
	}
	b.ReportMetric(rates[2]/rates[1], "speedup@2")
	b.ReportMetric(rates[3]/rates[1], "speedup@3")
}

// TestNodeBadCluster gives a node a --cluster that cannot work: a URL of
// another scheme or a typing error is refused at once as a usage error;
// a NATS server without JetStream is named as such and the node exits.
func TestNodeBadCluster(t *testing.T) {
	for _, bad := range []string{"http://127.0.0.1:4222", "embeded", "nats://", "nats://127.0.0.1:4222,localhost"} {
		code, _, errOut := mneme(t, "", "node", "--cluster", bad, "--id", "web", "--data", t.TempDir(), "http://127.0.0.1:1/")
		if code != 2 || !strings.Contains(errOut, "is not a NATS URL") {
			t.Errorf("--cluster %q: exit %d, want 2 with a clear message; stderr %q", bad, code, errOut)
		}
	}
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	defer ns.Shutdown()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("NATS server not ready")
	}
	web := serveTestWeb(t, 1, 1, 1, 0)
	n := startNode(t, web, ns.ClientURL(), web.spec(t, 1, 0), "nojs", t.TempDir())
	n.wait(t, 60*time.Second)
	if code := n.cmd.ProcessState.ExitCode(); code == 0 || !strings.Contains(n.out.String(), "runs without JetStream") {
		t.Fatalf("a NATS server without JetStream: exit %d, output:\n%s", code, n.out)
	}
}

// TestNodesLendToIdle runs two nodes on a web whose domains fall mostly
// to one of them: the other runs out of work first and is lent queues,
// and still every page is fetched once, never two at once on one IP.
func TestNodesLendToIdle(t *testing.T) {
	const hosts, pages = 12, 6
	web := serveTestWeb(t, hosts, hosts, pages, 30*time.Millisecond)
	// Two node names that split the web 3 to 9 or worse.
	var names []string
	for i := 0; names == nil; i++ {
		a, b := fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)
		few := 0
		for _, h := range web.hosts {
			if cluster.Owner(cluster.Domain(h), []string{a, b}) == a {
				few++
			}
		}
		if few <= 3 {
			names = []string{a, b}
		}
	}
	ns, err := cluster.Embedded(t.TempDir(), "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Shutdown()
	specFile := web.spec(t, 1, 100*time.Millisecond)
	dir := t.TempDir()
	var nodes []*clusterNode
	for _, name := range names {
		nodes = append(nodes, startNode(t, web, ns.ClientURL(), specFile, name, filepath.Join(dir, name)))
	}
	for _, n := range nodes {
		n.wait(t, 2*time.Minute)
	}
	total, overlaps := web.snapshot()
	if total != hosts*pages || len(overlaps) > 0 {
		t.Fatalf("%d page requests for %d pages, overlaps %v", total, hosts*pages, overlaps)
	}
	if !strings.Contains(nodes[1].out.String(), "lent ") {
		t.Fatalf("node %s, with most domains, lent nothing to %s, which ran out of work:\n%s\n%s", names[1], names[0], nodes[1].out, nodes[0].out)
	}
}
