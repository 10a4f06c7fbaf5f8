// Package spec reads, checks and writes crawl specifications: the seeds,
// scope, politeness, limits, output folder and identity of one crawl, as a
// YAML file (unset fields take Heritrix-like defaults) that command-line
// flags may then override. A crawl keeps its final specification beside its
// data so that a resumed crawl runs exactly as it started.
package spec

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/fetch"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/scope"
)

// Spec is a crawl specification. Field comments give the YAML key.
type Spec struct {
	ID        string   `yaml:"id,omitempty"`     // names the crawl and its folder; generated when empty
	Seeds     []string `yaml:"seeds"`            // where the crawl starts
	UserAgent string   `yaml:"user-agent"`       // must carry a contact URL: "name/version (+https://…)"
	Output    string   `yaml:"output,omitempty"` // data folder holding crawls/ and store/
	Workers   int      `yaml:"workers"`          // concurrent fetches
	Robots    string   `yaml:"robots"`           // "obey" (default) or "ignore"
	// AAH lets the application-aware helper (package kb/aah) read the
	// pages of the web applications it knows, where the crawling program
	// offers it (mneme crawl, the control API); false gives the generic
	// link extractor. Default true.
	AAH bool `yaml:"aah"`
	// Sitemaps makes sitemaps a seed source: each seed site's /sitemap.xml
	// and the sitemaps its robots.txt declares are fetched, and the URLs
	// they list crawled (within the scope). Default false.
	Sitemaps bool `yaml:"sitemaps"`
	// Update combines a new score of an already queued URL with its old
	// one (FIRST, LAST, MAX, SUM, AVG), for injected and rediscovered URLs.
	Update     string     `yaml:"update"`
	Scope      Scope      `yaml:"scope"`
	Politeness Politeness `yaml:"politeness"`
	Limits     Limits     `yaml:"limits"`
	Fetch      Fetch      `yaml:"fetch"`
	WARC       WARC       `yaml:"warc"`
	RDF        RDF        `yaml:"rdf"`
	// Incremental, when present, makes the crawl continuous: URLs are
	// revisited as their policy says (see Incremental).
	Incremental *Incremental `yaml:"incremental,omitempty"`
	HTTP        HTTP         `yaml:"http,omitempty"`
	// Focus, when present, makes the crawl focused on a topic (see Focus).
	Focus *Focus `yaml:"focus,omitempty"`

	// source and lines locate the fields of a parsed file, so that Check
	// reports a problem at its line.
	source string
	lines  map[string]int
}

// Scope mirrors scope.Config (see there for each rule).
type Scope struct {
	SeedSURTs          bool     `yaml:"seed-surts"`
	SeedHosts          bool     `yaml:"seed-hosts"`
	SeedDomains        bool     `yaml:"seed-domains"`
	SURTPrefixes       []string `yaml:"surt-prefixes,omitempty"`
	Include            []string `yaml:"include,omitempty"`
	Exclude            []string `yaml:"exclude,omitempty"`
	Schemes            []string `yaml:"schemes,omitempty"`
	MaxHops            int      `yaml:"max-hops"`      // link and redirect hops from a seed (Heritrix counts both); default 20
	MaxRedirects       int      `yaml:"max-redirects"` // redirects in a row from one URL; default 20, as browsers and wget
	MaxTransHops       int      `yaml:"max-trans-hops"`
	MaxSpeculativeHops int      `yaml:"max-speculative-hops"`
	MaxPathDepth       int      `yaml:"max-path-depth"`
	MaxURLLength       int      `yaml:"max-url-length"`
	MaxRepeats         int      `yaml:"max-repeats"`
	MaxSegmentCount    int      `yaml:"max-segment-count"`
	MaxQueryParams     int      `yaml:"max-query-params"`
	CalendarYears      []int    `yaml:"calendar-years,omitempty"` // [min, max]
}

