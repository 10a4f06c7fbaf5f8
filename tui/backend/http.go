package backend

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
	"github.com/mneme-archive/mneme/sparql/parse"
	"github.com/mneme-archive/mneme/sparql/results"
)

// HTTP answers through a SPARQL 1.1 Protocol endpoint.
type HTTP struct {
	endpoint string
	client   *http.Client
}

// accept asks for SPARQL JSON results, or N-Triples for CONSTRUCT and
// DESCRIBE (which stream as they are parsed).
const accept = "application/sparql-results+json, application/n-triples;q=0.9"

// maxErrorBody bounds how much of an error response is kept.
const maxErrorBody = 4 << 10

// NewHTTP talks to the endpoint at base: a server root such as
// http://127.0.0.1:7878 (its endpoint is /sparql) or the endpoint's own
// URL.
func NewHTTP(base string) (*HTTP, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("--connect %q: %w", base, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("--connect %q: want an http:// or https:// URL with a host", base)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/sparql"
	}
	return &HTTP{endpoint: u.String(), client: &http.Client{}}, nil
}

// Name is the endpoint's URL.
func (h *HTTP) Name() string { return h.endpoint }

// Close drops idle connections.
func (h *HTTP) Close() error {
	h.client.CloseIdleConnections()
	return nil
}

// Query checks the syntax locally, so an error carries its position as
// a local engine's would, then POSTs the query.
func (h *HTTP) Query(ctx context.Context, query string) (Rows, error) {
	if _, err := parse.Query(query); err != nil {
		return nil, err
	}
	form := url.Values{"query": {query}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", accept)
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, fmt.Errorf("%s: %s: %s", h.endpoint, resp.Status, strings.TrimSpace(string(body)))
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch ct {
	case "application/sparql-results+json", "application/json":
		defer resp.Body.Close()
		res, err := results.ReadJSON(resp.Body, h.endpoint)
		if err != nil {
			return nil, err
		}
		return &tableRows{res: res, i: -1}, nil
	case "application/n-triples", "text/plain":
		return &tripleRows{body: resp.Body, r: ntriples.NewReader(resp.Body, rdf.ParseOptions{Name: h.endpoint})}, nil
	}
	resp.Body.Close()
	return nil, fmt.Errorf("%s: unexpected Content-Type %q", h.endpoint, ct)
}

// tableRows walks a results document read whole: the JSON reader parses
// complete documents.
type tableRows struct {
	res *results.Results
	i   int
}

func (t *tableRows) Vars() []string        { return t.res.Vars }
func (t *tableRows) Boolean() (bool, bool) { return t.res.Boolean, t.res.Ask }
func (t *tableRows) Err() error            { return nil }
func (t *tableRows) Close() error          { return nil }
func (t *tableRows) Row() []rdf.Term       { return t.res.Rows[t.i] }

func (t *tableRows) Next() bool {
	if t.i+1 >= len(t.res.Rows) {
		return false
	}
	t.i++
	return true
}

// tripleRows streams an N-Triples response.
type tripleRows struct {
	body io.ReadCloser
	r    *ntriples.Reader
	row  [3]rdf.Term
	err  error
}

func (t *tripleRows) Vars() []string        { return TripleVars }
func (t *tripleRows) Boolean() (bool, bool) { return false, false }
func (t *tripleRows) Row() []rdf.Term       { return t.row[:] }
func (t *tripleRows) Err() error            { return t.err }
func (t *tripleRows) Close() error          { return t.body.Close() }

func (t *tripleRows) Next() bool {
	if t.err != nil {
		return false
	}
	q, err := t.r.Next()
	if err != nil {
		if err != io.EOF {
			t.err = err
		}
		return false
	}
	t.row = [3]rdf.Term{q.S, q.P, q.O}
	return true
}
