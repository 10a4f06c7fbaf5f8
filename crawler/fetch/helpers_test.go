package fetch

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
)

const testUA = "mneme-test/0.1 (+https://example.org/crawler)"

// noDNS is the resolver of tests: loopback only, so every name not in
// Config.Hosts is unknown.
type noDNS struct{ calls atomic.Int32 }

func (r *noDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.calls.Add(1)
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func newFetcher(t testing.TB, cfg Config) *Fetcher {
	t.Helper()
	if cfg.UserAgent == "" {
		cfg.UserAgent = testUA
	}
	if cfg.Resolver == nil {
		cfg.Resolver = &noDNS{}
	}
	if cfg.TempDir == "" {
		cfg.TempDir = t.TempDir()
	}
	f, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

func mustURL(t testing.TB, raw string) canon.URL {
	t.Helper()
	u, err := canon.New(canon.Options{}).Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func fetch(t testing.TB, f *Fetcher, raw string) *Result {
	t.Helper()
	res := f.Fetch(context.Background(), Request{URL: mustURL(t, raw)})
	t.Cleanup(func() { res.Close() })
	return res
}

func readAll(t testing.TB, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// countConns starts srv counting the connections it accepts.
func countConns(srv *httptest.Server) *atomic.Int32 {
	var n atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			n.Add(1)
		}
	}
	return &n
}

// rawServer answers every connection on 127.0.0.1 with handle.
func rawServer(t testing.TB, handle func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				handle(c)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// readRequestHead consumes one request head from c.
func readRequestHead(c net.Conn) string {
	var b strings.Builder
	buf := make([]byte, 1)
	for !strings.HasSuffix(b.String(), "\r\n\r\n") {
		if _, err := c.Read(buf); err != nil {
			break
		}
		b.WriteByte(buf[0])
	}
	return b.String()
}