// Politeness sets how hard the crawl may press on each host.
type Politeness struct {
	// Off removes every delay and lets each queue use all workers; it is
	// meant for benchmarks and tests and is refused unless every seed host is
	// a loopback address (and then applies to loopback hosts only, whose
	// retries then wait at most OffRetryDelay, OffMaxRetryDelay with a
	// Retry-After). URLs injected into a crawl with politeness off must be
	// on a loopback host too.
	Off           bool     `yaml:"off,omitempty"`
	DelayFactor   float64  `yaml:"delay-factor"`    // wait = factor × last fetch duration…
	MinDelay      Duration `yaml:"min-delay"`       // …clamped to [min-delay, max-delay]
	MaxDelay      Duration `yaml:"max-delay"`       //
	MaxCrawlDelay Duration `yaml:"max-crawl-delay"` // robots.txt Crawl-delay is honoured up to this
	// RetryDelay is the wait before retrying a retriable error (a
	// connection failure, a timeout, 429 or 503). Only the URL waits,
	// unless its host is failing: nothing answers (DNS, connection
	// refused), robots.txt cannot be had, or hostFailures retriable
	// errors came in a row from it; then the whole queue waits.
	RetryDelay    Duration `yaml:"retry-delay"`
	MaxRetryDelay Duration `yaml:"max-retry-delay"` // caps the retry wait, a server's Retry-After included; default 1h
	MaxRetries    int      `yaml:"max-retries"`     // retries before giving up
	Valence       int      `yaml:"valence"`         // parallel fetches per queue
	// Hosts override the values above for queues whose key (host, or
	// host:port) matches a pattern; the first match wins.
	Hosts []HostRule `yaml:"hosts,omitempty"`
}

// HostRule overrides politeness for the hosts matching Pattern, a
// path.Match glob on the queue key ("*.example.org", "127.0.0.1:*").
// Fields left out keep the crawl-wide value.
type HostRule struct {
	Pattern       string    `yaml:"pattern"`
	DelayFactor   *float64  `yaml:"delay-factor,omitempty"`
	MinDelay      *Duration `yaml:"min-delay,omitempty"`
	MaxDelay      *Duration `yaml:"max-delay,omitempty"`
	MaxCrawlDelay *Duration `yaml:"max-crawl-delay,omitempty"`
	RetryDelay    *Duration `yaml:"retry-delay,omitempty"`
	MaxRetryDelay *Duration `yaml:"max-retry-delay,omitempty"`
	MaxRetries    *int      `yaml:"max-retries,omitempty"`
	Valence       *int      `yaml:"valence,omitempty"`
}

// HTTP is what the crawl's requests carry besides the crawler's own
// fields. Secret values are never in the specification: it names the
// environment variable holding each, so that the stored spec.yaml, the
// WARC request records (which show "[secret]") and the logs never hold
// them.
type HTTP struct {
	Headers       map[string]string `yaml:"headers,omitempty"`        // sent with every request
	SecretHeaders map[string]string `yaml:"secret-headers,omitempty"` // header → environment variable
	Cookies       []Cookie          `yaml:"cookies,omitempty"`
	Login         *Login            `yaml:"login,omitempty"`
}

// Cookie is sent to Host and its subdomains; its value is Value, or that
// of the environment variable Secret.
type Cookie struct {
	Name   string `yaml:"name"`
	Value  string `yaml:"value,omitempty"`
	Secret string `yaml:"secret,omitempty"`
	Host   string `yaml:"host"`
}

// Login is a form POSTed before the crawl, whose cookies are then sent to
// its host. SecretFields map form fields to environment variables.
type Login struct {
	URL          string            `yaml:"url"`
	Fields       map[string]string `yaml:"fields,omitempty"`
	SecretFields map[string]string `yaml:"secret-fields,omitempty"`
}

// Secret returns the value of the environment variable env, or an error
// naming it.
func Secret(env string) (string, error) {
	v, ok := os.LookupEnv(env)
	if !ok || v == "" {
		return "", fmt.Errorf("environment variable %s is not set (it holds a secret value)", env)
	}
	return v, nil
}

