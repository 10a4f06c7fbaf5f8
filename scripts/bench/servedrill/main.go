// Command servedrill loads a running `mneme serve` the way a crowd of
// careless clients would and reports whether it stays fair and bounded:
// it starts `mneme serve --store DIR` on loopback, then for -duration
// runs -clients clients sending queries back to back (a share -expensive
// of them expensive: ORDER BY, DISTINCT and joins over the whole store,
// long chains of patterns, and queries over the pattern limit), -stuck
// clients that send a query with a large result and never read it, and a
// probe sending one cheap query a second. Every client has its own
// loopback address, as distinct machines would. The cheap and expensive
// queries are built from subjects and predicates sampled from the store,
// so any store serves.
//
// It reports the probe's answers within 1 s, each query's duration
// against the server's timeout, the statuses, the server's peak RSS
// (sampled every 100 ms from /proc), and the time the server takes to
// exit on SIGTERM, with its exit status and any panic in its output.
//
// Usage: servedrill -mneme BIN -store DIR [-clients 64] [-duration 60s]
// [-timeout 5s] [-expensive 0.03] [-stuck 4]
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("mneme", "mneme", "the mneme binary")
	store := flag.String("store", "", "store directory (opened read-only by mneme serve)")
	clients := flag.Int("clients", 64, "clients sending queries back to back")
	duration := flag.Duration("duration", 60*time.Second, "how long the clients run")
	timeout := flag.Duration("timeout", 5*time.Second, "the server's --timeout")
	expensive := flag.Float64("expensive", 0.03, "share of the clients' queries that are expensive")
	stuck := flag.Int("stuck", 4, "clients that never read their answers")
	addr := flag.String("addr", "127.0.0.1:17880", "address the server listens on")
	flag.Parse()
	if *store == "" {
		fmt.Fprintln(os.Stderr, "usage: servedrill -mneme BIN -store DIR [flags]")
		os.Exit(2)
	}
	if err := run(*bin, *store, *addr, *clients, *stuck, *duration, *timeout, *expensive); err != nil {
		fmt.Fprintln(os.Stderr, "servedrill:", err)
		os.Exit(1)
	}
}

func run(bin, store, addr string, clients, stuck int, duration, timeout time.Duration, expensive float64) error {
	var stderr bytes.Buffer
	srv := exec.Command(bin, "serve", "--store", store, "--addr", addr, "--timeout", timeout.String())
	srv.Stderr = &stderr
	if err := srv.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	endpoint := "http://" + addr + "/sparql"
	if err := waitUp(endpoint); err != nil {
		srv.Process.Kill()
		return fmt.Errorf("%w; server said: %s", err, stderr.String())
	}
	subjects, preds, err := sample(endpoint)
	if err != nil {
		srv.Process.Kill()
		return err
	}
	fmt.Printf("store %s: sampled %d subjects, %d predicates; %d clients (%.0f%% expensive), %d never reading, %v, server timeout %v\n",
		store, len(subjects), len(preds), clients, expensive*100, stuck, duration, timeout)

	var peakRSS atomic.Int64
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if kb := rssKB(srv.Process.Pid); kb > peakRSS.Load() {
				peakRSS.Store(kb)
			}
		}
	}()

	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	var st stats
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := client(net.IPv4(127, 0, 1, byte(1+i)), timeout)
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			for ctx.Err() == nil {
				q, kind := cheapQuery(rng, subjects), "cheap"
				if rng.Float64() < expensive {
					q, kind = expensiveQuery(rng, subjects, preds), "expensive"
				}
				st.add(kind, send(c, endpoint, q))
			}
		}()
	}
	for i := range stuck {
		wg.Add(1)
		go func() {
			defer wg.Done()
			neverRead(ctx, net.IPv4(127, 0, 2, byte(1+i)), addr, &st)
		}()
	}
	var probes []outcome
	probe := client(net.IPv4(127, 0, 3, 1), timeout)
	rng := rand.New(rand.NewPCG(99, 1))
	for tick := time.NewTicker(time.Second); ctx.Err() == nil; <-tick.C {
		probes = append(probes, send(probe, endpoint, cheapQuery(rng, subjects)))
	}
	wg.Wait()

	// SIGTERM with queries still running: a burst of expensive ones.
	burst := client(net.IPv4(127, 0, 4, 1), timeout)
	for range 4 {
		go send(burst, endpoint, "SELECT ?o (COUNT(*) AS ?n) { ?s ?p ?o } GROUP BY ?o ORDER BY DESC(?n)")
	}
	time.Sleep(300 * time.Millisecond)
	termAt := time.Now()
	srv.Process.Signal(syscall.SIGTERM)
	var exitErr error
	select {
	case exitErr = <-exited:
	case <-time.After(30 * time.Second):
		srv.Process.Kill()
		exitErr = <-exited
	}
	exitTook := time.Since(termAt)
	close(stop)

	within := 0
	for _, p := range probes {
		if p.status == http.StatusOK && p.took <= time.Second {
			within++
		}
	}
	fmt.Printf("probe: %d of %d cheap queries answered within 1 s (%.1f%%); slowest %v\n",
		within, len(probes), 100*float64(within)/float64(max(1, len(probes))), slowest(probes))
	st.report(timeout)
	fmt.Printf("server peak RSS: %.0f MiB\n", float64(peakRSS.Load())/1024)
	panicked := strings.Contains(stderr.String(), "panic")
	fmt.Printf("SIGTERM: exited after %v, status %v, panic in output: %v\n", exitTook.Round(time.Millisecond), exitStatus(exitErr), panicked)
	if panicked {
		fmt.Println(stderr.String())
	}
	return nil
}

