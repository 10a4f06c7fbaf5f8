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
	"github.com/mneme-archive/mneme/kb/aah/setup"
	"github.com/mneme-archive/mneme/sparql/endpoint"
)

type serveOptions struct {
	store, addr   string
	data          string // data folder: store read-write plus the control API
	allowRemote   bool
	timeout       time.Duration
	maxConcurrent int
	maxRows       int
	knowledge     knowledgeOptions // of the control API's crawls (--data)
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
A plain HTML page with a query box is at /.

With --data DIR instead of --store, the store of the data folder is opened
read-write and shared with the crawls the control API runs in this process
(/api/crawls…, POST /crawls/ID/urls; see package control); every
write needs the bearer token in DIR/token. Those crawls detect applications
with the built-in knowledge base, or with the files of --kb and the
Wappalyzer-format fingerprints of --fingerprints DIR, as mneme crawl does.

Each query reads one snapshot and runs for at most --timeout (a client's
timeout parameter, in seconds, can shorten it); a query that overruns gets
503. At most --max-concurrent queries run at once, more get 503 with
Retry-After; results stop after --max-rows rows. A client that disconnects
cancels its query. Updates are refused.

The server listens on loopback only unless --allow-remote is given. It
stops cleanly on SIGINT or SIGTERM.`,
		Example: `  mneme serve --store kb
  mneme serve --store kb --addr 127.0.0.1:8080 --timeout 10s
  curl -H 'Accept: text/csv' --data-urlencode 'query=SELECT * { ?s ?p ?o } LIMIT 5' http://127.0.0.1:7878/sparql`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (o.store == "") == (o.data == "") {
				return usagef("serve needs --store DIR or --data DIR (not both)")
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
	cmd.Flags().IntVar(&o.maxConcurrent, "max-concurrent", 0, "queries running at once (default 2×GOMAXPROCS)")
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
// them.
func serveMux(s *graph.Store, o serveOptions) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/sparql", endpoint.New(s, endpoint.Config{
		Timeout:       o.timeout,
		MaxConcurrent: o.maxConcurrent,
		MaxRows:       o.maxRows,
	}))
	mux.Handle("/{$}", endpoint.Page("/sparql"))
	return mux
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
	mux := serveMux(s, o)
	if ctl.h != nil {
		mux.Handle("/api/", ctl.h)
		mux.Handle("/crawls/", ctl.h)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			inflight.Add(1)
			defer inflight.Done()
			mux.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
		// No write timeout: results stream for as long as the query's
		// own timeout allows.
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
		// Running queries get a moment to finish, then their connections
		// close, which cancels them.
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(sctx)
		if errors.Is(err, context.DeadlineExceeded) {
			err = srv.Close()
		}
		stopped <- err
	}()
	err = srv.Serve(ln)
	if !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	err = <-stopped
	inflight.Wait()
	return errors.Join(err, ctl.close()) // the crawls stop before the store closes
}

// served is the control API of a served data folder, if any.
type served struct {
	h *control.Handler
	m *control.Manager
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
	return s, served{h: control.NewHandler(m, tok, 0), m: m}, nil
}
