package synthweb

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Bases are the root URLs of the three demo sites (scheme, host and port,
// no final slash); each site links to the others through them.
type Bases struct{ Blog, Forum, Wiki string }

// Server is a site served on a loopback listener until Close.
type Server struct {
	URL string // root URL, e.g. http://127.0.0.1:41234
	srv *http.Server
}

// Close stops the server at once, dropping open connections.
func (s *Server) Close() error { return s.srv.Close() }

// Listen opens a listener on addr, which must be a loopback address
// (port 0 picks a free port): the sites are for local crawls only.
func Listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("address %q: not a loopback address (want 127.0.0.1:PORT)", addr)
	}
	return net.Listen("tcp", addr)
}

// ServeOn serves h on ln in the background.
func ServeOn(ln net.Listener, h http.Handler) *Server {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	go srv.Serve(ln)
	return &Server{URL: "http://" + ln.Addr().String(), srv: srv}
}

// Demo is the blog, forum and wiki served on three ports of 127.0.0.1:
// three hosts as a crawler sees them, each with its own robots.txt.
type Demo struct {
	Bases
	servers []*Server
}

// StartDemo serves the three demo sites on free ports of 127.0.0.1.
func StartDemo() (*Demo, error) {
	var lns []net.Listener
	for range 3 {
		ln, err := Listen("127.0.0.1:0")
		if err != nil {
			for _, l := range lns {
				l.Close()
			}
			return nil, err
		}
		lns = append(lns, ln)
	}
	d := &Demo{}
	url := func(ln net.Listener) string { return "http://" + ln.Addr().String() }
	d.Bases = Bases{Blog: url(lns[0]), Forum: url(lns[1]), Wiki: url(lns[2])}
	for i, h := range []http.Handler{NewBlog(d.Bases), NewForum(d.Bases), NewWiki(d.Bases)} {
		d.servers = append(d.servers, ServeOn(lns[i], h))
	}
	return d, nil
}

// Seeds are the sites' home pages, where a crawl of the demo starts.
func (d *Demo) Seeds() []string {
	return []string{d.Blog + "/", d.Forum + "/index.php", d.Wiki + "/wiki/Main_Page"}
}

// Close stops the three servers.
func (d *Demo) Close() error {
	var errs []error
	for _, s := range d.servers {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}
