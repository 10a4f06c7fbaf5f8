package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/control"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/hostguard"
	"github.com/mneme-archive/mneme/kb/aah/setup"
	"github.com/mneme-archive/mneme/sparql/endpoint"
)

type serveOptions struct {
	store, addr   string
	data          string // data folder: store read-write plus the control API
	allowRemote   bool
	timeout       time.Duration
	maxConcurrent int
	maxExpensive  int
	maxRows       int
	hosts         []string         // names besides addresses and localhost the server answers to
	publicReads   bool             // control API reads without the token
	knowledge     knowledgeOptions // of the control API's crawls (--data)
	token         string           // of the data folder: writes through Cayley's API
}

func newServeCmd() *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve --store DIR [--addr HOST:PORT]",
		Short: "Serve the store over HTTP as a read-only SPARQL endpoint",
		Long: `Serve the store in DIR (opened read-only) as a SPARQL 1.1 Protocol endpoint
at /sparql: GET, POST with a URL-encoded form or an application/sparql-query
body; results as SPARQL JSON, XML, CSV or TSV (Turtle or N-Triples for
CONSTRUCT and DESCRIBE), chosen by the Accept header or a format parameter.
A plain HTML page with a query box is at /. Cayley's HTTP API answers Gizmo
and GraphQL queries at /api/v2/query?lang=gizmo|graphql with the same
limits (docs/cayley.md); with --data, /api/v2/write and /api/v2/delete take
N-Quads from the bearer of the token.

With --data DIR instead of --store, the store of the data folder is opened
read-write and shared with the crawls the control API runs in this process
(/api/crawls…, POST /crawls/ID/urls; see package control); every
request needs the bearer token in DIR/token, reads too unless
--public-reads. Those crawls detect applications
with the built-in knowledge base, or with the files of --kb and the
Wappalyzer-format fingerprints of --fingerprints DIR, as mneme crawl does.

Each query reads one snapshot and runs for at most --timeout from its
arrival, waiting included (a client's timeout parameter, in seconds, can
shorten it); a query that overruns before its result starts gets 503. Queries
are admitted by the planner's cost estimate: cheap ones run in
--max-concurrent slots of their own, expensive ones in --max-expensive, so
that cheap queries never wait behind expensive ones. A query finding no free
slot waits in a bounded queue, where a freed slot goes to the client (IP
address) served least recently; when the queue is full, 503 with
Retry-After. Queries longer than 256 KiB or with more than 256 triple
patterns get 400. Results stop after --max-rows rows. A client that
disconnects cancels its query, as does one that reads nothing for 5 s.

A query that fails after its result has started (a timeout while streaming)
cannot change the status any more: the body then ends with a line
"#mneme-error: MESSAGE; the result above is incomplete" and the connection
is closed without ending the chunked body, so HTTP clients report an
incomplete transfer and JSON or XML parsers an invalid document.

The server listens on loopback only unless --allow-remote is given, and
answers only requests whose Host header is an IP address, localhost, or a
name given with --host (against DNS rebinding). On SIGINT or SIGTERM it
stops taking queries, lets running ones finish for 2 s, cancels the rest and
exits within 5 s.`,
		Example: `  mneme serve --store kb
  mneme serve --store kb --addr 127.0.0.1:8080 --timeout 10s
  curl -H 'Accept: text/csv' --data-urlencode 'query=SELECT * { ?s ?p ?o } LIMIT 5' http://127.0.0.1:7878/sparql`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (o.store == "") == (o.data == "") {
				return usagef("serve needs --store DIR or --data DIR (not both)")
			}
			if o.publicReads && o.data == "" {
				return usagef("--public-reads is for the control API of --data DIR")
			}
			if o.knowledge.given() && o.data == "" {
				return usagef("--kb and --fingerprints are for the crawls of --data DIR")
			}
			if o.timeout <= 0 {
				return usagef("--timeout must be positive")
			}
			if err := checkLoopback(o.addr, o.allowRemote); err != nil {
				return err
			}
			return runServe(cmd, o)
		},
	}
	cmd.Flags().StringVar(&o.store, "store", "", "store directory")
	cmd.Flags().StringVar(&o.data, "data", "", "data folder: serve its store and the crawl control API (/api/, /crawls/ID/urls)")
	cmd.Flags().StringVar(&o.addr, "addr", "127.0.0.1:7878", "address to listen on")
	cmd.Flags().BoolVar(&o.allowRemote, "allow-remote", false, "allow an --addr that is not a loopback address")
	cmd.Flags().DurationVar(&o.timeout, "timeout", endpoint.DefaultTimeout, "longest time a query may run")
	cmd.Flags().IntVar(&o.maxConcurrent, "max-concurrent", 0, "cheap queries running at once (default 2×GOMAXPROCS)")
	cmd.Flags().IntVar(&o.maxExpensive, "max-expensive", 0, "expensive queries running at once (default half of --max-concurrent)")
	cmd.Flags().BoolVar(&o.publicReads, "public-reads", false, "let the control API's reads (GET) through without the token (writes still need it)")
	cmd.Flags().StringSliceVar(&o.hosts, "host", nil, "a host name the server answers to besides its addresses and localhost (repeatable; e.g. behind a reverse proxy)")
	cmd.Flags().IntVar(&o.maxRows, "max-rows", endpoint.DefaultMaxRows, "rows or triples a result is cut at (negative: no limit)")
	o.knowledge.flags(cmd.Flags())
	return cmd
}

