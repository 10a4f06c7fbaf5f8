package endpoint

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// crossQuery streams millions of rows (3000 × 3000 pairs): far more than
// a socket buffers, and longer to write than the tests' timeouts.
const crossQuery = `SELECT * { ?a <http://example.org/filler> ?x . ?b <http://example.org/filler> ?y }`

// Clients that send an expensive query with a large result and never
// read it do not keep a cheap query from being answered, and their
// queries end once they have read nothing for WriteStall, although they
// keep their connections open and the query timeout is a minute away.
func TestNeverReadingClientsDoNotBlockOthers(t *testing.T) {
	s := newStore(t)
	h, srv := serve(t, s, Config{MaxConcurrent: 2, MaxExpensive: 1, Timeout: time.Minute, WriteStall: 300 * time.Millisecond, MaxRows: -1})
	addr := strings.TrimPrefix(srv.URL, "http://")
	var conns []net.Conn
	for i := range 4 {
		// Each from its own loopback address: four clients, not one.
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+i))}}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /sparql?query=%s HTTP/1.1\r\nHost: %s\r\n\r\n", url.QueryEscape(crossQuery), addr)
		conns = append(conns, c)
	}
	for i := 0; h.admit.load() < 4; i++ {
		if i > 1000 {
			t.Fatalf("%d of the 4 never-reading clients' queries arrived", h.admit.load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	for i := range 10 {
		resp, body := get(t, srv, url.Values{"query": {"SELECT ?n { <http://example.org/person/1> <http://example.org/name> ?n }"}}, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Person") {
			t.Fatalf("probe %d beside 4 never-reading clients: %s %q", i, resp.Status, body)
		}
	}
	// Only the stall deadline can end their queries now.
	for i := 0; h.admit.load() > 0; i++ {
		if i > 3000 {
			t.Fatalf("%d queries of clients that never read still running or waiting", h.admit.load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The connections were aborted, not left half-written.
	for i, c := range conns {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.Copy(io.Discard, c); err != nil && !strings.Contains(err.Error(), "reset") {
			t.Errorf("client %d: reading after the abort: %v", i, err)
		}
	}
}

// A query that times out after its result has started ends the body
// with the error line and an aborted chunked transfer: the client's HTTP
// library reports an error, the JSON does not parse, and the line says
// why.
func TestTimeoutMidStreamIsVisible(t *testing.T) {
	s := newStore(t)
	_, srv := serve(t, s, Config{Timeout: time.Minute, MaxRows: -1})
	resp, err := http.Get(srv.URL + "/sparql?" + url.Values{"query": {crossQuery}, "timeout": {"0.5"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %s: the result should have started before the timeout", resp.Status)
	}
	body, err := io.ReadAll(bufio.NewReader(resp.Body))
	if err == nil {
		t.Error("reading the cut result: no error from the HTTP client")
	}
	want := ErrorLinePrefix + "query timed out after 500ms; the result above is incomplete\n"
	if !strings.HasSuffix(string(body), want) {
		tail := body[max(0, len(body)-200):]
		t.Errorf("body ends %q, want the error line %q", tail, want)
	}
	if json.Valid(body) {
		t.Error("the cut JSON result is valid JSON")
	}
}
