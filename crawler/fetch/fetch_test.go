package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/warc"
)

func TestRecordsExactBytes(t *testing.T) {
	const response = "HTTP/1.1 200 OK\r\nZ-First: 1\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\nA-Last: 2\r\n\r\n" +
		"5\r\n<p>hi\r\n6\r\n there\r\n0\r\n\r\n"
	var gotReq string
	base := rawServer(t, func(c net.Conn) {
		gotReq = readRequestHead(c)
		io.WriteString(c, response)
	})
	f := newFetcher(t, Config{})
	res := fetch(t, f, base+"/page?q=1")
	if res.Err != nil || res.Status != 200 {
		t.Fatalf("status %d, err %v", res.Status, res.Err)
	}
	if got := readAll(t, res.Response.Reader()); got != response {
		t.Errorf("response recorded as\n%q\nwant\n%q", got, response)
	}
	if got := readAll(t, res.Request.Reader()); got != gotReq {
		t.Errorf("request recorded as\n%q\nserver read\n%q", got, gotReq)
	}
	if !strings.HasPrefix(gotReq, "GET /page?q=1 HTTP/1.1\r\n") || !strings.Contains(gotReq, "User-Agent: "+testUA+"\r\n") ||
		!strings.Contains(gotReq, "Accept-Encoding: gzip, deflate\r\n") {
		t.Errorf("unexpected request %q", gotReq)
	}
	if got := readAll(t, res.Text()); got != "<p>hi there" {
		t.Errorf("body %q", got)
	}
	pd, err := warc.PayloadDigest(res.Response)
	if err != nil || pd != res.Digest {
		t.Errorf("WARC payload digest %q (%v), fetch digest %q", pd, err, res.Digest)
	}
	if res.IP != "127.0.0.1" || res.MediaType != "text/html" || res.ContentLength != 11 {
		t.Errorf("IP %q, media type %q, length %d", res.IP, res.MediaType, res.ContentLength)
	}
}

