package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/hostguard"
	"github.com/mneme-archive/mneme/sparql/endpoint"
	"github.com/mneme-archive/mneme/tui"
	"github.com/mneme-archive/mneme/tui/backend"
)

type tuiOptions struct {
	connect, data, token string
	knowledge            knowledgeOptions // of the crawls of its own server
}

func newTUICmd() *cobra.Command {
	var o tuiOptions
	cmd := &cobra.Command{
		Use:   "tui [--connect URL] [--data DIR]",
		Short: "Steer crawls, browse and query the archive in a terminal UI",
		Long: `Open the terminal UI: the crawls of a data folder (start, pause, resume,
stop, create from a spec file), one crawl's queues, crawl.log and WARC
files, its frontier (rescore, blacklist, inject URLs), a SPARQL console
(editor with history and saved queries, results with paging, row detail
and export) and an archive browser (URLs, their captures over time, the
objects extracted from each).

With --connect it attaches to a running 'mneme serve --data' at URL (its
SPARQL endpoint and control API); writes take the bearer token given with
--token, else the one in DIR/token. Otherwise it serves the data folder
DIR itself, as 'mneme serve --data DIR' would, on a loopback port for as
long as it runs: the crawls started from it stop when it quits (it asks
first); --kb and --fingerprints then say what its crawls detect
applications with, as for mneme crawl. When another mneme process holds
DIR (a mneme crawl or serve, which note their address in DIR/store), it
attaches to that process's server instead. Its server log goes to DIR/tui/serve.log, the query history and
saved queries to DIR/tui. On a data folder it cannot write to (read-only
media) it opens the store read-only, writes nothing there, leaves the
crawl screens out (no crawl can start) and keeps the query history and
saved queries in the user cache directory instead. Press ? or F1 for the
keys.`,
		Example: `  mneme demo && mneme tui
  mneme tui --data ./mneme-data
  mneme tui --connect http://127.0.0.1:7878 --data ./mneme-data`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.connect != "" && o.knowledge.given() {
				return usagef("--kb and --fingerprints are for the crawls of the TUI's own server: give them to 'mneme serve --data' with --connect")
			}
			return runTUI(cmd, o)
		},
	}
	cmd.Flags().StringVar(&o.connect, "connect", "", "URL of a running 'mneme serve --data' (default: serve DIR in this process)")
	cmd.Flags().StringVar(&o.data, "data", "mneme-data", "data folder")
	cmd.Flags().StringVar(&o.token, "token", "", "bearer token of the server's control API (default: DIR/token)")
	o.knowledge.flags(cmd.Flags())
	return cmd
}

func runTUI(cmd *cobra.Command, o tuiOptions) error {
	ctx := cmd.Context()
	base, source, owned := o.connect, o.connect, false
	var srv *tuiServer
	if o.connect == "" {
		var err error
		srv, err = startTUIServer(o.data, o.knowledge)
		switch {
		case errors.Is(err, graph.ErrLocked):
			// Another mneme process (a crawl, a serve) holds the data
			// folder: attach to the server it noted, if it runs one.
			u, ok := servedURL(crawler.Layout{Data: o.data}.Store())
			if !ok {
				return fmt.Errorf("%w (is a 'mneme serve --data %s' running? attach to it with --connect URL)", err, o.data)
			}
			if o.knowledge.given() {
				return usagef("--kb and --fingerprints are for the crawls of the TUI's own server, but %s is held by the mneme process serving %s", o.data, u)
			}
			base, source = u, u
		case err != nil:
			return err
		default:
			defer srv.close()
			base, source, owned = srv.url, "data "+o.data, true
			if srv.readOnly {
				source = "data " + o.data + " (read-only)"
			}
		}
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return usagef("--connect %q: want an http:// URL with a host", base)
	}
	root := u.Scheme + "://" + u.Host
	b, err := backend.NewHTTP(base)
	if err != nil {
		return usagef("%v", err)
	}
	defer b.Close()
	tok := o.token
	if tok == "" {
		t, err := os.ReadFile(crawler.Layout{Data: o.data}.Token())
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		tok = strings.TrimSpace(string(t))
	}
	own, crawls := o.data, tui.Crawls{Client: &api.Client{Base: root, Token: tok}, Owned: owned}
	if srv != nil && srv.readOnly {
		// No control API: the store is read-only, so no crawl can run.
		own, crawls = srv.own, tui.Crawls{}
	}
	app := tui.New(b, own, source, crawls)
	if srv != nil && srv.readOnly {
		app.SetStatus(fmt.Sprintf("%s is read-only: store opened read-only, crawls cannot start here; query history and saved queries in %s", o.data, filepath.Join(own, "tui")))
	}
	return tui.Run(ctx, app, cmd.InOrStdin(), cmd.OutOrStdout())
}