// outcome is one query's end as the client saw it.
type outcome struct {
	status int // 0: transport error (an aborted or cut response)
	took   time.Duration
	err    string
}

type stats struct {
	mu   sync.Mutex
	by   map[string][]outcome
	errs map[string]int
}

func (s *stats) add(kind string, o outcome) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by, s.errs = map[string][]outcome{}, map[string]int{}
	}
	s.by[kind] = append(s.by[kind], o)
	if o.err != "" {
		s.errs[kind+": "+o.err]++
	}
}

func (s *stats) report(timeout time.Duration) {
	kinds := make([]string, 0, len(s.by))
	for k := range s.by {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		os := s.by[k]
		statuses, overBy := map[int]int{}, map[int]int{}
		over := 0
		var took []time.Duration
		for _, o := range os {
			statuses[o.status]++
			took = append(took, o.took)
			if o.took > timeout+200*time.Millisecond {
				over++
				overBy[o.status]++
			}
		}
		slices.Sort(took)
		fmt.Printf("%s: %d queries, statuses %v, median %v, p99 %v, max %v, %d over timeout+200ms (statuses %v)\n", k, len(os), statuses,
			took[len(took)/2].Round(time.Millisecond), took[len(took)*99/100].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond), over, overBy)
	}
	for e, n := range s.errs {
		fmt.Printf("  %dx %s\n", n, e)
	}
}

func slowest(os []outcome) time.Duration {
	var m time.Duration
	for _, o := range os {
		m = max(m, o.took)
	}
	return m.Round(time.Millisecond)
}

// client is an HTTP client whose connections come from ip.
func client(ip net.IP, timeout time.Duration) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}}
	return &http.Client{Timeout: timeout + 10*time.Second, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}}
}

// send posts query and reads the whole answer, timing it.
func send(c *http.Client, endpoint, query string) outcome {
	start := time.Now()
	resp, err := c.PostForm(endpoint, url.Values{"query": {query}})
	if err != nil {
		return outcome{took: time.Since(start), err: short(err)}
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	o := outcome{status: resp.StatusCode, took: time.Since(start)}
	if err != nil {
		o.status, o.err = 0, "body: "+short(err)
	}
	return o
}

func short(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return s
}

// neverRead sends a query with a large answer over a raw connection and
// never reads; when the server closes the connection, it starts again.
func neverRead(ctx context.Context, ip net.IP, addr string, st *stats) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}}
	q := url.QueryEscape("SELECT * { ?s ?p ?o }")
	for ctx.Err() == nil {
		start := time.Now()
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		fmt.Fprintf(c, "GET /sparql?query=%s HTTP/1.1\r\nHost: %s\r\n\r\n", q, addr)
		// Wait, without reading, until the server gives up (the
		// connection is then reset or closed: a 1-byte peek shows it).
		c.(*net.TCPConn).SetReadBuffer(4096)
		var ended bool
		for ctx.Err() == nil && !ended {
			time.Sleep(20 * time.Millisecond)
			ended = closedByPeer(c)
		}
		c.Close()
		if ended {
			st.add("never-reading", outcome{took: time.Since(start)})
		}
	}
}

