package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	neturl "net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/control"
	"github.com/mneme-archive/mneme/control/cluster"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// nodeOptions are the flags of mneme node besides those it shares with
// mneme crawl.
type nodeOptions struct {
	crawl      crawlOptions
	cluster    string
	listen     string
	name       string
	resolve    []string
	heartbeat  time.Duration
	ttl        time.Duration
	replicas   int
	syncAlways bool
	collect    bool
}

func newNodeCmd() *cobra.Command {
	var o nodeOptions
	cmd := &cobra.Command{
		Use:   "node --cluster URL|embedded --id ID [flags] [URL...]",
		Short: "Run a crawl as one node of a cluster of crawler nodes (NATS JetStream)",
		Long: `Run crawl ID together with other nodes: each node crawls the pay-level
domains that rendezvous hashing gives it over the live nodes, sends the links
it finds on other domains to their owners, claims each host's IP in the
cluster before fetching (one node at a time per IP, with the politeness
delay), and the crawl ends when no node has anything left. Every node keeps
its own data folder (frontier, WARC files, crawl.log, store).

--cluster embedded starts a NATS server with JetStream in this process
(listening on --listen, its streams in DATA/nats) for the other nodes of the
machine to join with --cluster nats://HOST:PORT; on several machines, run a
NATS cluster and give every node its URLs (comma-separated). docs/nodes.md
tells the guarantees.

Every node must run the same spec (same --id, seeds, scope, politeness…;
only --data and --workers may differ): a node whose spec differs from the
cluster's is refused. The node's name (--name, default kept in DATA/node-name)
must stay the same across restarts: a node killed and restarted within the
heartbeat TTL resumes its frontier and keeps its domains.

Ctrl-C or SIGTERM leaves gracefully: the node stops taking URLs, finishes
its fetches and hands its queued URLs to their new owners before it exits.
Every node writes its own WARC files and store; the statements of all
nodes also go through a stream to the node started with --collect, whose
store (and SPARQL endpoint) then holds the whole crawl graph. Without a
collector they wait in the stream.

'mneme cluster pause' (or p in the TUI attached to any node) pauses the
crawl on every node, 'mneme cluster resume' resumes it; a node started
while the crawl is paused starts paused.

--resolve NAME=IP (repeatable) resolves a host name without DNS.`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, args) },
	}
	f := cmd.Flags()
	f.StringVar(&o.cluster, "cluster", "", `NATS URL(s) of the cluster, or "embedded"`)
	f.StringVar(&o.listen, "listen", "127.0.0.1:4222", "with --cluster embedded: the NATS server's address")
	f.StringVar(&o.name, "name", "", "the node's name in the cluster (default: kept in DATA/node-name)")
	f.StringArrayVar(&o.resolve, "resolve", nil, "NAME=IP: resolve host NAME to IP without DNS (repeatable)")
	f.DurationVar(&o.heartbeat, "heartbeat", time.Second, "heartbeat interval")
	f.DurationVar(&o.ttl, "ttl", 5*time.Second, "a node silent this long leaves the live set")
	f.IntVar(&o.replicas, "replicas", 1, "replicas of the cluster's streams and buckets (3 on a NATS cluster of 3+ servers)")
	f.BoolVar(&o.collect, "collect", false, "collect every node's statements into this node's store: the cluster's one store (run it on one node)")
	f.BoolVar(&o.syncAlways, "sync-always", false, "with --cluster embedded: sync every stored message to disk (survives power loss)")
	c := &o.crawl
	f.StringVar(&c.specFile, "spec", "", "crawl specification (YAML)")
	f.StringVar(&c.data, "data", "", "data folder (default: the spec's output, else $MNEME_DATA, else ./mneme-data)")
	f.StringVar(&c.id, "id", "", "crawl id: the same on every node (required unless the spec has one)")
	f.StringVar(&c.politeness, "politeness", "", "\"off\" disables politeness delays (loopback seeds only)")
	f.IntVar(&c.workers, "workers", 0, "concurrent fetches of this node")
	f.StringVar(&c.userAgent, "user-agent", "", "User-Agent with a contact URL")
	f.StringVar(&c.robots, "robots", "", "obey or ignore robots.txt")
	c.aah.flags(f)
	return cmd
}

