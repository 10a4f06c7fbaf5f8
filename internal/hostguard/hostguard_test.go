package hostguard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestAllowed(t *testing.T) {
	g := New("sparql.example.org")
	for host, want := range map[string]bool{
		"127.0.0.1:7878":          true,
		"[::1]:7878":              true,
		"localhost:7878":          true,
		"LOCALHOST.":              true,
		"app.localhost":           true,
		"192.168.1.4":             true,
		"sparql.example.org":      true,
		"Sparql.Example.Org:443":  true,
		"attacker.example.com":    false,
		"127.0.0.1.nip.io:7878":   false,
		"localhost.attacker.com":  false,
		"":                        false,
		"sparql.example.org.evil": false,
	} {
		if got := g.Allowed(host); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", host, got, want)
		}
	}
}

// A rebinding page's request reaches the server over loopback with its
// own name in Host: refused with 421; the same request by address passes.
func TestHandlerRefusesForeignHost(t *testing.T) {
	srv := httptest.NewServer(New().Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "secret")
	})))
	defer srv.Close()
	for host, want := range map[string]int{"": http.StatusOK, "rebind.attacker.example:80": http.StatusMisdirectedRequest} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || (want != http.StatusOK) == strings.Contains(string(body), "secret") {
			t.Errorf("Host %q: %s %q, want %d", host, resp.Status, body, want)
		}
	}
}
