package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/control"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/sparql/endpoint"
)

// A store opens in one process at a time, so while mneme crawl writes it
// the crawl serves it as mneme serve --data would: the SPARQL endpoint
// on its store and the control API with the crawl in it, on a loopback
// port noted in the store directory (noteServedURL). mneme query --store,
// mneme crawl status and mneme tui find the note when the store is held
// and go through the server.

// serveCrawl serves st and the running crawl c of data folder data until
// the returned stop is called, which the caller does when c's Run has
// returned. A server that cannot start is reported on log; the crawl
// runs anyway.
// setup, when given, adds to the control API (mneme node's cluster routes).
func serveCrawl(st *graph.Store, c *crawler.Crawl, data string, log io.Writer, setup ...func(*control.Handler)) (stop func()) {
	tok, err := inject.LoadToken(crawler.Layout{Data: data}.Token())
	if err != nil {
		fmt.Fprintf(log, "mneme: the store is not served during the crawl: %v\n", err)
		return func() {}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(log, "mneme: the store is not served during the crawl: %v\n", err)
		return func() {}
	}
	m := control.NewManager(data, crawlDeps(st, log), defaultUserAgent())
	ended := m.Adopt(c)
	ctl := control.NewHandler(m, tok, 0)
	for _, f := range setup {
		f(ctl)
	}
	mux, closeMux := serveMux(st, serveOptions{timeout: endpoint.DefaultTimeout, maxRows: endpoint.DefaultMaxRows})
	mux.Handle("/api/", ctl)
	mux.Handle("/crawls/", ctl)
	// The store closes only after the last handler returns: a query still
	// reading a snapshot must not outlive it.
	var inflight sync.WaitGroup
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inflight.Add(1)
		defer inflight.Done()
		mux.ServeHTTP(w, r)
	})}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(log, "mneme: crawl server: %v\n", err)
		}
	}()
	unnote := noteServedURL(crawler.Layout{Data: data}.Store(), ln.Addr())
	fmt.Fprintf(log, "mneme: while it runs, the crawl serves its store at http://%s/sparql and its control API at /api/crawls (mneme query --store, crawl status and tui use them)\n", ln.Addr())
	return func() {
		unnote()
		// Queries still running get a moment, then their connections
		// close, which cancels them.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if errors.Is(srv.Shutdown(ctx), context.DeadlineExceeded) {
			srv.Close()
		}
		inflight.Wait()
		closeMux()
		ended()
		if err := m.Close(); err != nil {
			fmt.Fprintf(log, "mneme: crawl server: %v\n", err)
		}
	}
}
