// Package socialtest holds what the social packages' tests share: a
// paged Atom feed on 127.0.0.1 (RFC 5005 next links, a bearer token,
// ETag validators, a request counter), and a search of a data folder for
// credentials, WARC files decompressed.
package socialtest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Feed is a paged Atom feed of Items entries, PerPage a document.
type Feed struct {
	*httptest.Server
	Items, PerPage int
	Token          string        // when set, required as a bearer token, echoed in each document and set as a cookie
	Delay          time.Duration // before each answer
	Requests       atomic.Int64
	Conditional    atomic.Int64 // requests with If-None-Match
}

// Base is when entry 0 was published; entry i is i minutes later.
var Base = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

// NewFeed starts the feed; it closes when the test ends.
func NewFeed(t testing.TB, items, perPage int, token string) *Feed {
	f := &Feed{Items: items, PerPage: perPage, Token: token}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// URL is the feed's first document.
func (f *Feed) URL() string { return f.Server.URL + "/feed.atom" }

// PostURL is entry i's link.
func (f *Feed) PostURL(i int) string { return f.Server.URL + "/posts/" + strconv.Itoa(i) }

// Title is entry i's title.
func Title(i int) string { return fmt.Sprintf("Entry %d about the quake", i) }

// Text is entry i's text.
func Text(i int) string { return fmt.Sprintf("Entry %d: the river rose & the bridge held", i) }

// Author is entry i's author.
func Author(i int) string { return fmt.Sprintf("Author %d", i%7) }

func (f *Feed) serve(w http.ResponseWriter, r *http.Request) {
	f.Requests.Add(1)
	if f.Delay > 0 {
		time.Sleep(f.Delay)
	}
	if f.Token != "" && r.Header.Get("Authorization") != "Bearer "+f.Token {
		http.Error(w, "a bearer token is required", http.StatusUnauthorized)
		return
	}
	if r.URL.Path != "/feed.atom" {
		http.NotFound(w, r)
		return
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	pages := (f.Items + f.PerPage - 1) / f.PerPage
	if page > pages {
		http.NotFound(w, r)
		return
	}
	etag := fmt.Sprintf(`"p%d-%d"`, page, f.Items)
	if r.Header.Get("If-None-Match") != "" {
		f.Conditional.Add(1)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Content-Type", "application/atom+xml")
	if f.Token != "" {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: f.Token})
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n" + `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">`)
	if f.Token != "" {
		fmt.Fprintf(&b, "<!-- served to %s -->", f.Token)
	}
	fmt.Fprintf(&b, `<title>Test feed</title><id>%s/</id><updated>%s</updated><link rel="self" href="%s?page=%d"/>`,
		f.Server.URL, Base.Format(time.RFC3339), f.URL(), page)
	if page < pages {
		fmt.Fprintf(&b, `<link rel="next" href="%s?page=%d"/>`, f.URL(), page+1)
	}
	// Newest first, as feeds are.
	for k := 0; k < f.PerPage; k++ {
		i := f.Items - 1 - ((page-1)*f.PerPage + k)
		if i < 0 {
			break
		}
		fmt.Fprintf(&b, `<entry><id>tag:test,2026:entry-%d</id><title>%s</title><link href="%s"/>`+
			`<published>%s</published><updated>%s</updated><author><name>%s</name></author>`+
			`<category term="quake"/><category term="tag-%d"/>`+
			`<content type="html">%s</content></entry>`,
			i, html.EscapeString(Title(i)), f.PostURL(i), Base.Add(time.Duration(i)*time.Minute).Format(time.RFC3339),
			Base.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), Author(i), i%5,
			html.EscapeString(`<p>`+html.EscapeString(Text(i))+` <a href="/linked/`+strconv.Itoa(i%3)+`">more</a></p>`))
	}
	b.WriteString("</feed>")
	io.WriteString(w, b.String())
}

// NoSecret fails the test when any file under dir holds any of the
// secrets, plain or URL-escaped; gzip files (WARC) are read decompressed.
func NoSecret(t testing.TB, dir string, secrets ...string) {
	t.Helper()
	var forms []string
	for _, s := range secrets {
		forms = append(forms, s, url.QueryEscape(s), url.PathEscape(s))
	}
	files := 0
	err := filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data)) // every member in turn
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
		files++
		for _, f := range forms {
			if bytes.Contains(data, []byte(f)) {
				t.Errorf("%s holds a credential (%q)", path, f)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Errorf("no files under %s to search", dir)
	}
}
