// Package hostguard turns away HTTP requests whose Host header names the
// server by a name it does not answer to. A page in a local browser can
// reach a loopback server by DNS rebinding: its own domain name, resolved
// to 127.0.0.1 once the page has loaded, makes the browser's same-origin
// rule treat the server's answers as the page's. Such requests carry that
// foreign name in Host. IP literals and localhost cannot be rebound, so
// they always pass; any other name must be configured.
package hostguard

import (
	"net"
	"net/http"
	"strings"
)

// Guard wraps handlers with the Host check.
type Guard struct {
	names map[string]bool
}

// New returns a guard that also accepts the given host names (without
// port), such as the public name of a server behind a reverse proxy.
func New(names ...string) *Guard {
	g := &Guard{names: map[string]bool{}}
	for _, n := range names {
		g.names[strings.ToLower(strings.TrimSuffix(n, "."))] = true
	}
	return g
}

// Allowed reports whether host (a Host header: name or IP, with or
// without port) names this server.
func (g *Guard) Allowed(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "" {
		return false // HTTP/1.1 requires Host; a blank one names nothing
	}
	if net.ParseIP(host) != nil || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	return g.names[host]
}

// Handler refuses requests whose Host is not allowed with 421
// Misdirected Request, and passes the others to next.
func (g *Guard) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.Allowed(r.Host) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusMisdirectedRequest)
			_, _ = w.Write([]byte("Host " + quote(r.Host) + " does not name this server; use its address, localhost, or a name it is configured with (mneme serve --host NAME)\n"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func quote(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return "\"" + strings.ReplaceAll(s, "\"", "'") + "\""
}