func TestRedirectsRecordedNotFollowed(t *testing.T) {
	var hits = map[string]int{}
	mux := http.NewServeMux()
	codes := []int{301, 302, 303, 307, 308}
	for i, code := range codes {
		mux.HandleFunc(fmt.Sprintf("/r%d", i), func(w http.ResponseWriter, r *http.Request) {
			hits[r.URL.Path]++
			w.Header().Set("Location", fmt.Sprintf("r%d?from=%d", i+1, code))
			w.WriteHeader(code)
		})
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f := newFetcher(t, Config{})
	next := srv.URL + "/r0"
	for i, code := range codes {
		res := fetch(t, f, next)
		if res.Status != code {
			t.Fatalf("hop %d: status %d, want %d (%v)", i, res.Status, code, res.Err)
		}
		want := fmt.Sprintf("%s/r%d?from=%d", srv.URL, i+1, code)
		if res.Location.Href != want {
			t.Fatalf("hop %d: location %q, want %q", i, res.Location.Href, want)
		}
		if !bytes.Contains(must(res.Response.Bytes()), []byte("Location: r")) {
			t.Errorf("hop %d: raw response lacks the Location field", i)
		}
		next = res.Location.Href
	}
	if hits["/r5"] != 0 || len(hits) != len(codes) {
		t.Errorf("server saw %v: a redirect was followed", hits)
	}
}

func must(b []byte, ok bool) []byte {
	if !ok {
		panic("buffer spilled")
	}
	return b
}

func TestRetryAfter(t *testing.T) {
	date := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	mux := http.NewServeMux()
	mux.HandleFunc("/secs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	mux.HandleFunc("/date", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", date.Format(http.TimeFormat))
		w.Header().Set("Retry-After", date.Add(90*time.Second).Format(http.TimeFormat))
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f := newFetcher(t, Config{})
	for path, want := range map[string]time.Duration{"/secs": 120 * time.Second, "/date": 90 * time.Second} {
		res := fetch(t, f, srv.URL+path)
		if !res.HasRetryAfter || res.RetryAfter != want {
			t.Errorf("%s: status %d, retry after %v (%v), want %v", path, res.Status, res.RetryAfter, res.HasRetryAfter, want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{" 30 ", 30 * time.Second, true},
		{"99999999999999", maxRetryAfter, true},
		{"-5", 0, false},
		{"soon", 0, false},
		{"", 0, false},
		{"Wed, 01 Jan 2025 00:01:00 GMT", time.Minute, true},
		{"Tue, 31 Dec 2024 23:00:00 GMT", 0, true}, // in the past: retry now
	} {
		got, ok := ParseRetryAfter(c.in, time.Time{}, now)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestGzipBombBounded(t *testing.T) {
	// 640 gzip members of 16 MiB of zeros: 10 GiB decompressed from ~10 MB.
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(make([]byte, 16<<20))
	zw.Close()
	const members = 640
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "text/html")
		for range members {
			if _, err := w.Write(member.Bytes()); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	f := newFetcher(t, Config{MaxDecodedSize: 4 << 20})
	res := fetch(t, f, srv.URL)
	if res.Status != 200 || res.Truncated != "" {
		t.Fatalf("status %d, truncated %q, err %v", res.Status, res.Truncated, res.Err)
	}
	if res.ContentLength != int64(members*member.Len()) {
		t.Errorf("entity %d bytes, want %d", res.ContentLength, members*member.Len())
	}
	if !res.BodyTruncated || res.Body.Size() != 4<<20 {
		t.Errorf("decoded body %d bytes, truncated %v; want 4 MiB, true", res.Body.Size(), res.BodyTruncated)
	}
	if !res.Response.Spilled() {
		t.Error("a 10 MB recording stayed in memory")
	}
}

func TestEndlessBodyCutAtMaxSize(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 8192)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	f := newFetcher(t, Config{MaxBodySize: 1 << 20})
	res := fetch(t, f, srv.URL)
	if res.Status != 200 || res.Truncated != TruncatedLength || res.ContentLength != 1<<20 {
		t.Fatalf("status %d, truncated %q, length %d", res.Status, res.Truncated, res.ContentLength)
	}
	if got := res.Annotations(); len(got) != 1 || got[0] != "lenTrunc" {
		t.Errorf("annotations %v", got)
	}
	if res.Response.Size() < 1<<20 || res.Response.Size() > 1<<20+3<<20 {
		t.Errorf("recorded %d bytes for a 1 MiB cut", res.Response.Size())
	}
}

func TestSlowServers(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/silent", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // headers never come
	})
	mux.HandleFunc("/trickle", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	})
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.Write([]byte("partial"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	f := newFetcher(t, Config{ResponseHeaderTimeout: 100 * time.Millisecond, TotalTimeout: 400 * time.Millisecond, ReadIdleTimeout: 150 * time.Millisecond})
	if res := fetch(t, f, srv.URL+"/silent"); res.Status != StatusTimeout {
		t.Errorf("silent server: status %d (%v), want %d", res.Status, res.Err, StatusTimeout)
	}
	res := fetch(t, f, srv.URL+"/trickle")
	if res.Status != 200 || res.Truncated != TruncatedTime || res.ContentLength == 0 {
		t.Errorf("trickling server: status %d, truncated %q, %d bytes, err %v", res.Status, res.Truncated, res.ContentLength, res.Err)
	}
	// A body trickling under the minimum rate is cut long before the
	// total timeout would cut it.
	slow := newFetcher(t, Config{MinRate: 1000, MinRateWindow: 100 * time.Millisecond})
	res = fetch(t, slow, srv.URL+"/trickle")
	if res.Status != 200 || res.Truncated != TruncatedTime || !errors.Is(res.Err, errTooSlow) {
		t.Errorf("trickling server under the minimum rate: status %d, truncated %q, err %v", res.Status, res.Truncated, res.Err)
	}
	res = fetch(t, f, srv.URL+"/stall")
	if res.Status != 200 || res.Truncated != TruncatedTime || readAll(t, res.Body.Reader()) != "partial" {
		t.Errorf("stalling server: status %d, truncated %q, err %v", res.Status, res.Truncated, res.Err)
	}
	if got := res.Annotations(); len(got) != 1 || got[0] != "timeTrunc" {
		t.Errorf("annotations %v", got)
	}
}

func TestFailureStatuses(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := ln.Addr().String()
	ln.Close()
	hangup := rawServer(t, func(c net.Conn) { readRequestHead(c) })
	f := newFetcher(t, Config{})
	for _, c := range []struct {
		url  string
		want int
	}{
		{"http://unknown.invalid/", StatusDomainUnresolved},
		{"http://" + closedPort + "/", StatusConnectFailed},
		{hangup + "/", StatusConnectLost},
		{"ftp://127.0.0.1/file", StatusUnfetchable},
		{"mailto:someone@example.org", StatusUnfetchable},
	} {
		res := fetch(t, f, c.url)
		if res.Status != c.want || res.Err == nil {
			t.Errorf("%s: status %d (%v), want %d", c.url, res.Status, res.Err, c.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := f.Fetch(ctx, Request{URL: mustURL(t, hangup)})
	defer res.Close()
	if res.Status != StatusThreadKilled {
		t.Errorf("cancelled fetch: status %d (%v)", res.Status, res.Err)
	}
}

func TestCharsets(t *testing.T) {
	sjis := []byte{0x93, 0xfa, 0x96, 0x7b} // 日本 in Shift_JIS
	bodies := map[string]struct {
		ct, body, charset, text string
	}{
		"/sjis": {"text/html; charset=Shift_JIS", "<p>" + string(sjis) + "</p>", "shift_jis", "<p>日本</p>"},
		"/meta": {"text/html", "<meta charset=\"windows-1252\"><p>caf\xe9</p>", "windows-1252", "<meta charset=\"windows-1252\"><p>café</p>"},
		"/http-equiv": {"text/html", "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-2\"><p>\xb1</p>",
			"iso-8859-2", "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-2\"><p>ą</p>"},
		"/bogus":  {"text/html; charset=x-no-such-charset", "<p>plain</p>", "utf-8", "<p>plain</p>"},
		"/none":   {"text/html", "<p>naïve</p>", "utf-8", "<p>naïve</p>"},
		"/broken": {"text/html; charset=utf-8", "<p>\xff\xfe</p>", "utf-8", "<p>\xff\xfe</p>"},
		"/image":  {"image/png", "\x89PNG", "", "\x89PNG"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := bodies[r.URL.Path]
		w.Header().Set("Content-Type", b.ct)
		io.WriteString(w, b.body)
	}))
	defer srv.Close()
	f := newFetcher(t, Config{})
	for path, b := range bodies {
		res := fetch(t, f, srv.URL+path)
		if res.Charset != b.charset {
			t.Errorf("%s: charset %q, want %q", path, res.Charset, b.charset)
		}
		if got := readAll(t, res.Text()); got != b.text {
			t.Errorf("%s: text %q, want %q", path, got, b.text)
		}
	}
}

func TestGzipAndDeflateDecodedForAnalysisOnly(t *testing.T) {
	const page = "<html><body><a href=/x>x</a></body></html>"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, page)
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept-Encoding") != "gzip, deflate" {
			http.Error(w, "no accept-encoding", 400)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(gz.Bytes())
	}))
	defer srv.Close()
	f := newFetcher(t, Config{})
	res := fetch(t, f, srv.URL)
	if res.Status != 200 || res.DecodeErr != nil {
		t.Fatalf("status %d, decode %v", res.Status, res.DecodeErr)
	}
	if got := readAll(t, res.Text()); got != page {
		t.Errorf("decoded %q", got)
	}
	raw := readAll(t, res.Response.Reader())
	if !strings.HasSuffix(raw, gz.String()) {
		t.Error("the recorded response does not end with the gzip bytes as sent")
	}
	if res.ContentLength != int64(gz.Len()) {
		t.Errorf("content length %d, want %d", res.ContentLength, gz.Len())
	}
}

func TestUnsupportedCodingKeptUndecoded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "br")
		w.Write([]byte{1, 2, 3})
	}))
	defer srv.Close()
	res := fetch(t, newFetcher(t, Config{}), srv.URL)
	if res.Status != 200 || res.DecodeErr == nil || res.Body.Size() != 3 {
		t.Errorf("status %d, decode error %v, body %d bytes", res.Status, res.DecodeErr, res.Body.Size())
	}
}

