package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
	"github.com/mneme-archive/mneme/sparql/results"
)

// A store is open in one process at a time (Pebble locks it, read-only
// openings included), so while mneme serve holds a store, mneme query
// reaches it through the server's endpoint: serve notes the endpoint's
// URL in the store directory and query reads it there.

// servedURLFile names the note, in the store directory.
const servedURLFile = "mneme-serve.url"

// noteServedURL writes the endpoint URL of a server listening at addr
// into the store directory and returns what removes it; a directory the
// server may not write to just gets no note.
func noteServedURL(store string, addr net.Addr) func() {
	path := filepath.Join(store, servedURLFile)
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return func() {}
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	u := "http://" + net.JoinHostPort(host, port) + "/sparql"
	if os.WriteFile(path, []byte(u+"\n"), 0o644) != nil {
		return func() {}
	}
	return func() { _ = os.Remove(path) }
}

// servedURL reads the endpoint URL noted in the store directory.
func servedURL(store string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(store, servedURLFile))
	if err != nil {
		return "", false
	}
	u := strings.TrimSpace(string(b))
	return u, u != ""
}

// remoteQuery runs the query on a SPARQL endpoint and writes the answer
// as a local query would: the server's serialization in the chosen
// format, or a table built from its JSON.
func remoteQuery(ctx context.Context, endpoint, text string, form sparql.Form, format string, terminal bool, timeout time.Duration, out io.Writer) error {
	accept, table, err := remoteFormat(form, format, terminal)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	params := url.Values{"query": {text}, "timeout": {strconv.FormatFloat(timeout.Seconds(), 'f', -1, 64)}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(params.Encode()))
	if err != nil {
		return fmt.Errorf("endpoint %s: %w", endpoint, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("query timed out after %v", timeout)
		}
		return fmt.Errorf("endpoint %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("endpoint %s: %s: %s", endpoint, resp.Status, strings.TrimSpace(string(msg)))
	}
	if !table {
		_, err = io.Copy(out, resp.Body)
		return queryFailure(err, timeout)
	}
	res, err := results.ReadJSON(resp.Body, endpoint)
	if err != nil {
		return queryFailure(err, timeout)
	}
	return writeTable(out, &tableRows{res: res}, queryTable)
}

// remoteFormat is the media type to ask the endpoint for, and whether
// the answer is then written as a table.
func remoteFormat(form sparql.Form, format string, terminal bool) (accept string, table bool, err error) {
	if form.IsGraph() {
		mt, _, err := graphFormat(format, form)
		return mt, false, err
	}
	if format == "" && terminal || format == "table" {
		return results.JSON.MediaType(), true, nil
	}
	if format == "" {
		format = "tsv"
	}
	f, err := results.ParseFormat(format)
	if err != nil {
		return "", false, usagef("--format %q: a %s query writes table, json, xml, csv or tsv", format, form)
	}
	return f.MediaType(), false, nil
}

// tableRows reads a parsed results document as writeTable reads a local
// result.
type tableRows struct {
	res *results.Results
	i   int
}

func (t *tableRows) ask() (isAsk, answer bool) { return t.res.Ask, t.res.Boolean }
func (t *tableRows) vars() []string            { return t.res.Vars }
func (t *tableRows) Next() bool                { t.i++; return t.i <= len(t.res.Rows) }
func (t *tableRows) Row() []rdf.Term           { return t.res.Rows[t.i-1] }
func (t *tableRows) Err() error                { return nil }