// closedByPeer reports whether the server has closed c: a write fails
// once the peer reset it.
func closedByPeer(c net.Conn) bool {
	c.SetWriteDeadline(time.Now().Add(10 * time.Millisecond))
	_, err := c.Write([]byte("\r\n"))
	return err != nil && !isTimeout(err)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

func cheapQuery(rng *rand.Rand, subjects []string) string {
	return fmt.Sprintf("SELECT ?p ?o { <%s> ?p ?o } LIMIT 100", subjects[rng.IntN(len(subjects))])
}

func expensiveQuery(rng *rand.Rand, subjects, preds []string) string {
	p := func() string { return preds[rng.IntN(len(preds))] }
	switch rng.IntN(5) {
	case 0:
		return "SELECT ?s ?o { ?s ?p ?o } ORDER BY ?o ?s LIMIT 10"
	case 1:
		return "SELECT DISTINCT ?o { ?s ?p ?o }"
	case 2:
		return fmt.Sprintf("SELECT (COUNT(*) AS ?n) { ?a <%s> ?b . ?c <%s> ?d . FILTER(?b != ?d) }", p(), p())
	case 3:
		// A chain of 200 patterns: under the pattern limit, a planning
		// workout.
		var b strings.Builder
		b.WriteString("SELECT * {")
		for i := range 200 {
			fmt.Fprintf(&b, " ?x%d ?p%d ?x%d .", i, i, i+1)
		}
		return b.String() + " } LIMIT 10"
	default:
		// 2,000 patterns: over the limit, refused with 400.
		var b strings.Builder
		b.WriteString("SELECT * {")
		for i := range 2000 {
			fmt.Fprintf(&b, " ?x%d <%s> ?x%d .", i, p(), i+1)
		}
		return b.String() + " }"
	}
}

// sample reads subjects and predicates from the store through the
// endpoint.
func sample(endpoint string) (subjects, preds []string, err error) {
	get := func(q string) ([]string, error) {
		resp, err := http.PostForm(endpoint, url.Values{"query": {q}, "timeout": {"60"}})
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			return nil, fmt.Errorf("sampling: %s: %s", resp.Status, b)
		}
		var doc struct {
			Results struct {
				Bindings []map[string]struct{ Value string } `json:"bindings"`
			} `json:"results"`
		}
		if err := json.NewDecoder(bufio.NewReader(resp.Body)).Decode(&doc); err != nil {
			return nil, err
		}
		var out []string
		for _, b := range doc.Results.Bindings {
			out = append(out, b["x"].Value)
		}
		return out, nil
	}
	if subjects, err = get("SELECT DISTINCT ?x { ?x ?p ?o FILTER(isIRI(?x)) } LIMIT 5000"); err != nil {
		return nil, nil, err
	}
	if preds, err = get("SELECT DISTINCT ?x { ?s ?x ?o } LIMIT 200"); err != nil {
		return nil, nil, err
	}
	if len(subjects) == 0 || len(preds) == 0 {
		return nil, nil, fmt.Errorf("the store has no IRI subjects")
	}
	return subjects, preds, nil
}

func waitUp(endpoint string) error {
	for range 600 {
		resp, err := http.PostForm(endpoint, url.Values{"query": {"ASK {}"}})
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the server did not answer at %s", endpoint)
}

// rssKB is a process's resident set size, in KiB.
func rssKB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

func exitStatus(err error) string {
	if err == nil {
		return "0"
	}
	return err.Error()
}
