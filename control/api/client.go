package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Client calls the control API of a server, for the CLI and the TUI.
type Client struct {
	Base  string       // server URL, e.g. http://127.0.0.1:7878
	Token string       // bearer token, needed for writes
	HTTP  *http.Client // default http.DefaultClient
}

// APIError is an error answer of the server.
type APIError struct {
	Code    int // HTTP status
	Message string
	Detail  any
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Code, http.StatusText(e.Code), e.Message)
}

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// send makes a request and returns the response if it is a 2xx one.
func (c *Client) send(ctx context.Context, method, path, ctype string, body []byte) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(c.Base, "/")+path, rd)
	if err != nil {
		return nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 == 2 {
		return resp, nil
	}
	defer resp.Body.Close()
	var eb ErrorBody
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if json.Unmarshal(data, &eb) != nil || eb.Error == "" {
		eb.Error = strings.TrimSpace(string(data))
	}
	return nil, &APIError{Code: resp.StatusCode, Message: eb.Error, Detail: eb.Detail}
}

// do makes a request and decodes its JSON answer into out.
func (c *Client) do(ctx context.Context, method, path, ctype string, body []byte, out any) error {
	resp, err := c.send(ctx, method, path, ctype, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	return nil
}

func crawlPath(id, rest string) string { return "/api/crawls/" + url.PathEscape(id) + rest }

// List returns every crawl's status.
func (c *Client) List(ctx context.Context) ([]Status, error) {
	var out []Status
	return out, c.do(ctx, "GET", "/api/crawls", "", nil, &out)
}

// Create creates a crawl from a YAML specification.
func (c *Client) Create(ctx context.Context, specYAML []byte) (Status, error) {
	var out Status
	return out, c.do(ctx, "POST", "/api/crawls", "application/yaml", specYAML, &out)
}

// Get returns a crawl's status and specification.
func (c *Client) Get(ctx context.Context, id string) (Crawl, error) {
	var out Crawl
	return out, c.do(ctx, "GET", crawlPath(id, ""), "", nil, &out)
}

// Status returns a crawl's status.
func (c *Client) Status(ctx context.Context, id string) (Status, error) {
	var out Status
	return out, c.do(ctx, "GET", crawlPath(id, "/status"), "", nil, &out)
}

// Do runs action start, pause, resume or stop on a crawl.
func (c *Client) Do(ctx context.Context, id, action string) (Status, error) {
	var out Status
	return out, c.do(ctx, "POST", crawlPath(id, "/"+action), "", nil, &out)
}

// Queues returns up to limit of a crawl's queues.
func (c *Client) Queues(ctx context.Context, id string, limit int) (Queues, error) {
	var out Queues
	return out, c.do(ctx, "GET", crawlPath(id, fmt.Sprintf("/queues?limit=%d", limit)), "", nil, &out)
}

// AddSeeds adds seeds to an open crawl and returns its specification.
func (c *Client) AddSeeds(ctx context.Context, id string, urls ...string) (string, error) {
	body, _ := json.Marshal(Seeds{Add: urls})
	var out Spec
	return out.Spec, c.do(ctx, "POST", crawlPath(id, "/seeds"), "application/json", body, &out)
}

// EditScope changes the scope fields given in YAML (or JSON) and returns
// the crawl's specification.
func (c *Client) EditScope(ctx context.Context, id string, scopeYAML []byte) (string, error) {
	var out Spec
	return out.Spec, c.do(ctx, "PATCH", crawlPath(id, "/scope"), "application/yaml", scopeYAML, &out)
}

// InjectItem is a URL to schedule (with a score) or blacklist.
type InjectItem struct {
	URL         string   `json:"url"`
	Score       *float64 `json:"score,omitempty"`
	Blacklisted bool     `json:"blacklisted,omitempty"`
}

// Inject schedules, rescores or blacklists URLs of a running crawl.
func (c *Client) Inject(ctx context.Context, id string, items []InjectItem) (InjectResult, error) {
	body, _ := json.Marshal(items)
	var out InjectResult
	return out, c.do(ctx, "POST", "/crawls/"+url.PathEscape(id)+"/urls", "application/json", body, &out)
}

// Events calls fn with each status the server streams until the run
// ends (fn then gets the last status with end true), ctx is done or fn
// returns an error.
func (c *Client) Events(ctx context.Context, id string, fn func(s Status, end bool) error) error {
	resp, err := c.send(ctx, "GET", crawlPath(id, "/events"), "", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var event string
	var data []byte
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")...)
		case line == "" && data != nil:
			var s Status
			if err := json.Unmarshal(data, &s); err != nil {
				return fmt.Errorf("event stream of %s: %w", id, err)
			}
			if err := fn(s, event == "end"); err != nil || event == "end" {
				return err
			}
			event, data = "", nil
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return fmt.Errorf("event stream of %s: ended before the run", id)
}

// Frontier returns up to limit of the best-scored queued URLs of an open
// crawl, best first.
func (c *Client) Frontier(ctx context.Context, id string, limit int) ([]Queued, error) {
	var out Frontier
	return out.URLs, c.do(ctx, "GET", crawlPath(id, fmt.Sprintf("/frontier?limit=%d", limit)), "", nil, &out)
}

// Log returns the last lines (at most n) of a crawl's crawl.log, oldest
// first, with their fields.
func (c *Client) Log(ctx context.Context, id string, n int) (Log, error) {
	var out Log
	return out, c.do(ctx, "GET", crawlPath(id, fmt.Sprintf("/log?lines=%d", n)), "", nil, &out)
}

// WARCs lists the WARC files of a crawl.
func (c *Client) WARCs(ctx context.Context, id string) ([]WARCFile, error) {
	var out WARCs
	return out.Files, c.do(ctx, "GET", crawlPath(id, "/warcs"), "", nil, &out)
}

// Learned lists the patterns learned in the server's data folder.
func (c *Client) Learned(ctx context.Context) (Learned, error) {
	var out Learned
	return out, c.do(ctx, "GET", "/api/learned", "", nil, &out)
}

// Preview extracts a stored page (default: the first the pattern was
// checked on) without and with learned pattern id.
func (c *Client) Preview(ctx context.Context, id, page string) (Preview, error) {
	var out Preview
	path := "/api/learned/" + url.PathEscape(id) + "/preview"
	if page != "" {
		path += "?url=" + url.QueryEscape(page)
	}
	return out, c.do(ctx, "GET", path, "", nil, &out)
}

// Review accepts (accept true) or rejects learned pattern id.
func (c *Client) Review(ctx context.Context, id string, accept bool) (Proposal, error) {
	action := "reject"
	if accept {
		action = "accept"
	}
	var out Proposal
	return out, c.do(ctx, "POST", "/api/learned/"+url.PathEscape(id)+"/"+action, "", nil, &out)
}
