package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/cayley"
	"github.com/mneme-archive/mneme/cayley/api"
	"github.com/mneme-archive/mneme/graph"
)

// cayleyAPIPath is where mneme serve answers Cayley's HTTP API.
const cayleyAPIPath = "/api/v2/query"

// runCayleyQuery runs a Gizmo or GraphQL query (mneme query --lang) on
// the store, or on the server holding it, and writes one JSON result per
// line.
func runCayleyQuery(cmd *cobra.Command, o queryOptions, arg string) error {
	if o.explain {
		return usagef("--explain is for SPARQL queries")
	}
	if o.format != "" && o.format != "json" {
		return usagef("--format %q: a %s query writes json (one result per line)", o.format, o.lang)
	}
	text, name, err := readQuery(cmd, arg)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if o.endpoint != "" {
		return remoteCayley(cmd.Context(), cayleyEndpoint(o.endpoint), o.lang, text, o.timeout, out)
	}
	if _, err := os.Stat(o.store); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	s, err := graph.Open(o.store, graph.OpenOptions{ReadOnly: true})
	if errors.Is(err, graph.ErrLocked) {
		u, ok := servedURL(o.store)
		if !ok {
			return fmt.Errorf("store %s is in use by another process (a mneme serve, crawl or load holds it): query a running server with --endpoint URL, or wait for the other process to end", o.store)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "mneme: %s is held by mneme serve; querying it at %s\n", o.store, cayleyEndpoint(u))
		return remoteCayley(cmd.Context(), cayleyEndpoint(u), o.lang, text, o.timeout, out)
	}
	if err != nil {
		return err
	}
	defer s.Close()
	qs := cayley.NewSnapshot(s)
	defer qs.Close()
	ctx, cancel := context.WithTimeout(cmd.Context(), o.timeout)
	defer cancel()
	enc := json.NewEncoder(out)
	_, err = api.Run(ctx, qs, o.lang, text, 0, func(v any) error { return enc.Encode(v) })
	var se *api.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s:%d:%d: %s", name, se.Line, se.Col, se.Msg)
	}
	return queryFailure(err, o.timeout)
}

// cayleyEndpoint is the Cayley API URL of a server given by any of its
// URLs (the noted /sparql one, or its root).
func cayleyEndpoint(u string) string {
	p, err := url.Parse(u)
	if err != nil || strings.HasSuffix(p.Path, cayleyAPIPath) {
		return u
	}
	p.Path = cayleyAPIPath
	return p.String()
}

// remoteCayley posts the query to a Cayley HTTP API and writes its
// results one per line.
func remoteCayley(ctx context.Context, endpoint, lang, text string, timeout time.Duration, out io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	q := url.Values{"lang": {lang}, "timeout": {strconv.FormatFloat(timeout.Seconds(), 'f', -1, 64)}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint+"?"+q.Encode(), strings.NewReader(text))
	if err != nil {
		return fmt.Errorf("endpoint %s: %w", endpoint, err)
	}
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return queryFailure(fmt.Errorf("endpoint %s: %w", endpoint, err), timeout)
	}
	defer resp.Body.Close()
	var answer struct {
		Result []json.RawMessage `json:"result"`
		Error  string            `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		return queryFailure(fmt.Errorf("endpoint %s: %s: reading the answer: %w", endpoint, resp.Status, err), timeout)
	}
	if resp.StatusCode != http.StatusOK || answer.Error != "" {
		return fmt.Errorf("endpoint %s: %s: %s", endpoint, resp.Status, answer.Error)
	}
	for _, r := range answer.Result {
		if _, err := fmt.Fprintf(out, "%s\n", r); err != nil {
			return err
		}
	}
	return nil
}

// cayleyAPI is Cayley's HTTP API over the served store, with the SPARQL
// endpoint's limits; writable with the data folder's token.
func cayleyAPI(s *graph.Store, o serveOptions) *api.Handler {
	return api.New(s, api.Config{Timeout: o.timeout, MaxConcurrent: o.maxConcurrent, MaxRows: o.maxRows, Token: o.token})
}