func checkHTTP(h HTTP, bad func(string, ...any)) {
	token := regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
	for name := range h.Headers {
		if !token.MatchString(name) {
			bad("http.headers.%s: not a header name", name)
		}
	}
	for name, env := range h.SecretHeaders {
		if !token.MatchString(name) {
			bad("http.secret-headers.%s: not a header name", name)
		}
		if _, err := Secret(env); err != nil {
			bad("http.secret-headers.%s: %v", name, err)
		}
	}
	for i, c := range h.Cookies {
		where := fmt.Sprintf("http.cookies[%d]", i)
		if c.Name == "" || c.Host == "" {
			bad("%s: a cookie needs a name and a host", where)
		}
		if (c.Value == "") == (c.Secret == "") {
			bad("%s: give either a value or a secret (an environment variable)", where)
		} else if c.Secret != "" {
			if _, err := Secret(c.Secret); err != nil {
				bad("%s: %v", where, err)
			}
		}
	}
	if l := h.Login; l != nil {
		if u, err := url.Parse(l.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("http.login.url %q: want an http or https URL", l.URL)
		}
		for field, env := range l.SecretFields {
			if _, err := Secret(env); err != nil {
				bad("http.login.secret-fields.%s: %v", field, err)
			}
		}
	}
}

// Limits end a crawl or a queue early; zero means no limit.
type Limits struct {
	Pages     int64    `yaml:"pages,omitempty"`      // responses received
	Bytes     int64    `yaml:"bytes,omitempty"`      // response bytes received
	Duration  Duration `yaml:"duration,omitempty"`   // running time, summed over resumes
	HostPages int64    `yaml:"host-pages,omitempty"` // URLs claimed per queue
}

// Fetch bounds each fetch, so that a server sending slowly cannot hold a
// worker (and, with politeness, its host) for long.
type Fetch struct {
	// TotalTimeout cuts a fetch, body included ("time" truncation), after
	// this long. Default 20m, Heritrix's timeout-seconds.
	TotalTimeout Duration `yaml:"total-timeout"`
	// MinRate is the slowest a body may arrive, in bytes a second averaged
	// over each MinRateWindow; a body trickling in more slowly is cut
	// ("time" truncation). 0 turns the check off. Default 1000 bytes/s
	// over 30s, as curl's --speed-limit and --speed-time are often set.
	MinRate       float64  `yaml:"min-rate"`
	MinRateWindow Duration `yaml:"min-rate-window"`
}

// WARC configures the archive files.
type WARC struct {
	Prefix  string `yaml:"prefix"`
	MaxSize int64  `yaml:"max-size"` // bytes at which a file is closed and the next begun
}

// RDF configures the batched writes to the store, which are also what a
// crash can lose: see CommitWithin.
type RDF struct {
	Batch    int      `yaml:"batch"`    // fetches per committed batch at most
	Interval Duration `yaml:"interval"` // a batch is committed when no fetch came for this long…
	// CommitWithin is the longest a finished fetch waits for its batch to
	// commit (default 1s). It bounds what a crash (kill -9, power loss)
	// loses: the fetches finished in the last CommitWithin, plus the
	// commit under way and those in progress, so at most workers +
	// 2 × batch URLs, and in time about CommitWithin plus one commit of
	// work. Those URLs are fetched again on resume; their WARC records
	// are kept but marked abandoned and left out of the index, and
	// crawl.log names only committed captures.
	CommitWithin Duration `yaml:"commit-within"`
}

// Duration is a time.Duration written as in Go ("3s", "1m30s"); a bare
// number is seconds.
type Duration time.Duration

// UnmarshalYAML reads "3s" or 3.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a duration such as \"3s\" expected", n.Line)
	}
	if v, err := time.ParseDuration(n.Value); err == nil {
		*d = Duration(v)
		return nil
	}
	if !numberRE.MatchString(strings.TrimSpace(n.Value)) {
		return fmt.Errorf("line %d: bad duration %q (want e.g. \"3s\", \"500ms\" or a number of seconds)", n.Line, n.Value)
	}
	secs, _ := strconv.ParseFloat(strings.TrimSpace(n.Value), 64)
	*d = Duration(secs * float64(time.Second))
	return nil
}