// tuiServer is the server the TUI starts on its data folder when it
// attaches to none: the store read-write, the SPARQL endpoint and the
// control API, on a loopback port.
type tuiServer struct {
	url   string
	close func() error
	// readOnly says the data folder could not be written to: the store
	// is open read-only and there is no control API.
	readOnly bool
	// own is the folder whose tui/ keeps the TUI's files (history, saved
	// queries): the data folder, or on read-only media one in the user
	// cache directory.
	own string
}

func startTUIServer(data string, k knowledgeOptions) (*tuiServer, error) {
	own := filepath.Join(data, "tui")
	logf, err := openTUILog(own)
	if readOnlyMedia(err) {
		if _, serr := os.Stat(crawler.Layout{Data: data}.Store()); serr != nil {
			return nil, fmt.Errorf("%s is not writable and holds no store: %w", data, serr)
		}
		if k.given() {
			return nil, usagef("--kb and --fingerprints are for the crawls of the TUI's own server, but %s is read-only: no crawl can start", data)
		}
		return startReadOnlyTUIServer(data)
	}
	if err != nil {
		return nil, err
	}
	o := serveOptions{data: data, timeout: endpoint.DefaultTimeout, maxRows: endpoint.DefaultMaxRows, knowledge: k}
	s, ctl, err := openServed(o, logf)
	if err != nil {
		logf.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ctl.close()
		s.Close()
		logf.Close()
		return nil, err
	}
	mux, closeMux := serveMux(s, o)
	mux.Handle("/api/", ctl.h)
	mux.Handle("/crawls/", ctl.h)
	base, cancelAll := context.WithCancel(context.Background())
	srv := &http.Server{Handler: hostguard.New().Handler(mux), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return base }}
	go srv.Serve(ln)
	t := &tuiServer{url: "http://" + ln.Addr().String() + "/sparql", own: data}
	// mneme query --store and crawl status find the server here while
	// this process holds the store.
	unnote := noteServedURL(crawler.Layout{Data: data}.Store(), ln.Addr())
	t.close = func() error {
		unnote()
		err := shutdown(srv, cancelAll)
		cancelAll()
		// The crawls stop, then the store closes under them.
		return errors.Join(err, ctl.close(), closeMux(), s.Close(), logf.Close())
	}
	return t, nil
}

// openTUILog opens the TUI server's log in own, creating the folder.
func openTUILog(own string) (*os.File, error) {
	if err := os.MkdirAll(own, 0o755); err != nil {
		return nil, err
	}
	return os.OpenFile(filepath.Join(own, "serve.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
}

// readOnlyMedia says err is a refusal to write: a read-only file system
// or a folder without write permission.
func readOnlyMedia(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission)
}

// startReadOnlyTUIServer serves the store of a data folder on read-only
// media: opened read-only, the SPARQL endpoint only (no control API, no
// crawls), nothing written to the folder (no log, no served-URL note).
// The TUI's own files go to the user cache directory.
func startReadOnlyTUIServer(data string) (*tuiServer, error) {
	own, err := readOnlyStateDir(data)
	if err != nil {
		return nil, err
	}
	o := serveOptions{store: crawler.Layout{Data: data}.Store(), timeout: endpoint.DefaultTimeout, maxRows: endpoint.DefaultMaxRows}
	s, _, err := openServed(o, io.Discard)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.Close()
		return nil, err
	}
	base, cancelAll := context.WithCancel(context.Background())
	mux, closeMux := serveMux(s, o)
	srv := &http.Server{Handler: hostguard.New().Handler(mux), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return base }}
	go srv.Serve(ln)
	return &tuiServer{
		url:      "http://" + ln.Addr().String() + "/sparql",
		readOnly: true,
		own:      own,
		close: func() error {
			err := shutdown(srv, cancelAll)
			cancelAll()
			return errors.Join(err, closeMux(), s.Close())
		},
	}, nil
}

// readOnlyStateDir is where the TUI keeps its files for a read-only data
// folder: one folder per data folder under the user cache directory.
func readOnlyStateDir(data string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%s is read-only and there is no user cache directory for the query history: %w", data, err)
	}
	abs, err := filepath.Abs(data)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cache, "mneme", "tui", filepath.Base(abs)+"-"+hex.EncodeToString(sum[:6])), nil
}