func TestConditionalRequest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"v1"` && r.Header.Get("If-Modified-Since") == "Wed, 01 Jan 2025 00:00:00 GMT" &&
			r.Header.Get("Referer") == "http://example.org/" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		io.WriteString(w, "changed")
	}))
	defer srv.Close()
	f := newFetcher(t, Config{})
	res := f.Fetch(context.Background(), Request{URL: mustURL(t, srv.URL), Via: "http://example.org/",
		IfNoneMatch: `"v1"`, IfModifiedSince: "Wed, 01 Jan 2025 00:00:00 GMT"})
	defer res.Close()
	if res.Status != http.StatusNotModified {
		t.Errorf("status %d, want 304", res.Status)
	}
}

func TestIDNHost(t *testing.T) {
	var host string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host = r.Host
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	f := newFetcher(t, Config{Hosts: map[string][]netip.Addr{"xn--bcher-kva.example": {netip.MustParseAddr("127.0.0.1")}}})
	res := fetch(t, f, "http://BÜCHER.example:"+port+"/Straße?q=ä")
	if res.Status != 200 {
		t.Fatalf("status %d: %v", res.Status, res.Err)
	}
	if host != "xn--bcher-kva.example:"+port {
		t.Errorf("server saw Host %q", host)
	}
	if !strings.HasPrefix(readAll(t, res.Request.Reader()), "GET /Stra%C3%9Fe?q=%C3%A4 HTTP/1.1\r\n") {
		t.Errorf("request line: %q", readAll(t, res.Request.Reader()))
	}
}

func TestKeepAliveHTTP1(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	conns := countConns(srv)
	srv.Start()
	defer srv.Close()
	f := newFetcher(t, Config{})
	const n = 20
	for range n {
		if res := fetch(t, f, srv.URL); res.Status != 200 {
			t.Fatalf("status %d: %v", res.Status, res.Err)
		}
	}
	// A connection returns to the pool just after its body's EOF, so a
	// fetch may occasionally race it and dial; most must reuse.
	if c := conns.Load(); c > 3 {
		t.Errorf("%d fetches opened %d connections", n, c)
	}
}

func TestHTTP2OverTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("X-Proto", r.Proto)
		io.WriteString(w, "over h2")
	}))
	srv.EnableHTTP2 = true
	conns := countConns(srv)
	srv.StartTLS()
	defer srv.Close()
	f := newFetcher(t, Config{})
	for range 5 {
		res := fetch(t, f, srv.URL+"/x?y")
		if res.Status != 200 || res.Proto != "HTTP/2.0" || res.Header.Get("X-Proto") != "HTTP/2.0" {
			t.Fatalf("status %d, proto %q, err %v", res.Status, res.Proto, res.Err)
		}
		raw := readAll(t, res.Response.Reader())
		if !strings.HasPrefix(raw, "HTTP/2.0 200 OK\r\n") || !strings.HasSuffix(raw, "\r\n\r\nover h2") {
			t.Fatalf("synthesized response %q", raw)
		}
		if req := readAll(t, res.Request.Reader()); !strings.HasPrefix(req, "GET /x?y HTTP/2.0\r\nHost: 127.0.0.1:") {
			t.Fatalf("synthesized request %q", req)
		}
		if pd, err := warc.PayloadDigest(res.Response); err != nil || pd != res.Digest {
			t.Fatalf("payload digest %q (%v), fetch digest %q", pd, err, res.Digest)
		}
	}
	if c := conns.Load(); c != 1 {
		t.Errorf("5 HTTP/2 fetches used %d connections, want 1", c)
	}
}

func TestHTTP1OverTLSRecorded(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "tls body") }))
	defer srv.Close()
	f := newFetcher(t, Config{DisableHTTP2: true})
	res := fetch(t, f, srv.URL)
	if res.Status != 200 || res.Proto != "HTTP/1.1" {
		t.Fatalf("status %d, proto %q, err %v", res.Status, res.Proto, res.Err)
	}
	raw := readAll(t, res.Response.Reader())
	if !strings.HasPrefix(raw, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(raw, "\r\n\r\ntls body") {
		t.Errorf("recorded %q", raw)
	}
	v := newFetcher(t, Config{VerifyTLS: true})
	if res := fetch(t, v, srv.URL); res.Status != StatusConnectFailed {
		t.Errorf("untrusted certificate with VerifyTLS: status %d (%v)", res.Status, res.Err)
	}
}

func TestSpillToFile(t *testing.T) {
	body := strings.Repeat("0123456789", 10000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
	defer srv.Close()
	dir := t.TempDir()
	f := newFetcher(t, Config{MemoryLimit: 4096, TempDir: dir})
	res := f.Fetch(context.Background(), Request{URL: mustURL(t, srv.URL)})
	if !res.Response.Spilled() || !res.Body.Spilled() {
		t.Fatal("100 KB stayed in memory with a 4 KB limit")
	}
	if got := readAll(t, res.Body.Reader()); got != body {
		t.Errorf("spilled body differs (%d bytes)", len(got))
	}
	if pd, err := warc.PayloadDigest(res.Response); err != nil || pd != res.Digest {
		t.Errorf("payload digest %q (%v), fetch digest %q", pd, err, res.Digest)
	}
	if err := res.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("Close left %d temporary files", len(left))
	}
}

func TestDNSCache(t *testing.T) {
	r := &noDNS{}
	f := newFetcher(t, Config{Resolver: r})
	for range 3 {
		fetch(t, f, "http://gone.invalid/")
	}
	if c := r.calls.Load(); c != 1 {
		t.Errorf("3 fetches of an unresolvable host asked the resolver %d times, want 1", c)
	}
	c := newDNSCache(r, nil, time.Minute, 2)
	for _, h := range []string{"a.invalid", "b.invalid", "c.invalid", "d.invalid"} {
		c.lookup(context.Background(), h)
	}
	if n := len(c.entries); n > 2 {
		t.Errorf("cache of 2 holds %d entries", n)
	}
}

func TestUserAgentNeedsContact(t *testing.T) {
	if _, err := New(Config{UserAgent: "mneme"}); err == nil {
		t.Error("a user agent without contact URL was accepted")
	}
}