var numberRE = regexp.MustCompile(`^[0-9]+(\.[0-9]*)?$`)

// MarshalYAML writes the Go form.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// Default returns a specification with every default set and no seeds.
func Default() *Spec {
	sc := scope.DefaultConfig()
	p := frontier.DefaultPoliteness
	return &Spec{
		Workers: 8,
		Robots:  "obey",
		AAH:     true,
		Update:  "MAX",
		Scope: Scope{
			SeedSURTs: sc.SeedSURTs, SeedHosts: sc.SeedHosts, SeedDomains: sc.SeedDomains,
			MaxHops: sc.MaxHops, MaxRedirects: sc.MaxRedirects, MaxTransHops: sc.MaxTransHops, MaxSpeculativeHops: sc.MaxSpeculativeHops,
			MaxPathDepth: sc.MaxPathDepth, MaxURLLength: sc.MaxURLLength, MaxRepeats: sc.MaxRepeats,
			MaxSegmentCount: sc.MaxSegmentCount, MaxQueryParams: sc.MaxQueryParams,
		},
		Politeness: Politeness{
			DelayFactor: p.DelayFactor, MinDelay: Duration(p.MinDelay), MaxDelay: Duration(p.MaxDelay),
			MaxCrawlDelay: Duration(p.MaxCrawlDelay), RetryDelay: Duration(p.RetryDelay), MaxRetryDelay: Duration(p.MaxRetryDelay),
			MaxRetries: p.MaxRetries, Valence: 1,
		},
		Fetch: Fetch{TotalTimeout: Duration(fetch.DefaultTotalTimeout), MinRate: 1000, MinRateWindow: Duration(fetch.DefaultMinRateWindow)},
		WARC:  WARC{Prefix: "MNEME", MaxSize: 1 << 30},
		RDF:   RDF{Batch: 2048, Interval: Duration(200 * time.Millisecond), CommitWithin: Duration(time.Second)},
	}
}

// Parse reads a YAML specification over the defaults; name labels errors.
// Unknown keys are errors, so a misspelt option is never silently ignored.
func Parse(data []byte, name string) (*Spec, error) {
	s := Default()
	s.source, s.lines = name, map[string]int{}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		// yaml's syntax errors read "yaml: line 3: …".
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind == 0 {
		return s, nil // an empty file: every default
	}
	var errs []error
	checkFields(&doc, reflect.TypeFor[Spec](), "", s.lines, &errs)
	if len(errs) == 0 {
		if err := doc.Decode(s); err != nil {
			var te *yaml.TypeError
			if errors.As(err, &te) {
				for _, e := range te.Errors {
					errs = append(errs, errors.New(e))
				}
			} else {
				errs = append(errs, err) // a value's own check, e.g. Duration's
			}
		}
	}
	if len(errs) > 0 {
		return nil, s.located(errs)
	}
	if s.Focus != nil {
		s.Focus.complete(s)
	}
	return s, nil
}

// located prefixes each error with the file and, where it names a field
// the file sets, the field's line: "spec.yaml:7: workers: …".
func (s *Spec) located(errs []error) error {
	out := make([]error, len(errs))
	for i, err := range errs {
		var fe fieldError
		switch {
		case errors.As(err, &fe):
			out[i] = fmt.Errorf("%s:%d: %s: %s", s.source, fe.line, fe.field, fe.msg)
		case s.source == "":
			out[i] = err
		default:
			line, msg := 0, err.Error()
			if _, err := fmt.Sscanf(msg, "line %d:", &line); err == nil {
				_, msg, _ = strings.Cut(msg, ": ")
				field := ""
				for f, l := range s.lines {
					if l == line && len(f) > len(field) {
						field = f
					}
				}
				if field != "" {
					msg = field + ": " + msg
				}
			} else {
				best := ""
				for f := range s.lines {
					if len(f) > len(best) && strings.HasPrefix(msg, f) && len(msg) > len(f) && (msg[len(f)] == ':' || msg[len(f)] == ' ') {
						best = f
					}
				}
				line = s.lines[best]
			}
			if line > 0 {
				out[i] = fmt.Errorf("%s:%d: %s", s.source, line, msg)
			} else {
				out[i] = fmt.Errorf("%s: %s", s.source, msg)
			}
		}
	}
	return errors.Join(out...)
}

