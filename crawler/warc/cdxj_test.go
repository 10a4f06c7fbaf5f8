package warc

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/warc/warctest"
)

// URLs that exercise warcio.js's key: www prefixes, case, default and other
// ports, dot segments, query order, fragments, IDN, IPv4/IPv6 hosts, escapes.
var keyURLs = []string{
	"http://www.Example.com:80/a/../b/./c?z=1&a=2&m#frag",
	"https://www2.example.org:8443/%7Euser/p%C3%A4th?q=%C3%A9&b",
	"http://[::1]:8080/x?",
	"http://127.0.0.1/",
	"https://EXAMPLE.com/Path%2Fwith%2fslash/",
	"http://bücher.example/straße?ä=ö",
	"http://xn--bcher-kva.example/",
	"https://example.com",
	"http://example.com/a b<c>\"d\"",
	"http://wwwexample.com/",
	"https://www.example.com/index.html?b=2&a=1&a=0",
	"http://sub.www.example.com:8080/",
}

func TestCDXJMatchesWarcio(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 0)
	for i, u := range keyURLs {
		ct := []string{"text/html; charset=UTF-8", "", "application/json", "image/png"}[i%4]
		status := []string{"200 OK", "404 Not Found", "301 Moved Permanently"}[i%3]
		date := fetchTime.Add(time.Duration(i) * time.Minute)
		c := mustWrite(t, w, Exchange{URL: u, Date: date, IP: "127.0.0.1", Request: request(u), Response: response(status, ct, "body of "+u)})
		if _, err := w.WriteMetadata(Metadata{URL: u, Date: date, ConcurrentTo: c.Response.RecordID, Outlinks: []Outlink{{URL: u + "/x", Hop: "L"}}}); err != nil {
			t.Fatal(err)
		}
	}
	// a response without request, a truncated one (no digest), a POST, revisits of both profiles
	mustWrite(t, w, Exchange{URL: "http://example.com/alone", Response: response("200 OK", "text/plain", "alone")})
	mustWrite(t, w, Exchange{URL: "http://example.com/cut", Truncated: TruncatedTime,
		Response: bytes.NewReader([]byte("HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nContent-Length: 99\r\n\r\npart"))})
	mustWrite(t, w, Exchange{URL: "http://example.com/form?x=1",
		Request:  bytes.NewReader([]byte("POST /form?x=1 HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/octet-stream\r\nContent-Length: 5\r\n\r\n\x00\x01abc")),
		Response: response("200 OK", "text/plain", "posted")})
	// a POST body longer than the key shows, and a head longer than the
	// writer's first read of a block
	mustWrite(t, w, Exchange{URL: "http://example.com/upload",
		Request:  bytes.NewReader([]byte("PUT /upload HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/octet-stream\r\nContent-Length: 5000\r\n\r\n" + strings.Repeat("\x07z", 2500))),
		Response: response("201 Created", "text/plain", "stored")})
	mustWrite(t, w, Exchange{URL: "http://example.com/cookies", Request: request("http://example.com/cookies"),
		Response: bytes.NewReader([]byte("HTTP/1.1 200 OK\r\nSet-Cookie: " + strings.Repeat("c", 9000) + "\r\nContent-Type: text/css\r\n folded\r\nContent-Length: 2\r\n\r\nok"))})
	orig := mustWrite(t, w, Exchange{URL: "http://example.com/orig", Date: fetchTime, Request: request("http://example.com/orig"), Response: response("200 OK", "text/plain", "dup")})
	if _, err := w.WriteRevisit(Revisit{Profile: IdenticalPayloadDigest, URL: "http://example.com/dup", Request: request("http://example.com/dup"),
		Response: response("200 OK", "text/plain", "dup"), RefersToURI: "http://example.com/orig", RefersToDate: fetchTime, RefersToID: orig.Response.RecordID}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteRevisit(Revisit{Profile: ServerNotModified, URL: "http://example.com/orig",
		Response: bytes.NewReader([]byte("HTTP/1.1 304 Not Modified\r\n\r\n")), RefersToURI: "http://example.com/orig", RefersToDate: fetchTime}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := warcFiles(t, dir)[0]
	ours, err := IndexFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(keyURLs) + 8; len(ours) != want {
		t.Errorf("%d CDXJ lines, want %d", len(ours), want)
	}
	theirs := warctest.Index(t, path)
	if strings.Join(ours, "\n") != strings.Join(theirs, "\n") {
		for i := 0; i < max(len(ours), len(theirs)); i++ {
			var o, th string
			if i < len(ours) {
				o = ours[i]
			}
			if i < len(theirs) {
				th = theirs[i]
			}
			if o != th {
				t.Errorf("line %d:\n ours:   %s\n warcio: %s", i, o, th)
			}
		}
	}
	// The writer left the same lines beside the file.
	written, err := os.ReadFile(IndexPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if string(written) != strings.Join(ours, "\n")+"\n" {
		t.Errorf("written CDXJ differs from IndexFile:\n%s", written)
	}
	warctest.Check(t, path)
}

// TestIndexUnfoundHead writes a response whose HTTP head does not end within
// maxHTTPHeader bytes: the writer cannot index it as written and indexes
// the file by reading it back, which must give the same lines as IndexFile.
func TestIndexUnfoundHead(t *testing.T) {
	dir := t.TempDir()
	w := newTestWriter(t, dir, 0)
	mustWrite(t, w, Exchange{URL: "http://example.com/a", Request: request("http://example.com/a"), Response: response("200 OK", "text/plain", "a")})
	noHead := "HTTP/1.1 200 OK\r\nX-Long: " + strings.Repeat("x", maxHTTPHeader+10)
	mustWrite(t, w, Exchange{URL: "http://example.com/b", Response: bytes.NewReader([]byte(noHead))})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := warcFiles(t, dir)[0]
	want, err := IndexFile(path)
	if err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(IndexPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 2 || string(written) != strings.Join(want, "\n")+"\n" {
		t.Errorf("written CDXJ:\n%s\nIndexFile:\n%s", written, strings.Join(want, "\n"))
	}
}

// TestIndexLinesInParts checks that a file's lines rendered on several
// cores are the lines rendered one by one, none lost or repeated at the
// parts' edges.
func TestIndexLinesInParts(t *testing.T) {
	var x indexer
	var want []string
	for i := range 5000 {
		rec := &cdxItem{typ: "response", uri: fmt.Sprintf("http://example.com/p/%d", i), date: "2026-11-21T16:00:00Z",
			payloadDigest: "sha1:AAAA", status: "200", hasStatus: true, mime: "text/html", offset: int64(i) * 100, length: 100}
		x.add(rec)
		line, err := cdxLine(rec, nil, "f.warc.gz")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, line)
	}
	got, err := x.lines("f.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Fatalf("%d lines, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
