package scope

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// Config selects the rules. A zero limit disables its check.
type Config struct {
	SeedSURTs    bool     // accept URLs under each seed's SURT prefix, i.e. its directory on its host (Heritrix's default scope)
	SeedHosts    bool     // accept URLs on a seed's host
	SeedDomains  bool     // accept URLs on a seed's registrable domain, subdomains included
	SURTPrefixes []string // more prefixes, as URLs or SURTs (see canon.SURTPrefix); "example.com" covers its subdomains
	Include      []string // regexps on the URL (Href) that put it in scope
	Exclude      []string // regexps on the URL that take it out, whatever else holds
	Schemes      []string // schemes that can be crawled; empty means http and https

	MaxHops            int    // link (L) and redirect (R) hops from the seed, as Heritrix counts them
	MaxRedirects       int    // redirects in a row (trailing R hops): a redirect chain ends there
	MaxTransHops       int    // trailing non-link hops (E, R, X…) that may leave scope: the transclusion rule
	MaxSpeculativeHops int    // X hops among those trailing hops
	MaxPathDepth       int    // path segments
	MaxURLLength       int    // octets of the URL
	MaxRepeats         int    // times a run of 1–3 path segments may repeat back to back (/a/b/a/b/a/b)
	MaxSegmentCount    int    // times one path segment may occur anywhere in the path
	MaxQueryParams     int    // query parameters
	CalendarYears      [2]int // with both set, reject dated URLs (2031/05, 2031-05-01, year=2031) outside [min, max]
}

// DefaultConfig mirrors Heritrix 3's default crawl profile: seed SURT
// prefixes, 20 hops (links and redirects), 2 transclusion hops of which 1
// speculative, 20 path segments, 2083-octet URLs (the old browser limit)
// and at most 2 back-to-back repetitions, plus limits Heritrix lacks: 20
// redirects in a row (as browsers and wget stop), a segment may occur 5
// times, a query carry 50 parameters.
func DefaultConfig() Config {
	return Config{
		SeedSURTs: true, MaxHops: 20, MaxRedirects: 20, MaxTransHops: 2, MaxSpeculativeHops: 1,
		MaxPathDepth: 20, MaxURLLength: 2083, MaxRepeats: 2, MaxSegmentCount: 5, MaxQueryParams: 50,
	}
}

// Scope holds compiled rules. It is immutable and safe for concurrent use.
type Scope struct {
	cfg      Config
	prefixes []string
	hosts    map[string]bool
	domains  map[string]bool
	include  []*regexp.Regexp
	exclude  []*regexp.Regexp
	schemes  map[string]bool
}

// Decision is the verdict on one URL with the rule that made it.
type Decision struct {
	Accept bool
	Rule   string // the rule's name: "seed-host", "max-hops", "repeated-segments"…
	Detail string // what it saw, e.g. "max-hops 3 exceeded (4 link hops)"
}

// String is the log line: "out of scope (max-hops): max-hops 3 exceeded (4 link hops)".
func (d Decision) String() string {
	if d.Accept {
		return "in scope (" + d.Rule + "): " + d.Detail
	}
	return "out of scope (" + d.Rule + "): " + d.Detail
}

// New compiles cfg for the given seeds; c turns prefix rules into SURTs.
func New(cfg Config, seeds []canon.URL, c *canon.Canonicalizer) (*Scope, error) {
	s := &Scope{cfg: cfg, hosts: map[string]bool{}, domains: map[string]bool{}, schemes: map[string]bool{}}
	for _, seed := range seeds {
		if !seed.Hierarchical() {
			return nil, fmt.Errorf("scope: seed %q has no host", seed.Href)
		}
		s.hosts[seed.HostKey()] = true
		s.domains[seed.RegistrableDomain()] = true
		if cfg.SeedSURTs {
			p, err := c.SURTPrefix(seed.Href)
			if err != nil {
				return nil, fmt.Errorf("scope: seed %q: %w", seed.Href, err)
			}
			s.prefixes = append(s.prefixes, p)
		}
	}
	for _, rule := range cfg.SURTPrefixes {
		p, err := c.SURTPrefix(rule)
		if err != nil {
			return nil, fmt.Errorf("scope: SURT prefix rule %q: %w", rule, err)
		}
		s.prefixes = append(s.prefixes, p)
	}
	var err error
	if s.include, err = compile("include", cfg.Include); err != nil {
		return nil, err
	}
	if s.exclude, err = compile("exclude", cfg.Exclude); err != nil {
		return nil, err
	}
	schemes := cfg.Schemes
	if len(schemes) == 0 {
		schemes = []string{"http", "https"}
	}
	for _, sc := range schemes {
		s.schemes[strings.ToLower(sc)] = true
	}
	return s, nil
}

