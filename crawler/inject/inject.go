// Package inject is the URL injection service of a running crawl, as in
// ARCOMEM's crawler (deliverable D5.2): a client posts
//
//	POST /crawls/ID/urls
//	Authorization: Bearer TOKEN
//	[{"url": "https://example.org/a", "score": 0.3}, {"url": "…", "blacklisted": true}]
//
// to schedule new URLs or rescore queued ones (the crawl's update function
// combines the new score with the old) and to blacklist URLs. The whole
// request is checked before anything is applied: bad JSON, a bad URL or a
// URL the crawl refuses (out of its scope; not on a loopback host while
// its politeness is off) is a 400 naming the item and the problem. An
// operator may add "override-scope": true to an item to schedule a URL
// outside the scope; the crawl logs every such override. Nothing
// overrides the loopback rule. Every request needs the bearer
// token, which LoadToken creates on first use and keeps in a 0600 file.
package inject

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// Item is one checked entry of a request.
type Item struct {
	URL         canon.URL
	Score       float64 // in [0, 1]; 0 when not given
	HasScore    bool
	Blacklisted bool
	// OverrideScope schedules the URL even outside the crawl's scope (an
	// explicit operator decision, which the crawl logs).
	OverrideScope bool
}

// RefusedError is a Target's answer for an item it will not take; the
// handler answers 400 Bad Request with its text.
type RefusedError struct {
	Item int    // from 1, as in the request
	URL  string // as canonicalised
	Why  string // "out of scope (not-in-scope): …", "politeness is off …"
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("item %d: url %q refused: %s", e.Item, e.URL, e.Why)
}

// Target is a crawl that accepts injected URLs. Inject applies the items
// (all or none) and is safe for concurrent use.
type Target interface {
	Inject(ctx context.Context, items []Item) (Result, error)
}

// Result says what an injection did.
type Result struct {
	Scheduled   int `json:"scheduled"`   // URLs scheduled or rescored
	Blacklisted int `json:"blacklisted"` // URLs blacklisted
}

// ErrNotRunning is returned by a Target that cannot take URLs now; the
// handler answers 409 Conflict.
var ErrNotRunning = errors.New("crawl is not running")

// MaxBody is the largest request body accepted.
const MaxBody = 8 << 20

// Handler serves the injection API.
type Handler struct {
	Token string // required bearer token
	// Lookup finds a crawl by id; ok is false for an unknown crawl.
	Lookup func(id string) (t Target, ok bool)
	// Canonicalizer parses the URLs (default: canon.New(canon.Options{})),
	// the same way the crawl does.
	Canonicalizer *canon.Canonicalizer
}

// ServeHTTP routes POST /crawls/{id}/urls.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutPrefix(r.URL.Path, "/crawls/")
	if ok {
		id, ok = strings.CutSuffix(id, "/urls")
	}
	if !ok || id == "" || strings.Contains(id, "/") {
		httpError(w, http.StatusNotFound, "no such resource: use POST /crawls/ID/urls")
		return
	}
	if !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mneme"`)
		httpError(w, http.StatusUnauthorized, "a valid bearer token is required (Authorization: Bearer TOKEN)")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpError(w, http.StatusMethodNotAllowed, "use POST")
		return
	}
	t, found := h.Lookup(id)
	if !found {
		httpError(w, http.StatusNotFound, fmt.Sprintf("no crawl %q", id))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", MaxBody))
			return
		}
		httpError(w, http.StatusBadRequest, "reading the request: "+err.Error())
		return
	}
	c := h.Canonicalizer
	if c == nil {
		c = canon.New(canon.Options{})
	}
	items, err := Parse(body, c)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	res, err := t.Inject(r.Context(), items)
	var refused *RefusedError
	if errors.As(err, &refused) {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	if errors.Is(err, ErrNotRunning) {
		httpError(w, http.StatusConflict, err.Error())
		return
	}
	if err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(res)
}

func (h *Handler) authorized(r *http.Request) bool { return Authorize(r, h.Token) == nil }

// Errors of Authorize: no bearer token given, or a wrong one.
var (
	ErrNoToken    = errors.New("a bearer token is required (Authorization: Bearer TOKEN)")
	ErrWrongToken = errors.New("wrong bearer token")
)

// Authorize checks the request's bearer token against token (an empty
// token admits nobody), in constant time.
func Authorize(r *http.Request, token string) error {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || strings.TrimSpace(got) == "" {
		return ErrNoToken
	}
	if token == "" || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) != 1 {
		return ErrWrongToken
	}
	return nil
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// rawItem is an entry as posted.
type rawItem struct {
	URL           *string  `json:"url"`
	Score         *float64 `json:"score"`
	Blacklisted   bool     `json:"blacklisted"`
	OverrideScope bool     `json:"override-scope"`
}

// Parse checks a request body: a JSON array of items, each with an
// absolute http(s) url, an optional score in [0, 1] and an optional
// blacklisted flag (not both). Errors name the item (from 1) and, for
// JSON errors, the byte (from 1) where reading failed.
func Parse(body []byte, c *canon.Canonicalizer) ([]Item, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var raw []rawItem
	if err := dec.Decode(&raw); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return nil, fmt.Errorf("bad JSON at byte %d: %v", syn.Offset, err)
		case errors.As(err, &typ) && typ.Field == "":
			return nil, fmt.Errorf("bad JSON at byte %d: a JSON array of {\"url\": …} objects expected, not %s", typ.Offset, typ.Value)
		case errors.As(err, &typ):
			return nil, fmt.Errorf("bad JSON at byte %d: field %s must be %s, not %s", typ.Offset, typ.Field, typ.Type, typ.Value)
		case errors.Is(err, io.EOF):
			return nil, errors.New("empty body: a JSON array of {\"url\": …} objects expected")
		}
		return nil, fmt.Errorf("bad JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("bad JSON: data after the array at byte %d", dec.InputOffset())
	}
	if raw == nil {
		return nil, errors.New("a JSON array of {\"url\": …} objects expected, got null")
	}
	items := make([]Item, 0, len(raw))
	for i, r := range raw {
		it, err := check(r, c)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i+1, err)
		}
		items = append(items, it)
	}
	return items, nil
}

func check(r rawItem, c *canon.Canonicalizer) (Item, error) {
	if r.URL == nil || *r.URL == "" {
		return Item{}, errors.New("\"url\" is required")
	}
	u, err := c.Parse(*r.URL)
	if err != nil {
		return Item{}, fmt.Errorf("url %q: %v", *r.URL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return Item{}, fmt.Errorf("url %q: only http and https URLs can be crawled", *r.URL)
	}
	it := Item{URL: u, Blacklisted: r.Blacklisted, OverrideScope: r.OverrideScope}
	if r.Score != nil {
		s := *r.Score
		if math.IsNaN(s) || s < 0 || s > 1 {
			return Item{}, fmt.Errorf("url %q: score %v is outside [0, 1]", *r.URL, s)
		}
		if r.Blacklisted {
			return Item{}, fmt.Errorf("url %q: a blacklisted URL takes no score", *r.URL)
		}
		it.Score, it.HasScore = s, true
	}
	return it, nil
}