// checkLoopback refuses to listen beyond this machine unless asked to:
// the endpoint has no authentication.
func checkLoopback(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("--addr %q: %v", addr, err)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return usagef("--addr %q is not a loopback address: the endpoint has no authentication; add --allow-remote to serve it anyway", addr)
}

// serveMux routes the server's handlers; the SPARQL endpoint is one of
// them. Call closeMux after the last request has returned, before the
// store closes.
func serveMux(s *graph.Store, o serveOptions) (mux *http.ServeMux, closeMux func() error) {
	mux = http.NewServeMux()
	mux.Handle("/sparql", endpoint.New(s, endpoint.Config{
		Timeout:       o.timeout,
		MaxConcurrent: o.maxConcurrent,
		MaxExpensive:  o.maxExpensive,
		MaxRows:       o.maxRows,
	}))
	mux.Handle("/{$}", endpoint.Page("/sparql"))
	cay := cayleyAPI(s, o)
	mux.Handle("/api/v2/", cay)
	return mux, cay.Close
}

func runServe(cmd *cobra.Command, o serveOptions) error {
	s, ctl, err := openServed(o, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer s.Close()
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		ctl.close()
		return err
	}
	// The store closes only after the last handler returns: a query still
	// reading a snapshot must not outlive it.
	var inflight sync.WaitGroup
	o.token = ctl.token
	mux, closeMux := serveMux(s, o)
	defer closeMux() // after the last request (inflight.Wait), before s.Close
	if ctl.h != nil {
		mux.Handle("/api/", ctl.h)
		mux.Handle("/crawls/", ctl.h)
	}
	// Cancelled when shutdown's grace ends: every request's context
	// derives from it, so queries still running then stop at once.
	base, cancelAll := context.WithCancel(context.Background())
	defer cancelAll()
	guard := hostguard.New(o.hosts...)
	srv := &http.Server{
		Handler: guard.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			inflight.Add(1)
			defer inflight.Done()
			mux.ServeHTTP(w, r)
		})),
		BaseContext:       func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: 10 * time.Second,
		// No server-wide write timeout: the endpoint sets each
		// response's write deadline from its query's timeout and moves
		// it while the client reads.
		IdleTimeout: 2 * time.Minute,
	}
	storeDir := o.store
	if o.data != "" {
		storeDir = crawler.Layout{Data: o.data}.Store()
	}
	// mneme query finds the endpoint here while this process holds the
	// store.
	defer noteServedURL(storeDir, ln.Addr())()
	fmt.Fprintf(cmd.ErrOrStderr(), "mneme: serving %s at http://%s/sparql\n", o.store+o.data, ln.Addr())
	ctx := cmd.Context()
	stopped := make(chan error, 1)
	go func() {
		<-ctx.Done()
		stopped <- shutdown(srv, cancelAll)
	}()
	err = srv.Serve(ln)
	if !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	err = <-stopped
	inflight.Wait()
	return errors.Join(err, ctl.close()) // the crawls stop before the store closes
}

// shutdownGrace is how long running requests may finish after a stop
// signal before they are cancelled; cancelled queries end within
// milliseconds, so the process exits well within 5 s.
const shutdownGrace = 2 * time.Second

// shutdown stops srv: no new connections, running requests get
// shutdownGrace, then cancel cancels their contexts and the connections
// close.
func shutdown(srv *http.Server, cancel context.CancelFunc) error {
	sctx, stop := context.WithTimeout(context.Background(), shutdownGrace)
	defer stop()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		cancel()
		err = srv.Close()
	}
	return err
}

// served is the control API of a served data folder, if any.
type served struct {
	h     *control.Handler
	m     *control.Manager
	token string
}

func (c served) close() error {
	if c.m == nil {
		return nil
	}
	return c.m.Close()
}

// openServed opens the store: read-only for --store; for --data
// read-write, shared with the control API's crawls (Pebble admits one
// process per store).
func openServed(o serveOptions, log io.Writer) (*graph.Store, served, error) {
	if o.data == "" {
		if _, err := os.Stat(o.store); err != nil {
			return nil, served{}, fmt.Errorf("store: %w", err)
		}
		s, err := graph.Open(o.store, graph.OpenOptions{ReadOnly: true})
		if err == nil && !s.HasValueIndex() {
			fmt.Fprint(log, oldStoreNotice(o.store))
		}
		return s, served{}, err
	}
	tok, err := inject.LoadToken(crawler.Layout{Data: o.data}.Token())
	if err != nil {
		return nil, served{}, err
	}
	var k *setup.Knowledge
	if o.knowledge.given() {
		// Loaded before the store opens, so that a wrong KB file or
		// fingerprint directory stops the server at once.
		if k, err = o.knowledge.load(); err != nil {
			return nil, served{}, err
		}
	}
	s, err := crawler.Layout{Data: o.data}.OpenStore()
	if err != nil {
		return nil, served{}, err
	}
	m := control.NewManager(o.data, crawlDeps(s, log), defaultUserAgent())
	if k != nil {
		m.SetKnowledge(k)
	}
	fmt.Fprintf(log, "mneme: control API at /api/crawls (token in %s)\n", crawler.Layout{Data: o.data}.Token())
	h := control.NewHandler(m, tok, 0)
	h.SetPublicReads(o.publicReads)
	return s, served{h: h, m: m, token: tok}, nil
}