// Load reads the specification file at path.
func Load(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Marshal renders s as YAML, every field written, so that the file alone
// reproduces the crawl.
func (s *Spec) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var idRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidID reports whether id can name a crawl: 1 to 64 letters, digits,
// '.', '_' or '-', starting with a letter or digit (it becomes a folder and
// part of WARC file names).
func ValidID(id string) bool { return idRE.MatchString(id) }

// NewID returns an id for a crawl started at t: "crawl-20260314-153000".
func NewID(t time.Time) string { return "crawl-" + t.UTC().Format("20060102-150405") }

// Check validates the specification and returns the parsed seeds. Every
// problem found is reported, each naming its field.
func (s *Spec) Check(c *canon.Canonicalizer) ([]canon.URL, error) {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if s.ID != "" && !ValidID(s.ID) {
		bad("id %q: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", s.ID)
	}
	if len(s.Seeds) == 0 {
		bad("seeds: at least one seed URL is required")
	}
	var seeds []canon.URL
	for i, raw := range s.Seeds {
		u, err := c.Parse(raw)
		switch {
		case err != nil:
			bad("seeds[%d]: %v", i, err)
		case u.Scheme != "http" && u.Scheme != "https":
			bad("seeds[%d]: %q: only http and https URLs can be crawled", i, raw)
		default:
			seeds = append(seeds, u)
		}
	}
	if !strings.Contains(s.UserAgent, "+http://") && !strings.Contains(s.UserAgent, "+https://") {
		bad("user-agent %q: must carry a contact URL, e.g. \"mneme/0.1 (+https://example.org/crawler)\"", s.UserAgent)
	} else if ProductToken(s.UserAgent) == "" {
		bad("user-agent %q: must start with a product token such as \"mneme/0.1\"", s.UserAgent)
	}
	if s.Workers < 1 {
		bad("workers: %d: at least 1", s.Workers)
	}
	if s.Robots != "obey" && s.Robots != "ignore" {
		bad("robots: %q: want obey or ignore", s.Robots)
	}
	if _, err := frontier.ParseUpdateFunc(s.Update); err != nil {
		bad("update: %v", err)
	}
	if n := len(s.Scope.CalendarYears); n != 0 && n != 2 {
		bad("scope.calendar-years: want [min, max], got %d values", n)
	}
	if _, err := scope.New(s.ScopeConfig(), seeds, c); err != nil {
		bad("scope: %v", err)
	}
	checkPoliteness(s.Politeness, bad)
	if s.Politeness.Off {
		for i, u := range seeds {
			if !IsLoopback(u.Host) {
				bad("politeness off is only allowed when every seed is on a loopback address; seeds[%d] is on %s", i, u.Host)
			}
		}
	}
	if s.Limits.Pages < 0 || s.Limits.Bytes < 0 || s.Limits.Duration < 0 || s.Limits.HostPages < 0 {
		bad("limits: negative values are not allowed")
	}
	if s.Fetch.TotalTimeout <= 0 {
		bad("fetch.total-timeout: must be positive")
	}
	if s.Fetch.MinRate < 0 || s.Fetch.MinRateWindow < 0 {
		bad("fetch: negative values are not allowed")
	}
	if s.WARC.MaxSize < 1<<10 {
		bad("warc.max-size: %d bytes is too small (at least 1024)", s.WARC.MaxSize)
	}
	if !validPrefix(s.WARC.Prefix) {
		bad("warc.prefix: %q: want 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit (it begins file names)", s.WARC.Prefix)
	}
	if s.RDF.Batch < 1 {
		bad("rdf.batch: %d: at least 1", s.RDF.Batch)
	}
	if s.RDF.Interval <= 0 {
		bad("rdf.interval: must be positive")
	}
	if s.RDF.CommitWithin <= 0 {
		bad("rdf.commit-within: must be positive")
	}
	if _, _, err := s.RevisitConfig(); err != nil {
		bad("%v", err)
	}
	checkHTTP(s.HTTP, bad)
	if s.Focus != nil {
		checkFocus(s.Focus, bad)
	}
	if len(errs) > 0 {
		return nil, s.located(errs)
	}
	return seeds, nil
}

func checkPoliteness(p Politeness, bad func(string, ...any)) {
	check := func(where string, r frontier.Politeness, valence int) {
		if r.DelayFactor < 0 || r.MinDelay < 0 || r.MaxDelay < 0 || r.MaxCrawlDelay < 0 || r.RetryDelay < 0 || r.MaxRetryDelay < 0 || r.MaxRetries < 0 {
			bad("%s: negative values are not allowed", where)
		}
		if r.MinDelay > r.MaxDelay {
			bad("%s: min-delay %v exceeds max-delay %v", where, r.MinDelay, r.MaxDelay)
		}
		if valence < 1 {
			bad("%s: valence %d: at least 1", where, valence)
		}
	}
	check("politeness", p.base(), p.Valence)
	for i, h := range p.Hosts {
		where := fmt.Sprintf("politeness.hosts[%d]", i)
		if _, err := path.Match(h.Pattern, ""); err != nil || h.Pattern == "" {
			bad("%s: bad pattern %q", where, h.Pattern)
			continue
		}
		r, v := p.apply(h)
		check(where, r, v)
	}
}

// ScopeConfig converts the scope section for package scope.
func (s *Spec) ScopeConfig() scope.Config {
	sc := s.Scope
	cfg := scope.Config{
		SeedSURTs: sc.SeedSURTs, SeedHosts: sc.SeedHosts, SeedDomains: sc.SeedDomains,
		SURTPrefixes: sc.SURTPrefixes, Include: sc.Include, Exclude: sc.Exclude, Schemes: sc.Schemes,
		MaxHops: sc.MaxHops, MaxRedirects: sc.MaxRedirects, MaxTransHops: sc.MaxTransHops, MaxSpeculativeHops: sc.MaxSpeculativeHops,
		MaxPathDepth: sc.MaxPathDepth, MaxURLLength: sc.MaxURLLength, MaxRepeats: sc.MaxRepeats,
		MaxSegmentCount: sc.MaxSegmentCount, MaxQueryParams: sc.MaxQueryParams,
	}
	if len(sc.CalendarYears) == 2 {
		cfg.CalendarYears = [2]int{sc.CalendarYears[0], sc.CalendarYears[1]}
	}
	return cfg
}

// UpdateFunc is the parsed Update (call after Check).
func (s *Spec) UpdateFunc() frontier.UpdateFunc {
	u, _ := frontier.ParseUpdateFunc(s.Update)
	return u
}

// ProductToken is the robots.txt product token of a user agent: its first
// word up to '/' ("mneme" for "mneme/0.1 (+https://…)").
func ProductToken(ua string) string {
	tok, _, _ := strings.Cut(strings.TrimSpace(ua), "/")
	if i := strings.IndexAny(tok, " \t("); i >= 0 {
		tok = tok[:i]
	}
	return tok
}

// IsLoopback reports whether host (a name or an IP, IPv6 in brackets or
// not, with or without port) is a loopback address.
func IsLoopback(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validPrefix reports whether p can begin a WARC file name safely: no
// path separator, no leading dot (a hidden file, or ".." climbing out of
// the WARC folder), nothing a shell or another system would mangle.
func validPrefix(p string) bool {
	if p == "" || len(p) > 64 {
		return false
	}
	for i, c := range p {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}
