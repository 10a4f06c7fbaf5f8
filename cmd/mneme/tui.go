package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
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
applications with, as for mneme crawl. Its server log goes to DIR/tui/serve.log, the query history and
saved queries to DIR/tui. Press ? or F1 for the keys.`,
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
	if o.connect == "" {
		srv, err := startTUIServer(o.data, o.knowledge)
		if err != nil {
			return err
		}
		defer srv.close()
		base, source, owned = srv.url, "data "+o.data, true
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
	app := tui.New(b, o.data, source, tui.Crawls{Client: &api.Client{Base: root, Token: tok}, Owned: owned})
	return tui.Run(ctx, app, cmd.InOrStdin(), cmd.OutOrStdout())
}

// tuiServer is the server the TUI starts on its data folder when it
// attaches to none: the store read-write, the SPARQL endpoint and the
// control API, on a loopback port.
type tuiServer struct {
	url   string
	close func() error
}

func startTUIServer(data string, k knowledgeOptions) (*tuiServer, error) {
	own := filepath.Join(data, "tui")
	if err := os.MkdirAll(own, 0o755); err != nil {
		return nil, err
	}
	logf, err := os.OpenFile(filepath.Join(own, "serve.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	o := serveOptions{data: data, timeout: endpoint.DefaultTimeout, maxRows: endpoint.DefaultMaxRows, knowledge: k}
	s, ctl, err := openServed(o, logf)
	if err != nil {
		logf.Close()
		if strings.Contains(err.Error(), "lock") {
			err = fmt.Errorf("%w (is a 'mneme serve --data %s' running? attach to it with --connect URL)", err, data)
		}
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ctl.close()
		s.Close()
		logf.Close()
		return nil, err
	}
	mux := serveMux(s, o)
	mux.Handle("/api/", ctl.h)
	mux.Handle("/crawls/", ctl.h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t := &tuiServer{url: "http://" + ln.Addr().String() + "/sparql"}
	t.close = func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(ctx)
		if errors.Is(err, context.DeadlineExceeded) {
			err = srv.Close()
		}
		// The crawls stop, then the store closes under them.
		return errors.Join(err, ctl.close(), s.Close(), logf.Close())
	}
	return t, nil
}
