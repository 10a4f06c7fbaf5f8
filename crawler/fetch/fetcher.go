package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// Defaults for the zero Config fields.
const (
	DefaultMaxBodySize         = 100 << 20 // Heritrix's usual max-length-bytes order
	DefaultMaxDecodedSize      = 32 << 20
	DefaultMemoryLimit         = 1 << 20
	DefaultConnectTimeout      = 10 * time.Second
	DefaultTLSHandshakeTimeout = 10 * time.Second
	DefaultHeaderTimeout       = 30 * time.Second
	DefaultReadIdleTimeout     = 30 * time.Second
	DefaultTotalTimeout        = 20 * time.Minute // Heritrix's timeoutSeconds default
	DefaultMinRateWindow       = 30 * time.Second // curl's --speed-time default
	DefaultMaxIdleConnsPerHost = 4
	DefaultDNSCacheSize        = 10000
	DefaultDNSTTL              = 10 * time.Minute
	DefaultAccept              = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
)

// Config sets up a Fetcher. Zero durations and sizes take the defaults above.
type Config struct {
	// UserAgent is sent with every request. It must carry a contact URL
	// ("+https://…"), as site operators expect of a crawler.
	UserAgent string

	ConnectTimeout        time.Duration // TCP connect, per address tried
	TLSHandshakeTimeout   time.Duration
	ResponseHeaderTimeout time.Duration // from request sent to response head received
	ReadIdleTimeout       time.Duration // longest pause while reading a body
	TotalTimeout          time.Duration // whole fetch; the body is cut ("time") when reached
	// MinRate, when positive, is the slowest a body may arrive, in bytes a
	// second averaged over each MinRateWindow: a body trickling in more
	// slowly is cut ("time") instead of holding a worker and its host
	// until the total timeout.
	MinRate       float64
	MinRateWindow time.Duration // default DefaultMinRateWindow

	MaxBodySize    int64 // entity bytes read at most; the rest is cut ("length")
	MaxDecodedSize int64 // decompressed bytes kept for analysis (gzip bomb guard)
	MemoryLimit    int   // bytes per buffer kept in memory before spilling to TempDir
	TempDir        string

	MaxIdleConnsPerHost int
	DisableHTTP2        bool
	// VerifyTLS rejects invalid certificates. Off by default, as in Heritrix:
	// an expired or self-signed certificate does not make a page less worth
	// archiving.
	VerifyTLS bool
	TLS       *tls.Config // optional base TLS configuration (roots, client certificates)

	Resolver     Resolver                // default net.DefaultResolver
	Hosts        map[string][]netip.Addr // fixed addresses by ASCII host name, consulted before DNS
	DNSCacheSize int
	DNSTTL       time.Duration
}

func (c *Config) setDefaults() error {
	if !strings.Contains(c.UserAgent, "+http") {
		return fmt.Errorf("fetch: user agent %q must name a contact URL, as in \"mneme/0.1 (+https://example.org/crawler)\"", c.UserAgent)
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.ConnectTimeout, DefaultConnectTimeout)
	def(&c.TLSHandshakeTimeout, DefaultTLSHandshakeTimeout)
	def(&c.ResponseHeaderTimeout, DefaultHeaderTimeout)
	def(&c.ReadIdleTimeout, DefaultReadIdleTimeout)
	def(&c.TotalTimeout, DefaultTotalTimeout)
	def(&c.MinRateWindow, DefaultMinRateWindow)
	def(&c.DNSTTL, DefaultDNSTTL)
	if c.MaxBodySize <= 0 {
		c.MaxBodySize = DefaultMaxBodySize
	}
	if c.MaxDecodedSize <= 0 {
		c.MaxDecodedSize = DefaultMaxDecodedSize
	}
	if c.MemoryLimit <= 0 {
		c.MemoryLimit = DefaultMemoryLimit
	}
	if c.MaxIdleConnsPerHost <= 0 {
		c.MaxIdleConnsPerHost = DefaultMaxIdleConnsPerHost
	}
	if c.DNSCacheSize <= 0 {
		c.DNSCacheSize = DefaultDNSCacheSize
	}
	if c.Resolver == nil {
		c.Resolver = net.DefaultResolver
	}
	return nil
}

// Fetcher fetches URLs over one shared Transport. It is safe for concurrent
// use; every Fetch returns a Result that the caller must Close.
type Fetcher struct {
	cfg    Config
	dialer *dialer
	tls    *tls.Config
	tr     *http.Transport
}

// New returns a Fetcher for cfg.
func New(cfg Config) (*Fetcher, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	f := &Fetcher{cfg: cfg}
	f.dialer = &dialer{
		net: net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second},
		dns: newDNSCache(cfg.Resolver, cfg.Hosts, cfg.DNSTTL, cfg.DNSCacheSize),
	}
	f.tls = &tls.Config{}
	if cfg.TLS != nil {
		f.tls = cfg.TLS.Clone()
	}
	f.tls.InsecureSkipVerify = !cfg.VerifyTLS
	f.tls.NextProtos = []string{"http/1.1"}
	if !cfg.DisableHTTP2 {
		f.tls.NextProtos = []string{"h2", "http/1.1"}
	}
	f.tr = &http.Transport{
		DialContext:            f.dialPlain,
		DialTLSContext:         f.dialTLS,
		ForceAttemptHTTP2:      !cfg.DisableHTTP2,
		MaxIdleConns:           0, // no global cap: MaxIdleConnsPerHost bounds each host
		MaxIdleConnsPerHost:    cfg.MaxIdleConnsPerHost,
		IdleConnTimeout:        90 * time.Second,
		ResponseHeaderTimeout:  cfg.ResponseHeaderTimeout,
		DisableCompression:     true,
		MaxResponseHeaderBytes: 1 << 20,
	}
	if cfg.DisableHTTP2 {
		f.tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	}
	return f, nil
}

// Close closes idle connections.
func (f *Fetcher) Close() { f.tr.CloseIdleConnections() }

func (f *Fetcher) dialPlain(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := f.dialer.dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &recConn{Conn: c}, nil
}

// dialTLS connects and shakes hands itself so that an HTTP/1.1 connection can
// be recorded above TLS; a connection that negotiated h2 goes back to the
// Transport as the bare *tls.Conn it needs for HTTP/2.
func (f *Fetcher) dialTLS(ctx context.Context, network, addr string) (net.Conn, error) {
	raw, err := f.dialer.dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	host, _, _ := net.SplitHostPort(addr)
	cfg := f.tls.Clone()
	if _, err := netip.ParseAddr(host); err != nil {
		cfg.ServerName = host
	}
	tc := tls.Client(raw, cfg)
	hctx, cancel := context.WithTimeout(ctx, f.cfg.TLSHandshakeTimeout)
	defer cancel()
	if err := tc.HandshakeContext(hctx); err != nil {
		raw.Close()
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			err = fmt.Errorf("handshake not done within %v: %w", f.cfg.TLSHandshakeTimeout, err)
		}
		return nil, &tlsError{err}
	}
	if tc.ConnectionState().NegotiatedProtocol == "h2" {
		return tc, nil
	}
	return &recConn{Conn: tc}, nil
}