func (o *nodeOptions) run(cmd *cobra.Command, args []string) error {
	if o.cluster == "" {
		return usagef("--cluster: give the NATS URL of the cluster, or \"embedded\"")
	}
	if o.cluster != "embedded" {
		if err := checkNATSURLs(o.cluster); err != nil {
			return err
		}
	}
	hosts, err := parseResolve(o.resolve)
	if err != nil {
		return err
	}
	s, err := o.crawl.spec(cmd, args)
	if err != nil {
		return err
	}
	if s.ID == "" {
		return usagef("a crawl run by several nodes needs the same --id on every node")
	}
	if s.Incremental != nil {
		return usagef("crawl %s: incremental crawls cannot run on several nodes yet", s.ID)
	}
	stderr := cmd.ErrOrStderr()
	l := crawler.Layout{Data: s.Output}
	resume := false
	if _, err := os.Stat(l.Spec(s.ID)); err == nil {
		// A node restarted: its crawl runs on as it started.
		if s, err = spec.Load(l.Spec(s.ID)); err != nil {
			return err
		}
		s.Output, s.ID, resume = l.Data, filepath.Base(l.Crawl(s.ID)), true
	}
	if err := os.MkdirAll(s.Output, 0o755); err != nil {
		return err
	}
	name, err := nodeName(o.name, s.Output)
	if err != nil {
		return err
	}
	if !resume {
		// The cluster's store names every node's WARC files: they must
		// not share names (a file name holds the time and the host name).
		s.WARC.Prefix += "-" + name
	}
	hash, err := cluster.SpecHash(s)
	if err != nil {
		return err
	}
	// SIGINT and SIGTERM make the node leave gracefully, whoever runs it.
	ctx, stopSignals := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	url := o.cluster
	if o.cluster == "embedded" {
		srv, err := cluster.Embedded(filepath.Join(s.Output, "nats"), o.listen, o.syncAlways)
		if err != nil {
			return err
		}
		defer srv.Shutdown()
		url = srv.ClientURL()
		fmt.Fprintf(stderr, "mneme: embedded NATS server with JetStream at %s (other nodes: --cluster %s)\n", url, url)
	}
	nc, err := connectNATS(ctx, url, stderr)
	if err != nil {
		return err
	}
	defer nc.Close()

	tuneCrawlGC()
	st, err := l.OpenStore()
	if err != nil {
		return err
	}
	defer st.Close()
	node, err := cluster.Join(ctx, cluster.Config{
		Conn: nc, Name: name, Crawl: s.ID, SpecHash: hash, Heartbeat: o.heartbeat, TTL: o.ttl,
		Replicas: o.replicas, Log: stderr,
	})
	if err != nil {
		return err
	}
	pr := newCrawlProgress(stderr)
	d := crawlDeps(st, pr)
	d.Cluster = node
	d.Fetch.Hosts = hosts
	h, err := o.crawl.aah.helper(&d, pr, s.Output)
	if err != nil {
		node.Close()
		return err
	}
	defer closeHelper(h, stderr)
	var c *crawler.Crawl
	if resume {
		c, err = crawler.Open(s.Output, s.ID, d)
	} else {
		c, err = crawler.New(s, d)
	}
	if err != nil {
		node.Close()
		return err
	}
	if err := node.Attach(c); err != nil {
		c.Close()
		node.Close()
		return err
	}
	fmt.Fprintf(stderr, "mneme: node %s runs crawl %s in %s\n", name, s.ID, c.Dir())
	pr.start(c)
	stopServing := serveCrawl(st, c, s.Output, pr, func(ctl *control.Handler) { ctl.SetCluster(node) })
	collectCtx, stopCollect := context.WithCancel(context.Background())
	defer stopCollect()
	collected := make(chan error, 1)
	if o.collect {
		go func() { collected <- node.Collect(collectCtx, st) }()
	}
	start := time.Now()
	before := c.Status()
	errc := make(chan error, 1)
	go func() { errc <- c.Run(context.Background()) }()
	left := false
	select {
	case err = <-errc:
	case <-ctx.Done():
		fmt.Fprintf(stderr, "mneme: node %s leaves the cluster: finishing its fetches and handing its queued URLs over\n", name)
		lctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		lerr := node.Leave(lctx)
		cancel()
		c.Stop()
		err = errors.Join(<-errc, lerr)
		left = true
	}
	if o.collect {
		if !left {
			// Every node's last statements are in the stream once the
			// cluster is done: take them all.
			for {
				n, perr := node.RDFPending(ctx)
				if perr == nil && n == 0 || ctx.Err() != nil {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
		stopCollect()
		if cerr := <-collected; cerr != nil {
			err = errors.Join(err, cerr)
		}
	}
	stopServing()
	pr.stop()
	if !left {
		qctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if qerr := node.Quit(qctx); qerr != nil {
			fmt.Fprintf(stderr, "mneme: leaving the live set: %v\n", qerr)
		}
		cancel()
	}
	cs, _ := node.Status(context.Background())
	node.Close()
	st2 := c.Status()
	secs := time.Since(start).Seconds()
	pages := st2.Fetched - before.Fetched
	var self struct{ fwd, recv, handed int64 }
	for _, n := range cs.Nodes {
		if n.Name == name {
			self.fwd, self.recv, self.handed = n.Forwarded, n.Received, n.HandedOver
		}
	}
	fmt.Fprintf(cmd.OutOrStdout(), "node %s crawl %s %s: %d pages, %.1f s, %.1f pages/s, %d URLs forwarded, %d received, %d handed over\n",
		name, c.ID(), st2.State, pages, secs, float64(pages)/max(secs, 1e-9), self.fwd, self.recv, self.handed)
	return err
}

// parseResolve reads --resolve NAME=IP flags.
func parseResolve(flags []string) (map[string][]netip.Addr, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	m := map[string][]netip.Addr{}
	for _, f := range flags {
		name, ip, ok := strings.Cut(f, "=")
		a, err := netip.ParseAddr(ip)
		if !ok || name == "" || err != nil {
			return nil, usagef("--resolve %q: want NAME=IP, e.g. site1.test=127.0.0.2", f)
		}
		name = strings.ToLower(name)
		m[name] = append(m[name], a)
	}
	return m, nil
}

// nodeName is the node's name: the flag, or the one kept in the data
// folder, made up on first use (host name and a random suffix).
func nodeName(flag, data string) (string, error) {
	path := filepath.Join(data, "node-name")
	if flag != "" {
		return flag, os.WriteFile(path, []byte(flag+"\n"), 0o644)
	}
	if b, err := os.ReadFile(path); err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	host, _ := os.Hostname()
	host = cluster.Token(strings.Split(host, ".")[0])
	if host == "" {
		host = "node"
	}
	var r [3]byte
	_, _ = rand.Read(r[:])
	name := host + "-" + hex.EncodeToString(r[:])
	return name, os.WriteFile(path, []byte(name+"\n"), 0o644)
}

// checkNATSURLs refuses a --cluster value that no NATS server can answer
// (a typing error waits for no server): each comma-separated part must be
// a nats, tls, ws or wss URL with a host, or HOST:PORT.
func checkNATSURLs(list string) error {
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		ok := false
		if scheme, rest, found := strings.Cut(part, "://"); found {
			u, err := neturl.Parse(part)
			ok = err == nil && rest != "" && u.Hostname() != "" &&
				(scheme == "nats" || scheme == "tls" || scheme == "ws" || scheme == "wss")
		} else if h, p, err := net.SplitHostPort(part); err == nil && h != "" && p != "" {
			ok = true
		}
		if !ok {
			return usagef("--cluster %q: %q is not a NATS URL (nats://HOST:PORT, tls://, ws://, wss://, HOST:PORT, several with commas, or \"embedded\")", list, part)
		}
	}
	return nil
}

// connectNATS connects to the cluster's NATS server, retrying with a
// clear message while it cannot be reached, and reports loudly when the
// connection is lost and when it is back.
func connectNATS(ctx context.Context, url string, log io.Writer) (*nats.Conn, error) {
	opts := []nats.Option{
		nats.Name("mneme node"), nats.Timeout(2 * time.Second), nats.MaxReconnects(-1), nats.ReconnectWait(time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil { // nil: this node closed it
				fmt.Fprintf(log, "mneme: lost the NATS connection (%v): the node waits and reconnects\n", err)
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) {
			fmt.Fprintf(log, "mneme: NATS connection back (%s)\n", c.ConnectedUrlRedacted())
		}),
	}
	for attempt := 1; ; attempt++ {
		nc, err := nats.Connect(url, opts...)
		if err == nil {
			if attempt > 1 {
				fmt.Fprintf(log, "mneme: connected to NATS at %s\n", nc.ConnectedUrlRedacted())
			}
			return nc, nil
		}
		fmt.Fprintf(log, "mneme: cannot reach the NATS server at %s: %v (is --cluster right? is the server up?); retrying in 2 s\n", url, err)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no NATS server at %s: %w", url, err)
		case <-time.After(2 * time.Second):
		}
	}
}