func compile(kind string, exprs []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(exprs))
	for i, e := range exprs {
		re, err := regexp.Compile(e)
		if err != nil {
			return nil, fmt.Errorf("scope: %s pattern %d %q: %w", kind, i+1, e, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// Decide rules on u, reached from a seed by hopPath: one letter per hop as
// in Heritrix (L link, E embed, R redirect, P prerequisite, X speculative
// link found in script; "" for a seed). The order follows Heritrix's
// default sequence: scheme; prerequisites (robots.txt) always pass;
// exclusions and URL length; the in-scope rules, else transclusion; then
// the hop, depth and trap limits.
func (s *Scope) Decide(u canon.URL, hopPath string) Decision {
	return s.decide(u, hopPath, verdict{explain: true})
}

// Accepts is Decide's verdict without its Rule and Detail, which cost a
// formatted string each: the crawler asks it of every link of every page.
func (s *Scope) Accepts(u canon.URL, hopPath string) bool {
	return s.decide(u, hopPath, verdict{}).Accept
}

func (s *Scope) decide(u canon.URL, hopPath string, v verdict) Decision {
	if !s.schemes[u.Scheme] || !u.Hierarchical() {
		return v.reject("scheme", func() string { return fmt.Sprintf("scheme %q is not crawled", u.Scheme) })
	}
	if strings.HasSuffix(hopPath, "P") {
		return v.accept("prerequisite", func() string { return "prerequisite of an in-scope URL" })
	}
	if max := s.cfg.MaxURLLength; max > 0 && len(u.Href) > max {
		return v.reject("max-url-length", func() string {
			return fmt.Sprintf("max-url-length %d exceeded (%d octets)", max, len(u.Href))
		})
	}
	for _, re := range s.exclude {
		if re.MatchString(u.Href) {
			return v.reject("exclude", func() string { return fmt.Sprintf("matches exclude pattern %q", re.String()) })
		}
	}
	in := s.inScope(u, v)
	if !in.Accept {
		if t := s.transclusion(hopPath, v); t.Accept {
			in = t
		} else if hopPath == "" {
			in = v.accept("seed", func() string { return "a seed" }) // seeds are in scope by definition
		} else {
			return v.reject(in.Rule, func() string { return in.Detail + "; " + t.Detail })
		}
	}
	if d, bad := s.limits(u, hopPath, v); bad {
		return d
	}
	return in
}

// inScope applies the accept rules that look at the URL alone.
func (s *Scope) inScope(u canon.URL, v verdict) Decision {
	if s.cfg.SeedHosts && s.hosts[u.HostKey()] {
		return v.accept("seed-host", func() string { return "on seed host " + u.HostKey() })
	}
	if s.cfg.SeedDomains && s.domains[u.RegistrableDomain()] {
		return v.accept("seed-domain", func() string { return "in seed domain " + u.RegistrableDomain() })
	}
	for _, p := range s.prefixes {
		if hasSURTPrefix(u, p) {
			return v.accept("surt-prefix", func() string { return "under SURT prefix " + p })
		}
	}
	for _, re := range s.include {
		if re.MatchString(u.Href) {
			return v.accept("include", func() string { return fmt.Sprintf("matches include pattern %q", re.String()) })
		}
	}
	return v.reject("not-in-scope", func() string { return "not under any seed, prefix or include pattern" })
}

// transclusion is Heritrix's TransclusionDecideRule: a URL reached by a
// few trailing non-link hops from an in-scope page (its images, scripts,
// stylesheets, redirects, frames) is captured even off-site, so archived
// pages render completely.
func (s *Scope) transclusion(hopPath string, v verdict) Decision {
	trans, spec := 0, 0
	for i := len(hopPath) - 1; i >= 0 && hopPath[i] != 'L'; i-- {
		trans++
		if hopPath[i] == 'X' {
			spec++
		}
	}
	switch {
	case trans == 0:
		return v.reject("transclusion", func() string { return "reached by a link" })
	case trans > s.cfg.MaxTransHops:
		return v.reject("transclusion", func() string {
			return fmt.Sprintf("max-trans-hops %d exceeded (%d trailing non-link hops)", s.cfg.MaxTransHops, trans)
		})
	case spec > s.cfg.MaxSpeculativeHops:
		return v.reject("transclusion", func() string {
			return fmt.Sprintf("max-speculative-hops %d exceeded (%d)", s.cfg.MaxSpeculativeHops, spec)
		})
	}
	return v.accept("transclusion", func() string {
		return "embedded in an in-scope page (" + hopPath[len(hopPath)-trans:] + ")"
	})
}

// verdict makes Decisions, with their Detail only when asked to explain:
// the detail functions do not escape, so the hot path of Accepts neither
// formats nor allocates.
type verdict struct{ explain bool }

func (v verdict) accept(rule string, detail func() string) Decision {
	d := Decision{Accept: true, Rule: rule}
	if v.explain {
		d.Detail = detail()
	}
	return d
}

func (v verdict) reject(rule string, detail func() string) Decision {
	d := Decision{Rule: rule}
	if v.explain {
		d.Detail = detail()
	}
	return d
}
