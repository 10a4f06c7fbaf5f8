package canon

import (
	"fmt"
	"strings"

	whatwgerr "github.com/nlnwa/whatwg-url/errors"
	"github.com/nlnwa/whatwg-url/url"
)

// Options selects the Heritrix-style rules applied to the Canonical key.
// WHATWG normalisation (IDN to punycode, lowercase scheme and host, default
// port removal, dot segments, percent-encoding) is always applied.
type Options struct {
	KeepFragment   bool // keep "#fragment" in the key (it is never fetched)
	KeepUserinfo   bool // keep "user:pass@" in the key (Heritrix StripUserinfoRule)
	KeepSessionIDs bool // keep jsessionid, phpsessid, sid, aspsessionid*, cfid/cftoken
	StripWWW       bool // drop a leading "www.", "www2." … label (Heritrix StripWWWNRule)
	LowercasePath  bool // lowercase path and query (Heritrix LowercaseRule; lossy)
	SortQuery      bool // sort query parameters by name, stable (keeps repeated names in order)
	KeepEmptyQuery bool // keep a bare "?" and empty "&&" parameters (Heritrix FixupQueryString drops them)
}

// HeritrixOptions returns the rule set of Heritrix 3's default
// canonicalization policy: lowercase everything, strip userinfo, strip
// www[N], strip session ids, fix up the query string, drop the fragment.
func HeritrixOptions() Options {
	return Options{StripWWW: true, LowercasePath: true}
}

// Canonicalizer parses and canonicalizes URLs. It holds no mutable state
// and is safe for concurrent use.
type Canonicalizer struct {
	opts   Options
	parser url.Parser
}

// New returns a Canonicalizer applying opts. The zero Options strip the
// fragment, userinfo, session ids and empty query parts but keep case,
// "www." and parameter order, which never merges two distinct resources.
func New(opts Options) *Canonicalizer {
	return &Canonicalizer{opts: opts, parser: url.NewParser()}
}

// URL is a parsed, normalised absolute URL. Treat it as a value: its fields
// are read-only views computed at parse time.
type URL struct {
	Scheme   string // lowercase scheme without ':'
	Userinfo string // "user" or "user:pass", percent-encoded; usually empty
	Host     string // ASCII host: punycode name, dotted IPv4 or "[IPv6]"; empty for mailto: and the like
	Port     string // decimal port, empty when it is the scheme's default
	Path     string // "/a/b", or the opaque path of a non-hierarchical URL
	Query    string // query without '?'
	HasQuery bool   // a '?' was present, even if Query is empty
	Fragment string // fragment without '#'

	Href      string // serialisation without the fragment: what to fetch
	Canonical string // Heritrix-style key for the already-seen filter

	authority bool     // serialised with "//" (host may still be empty, as in file:///)
	wpath     string   // Path and Query as WHATWG serialises them, before
	wquery    string   // normalizePercent: what references resolve against
	parsed    *url.Url // WHATWG form when the WHATWG parser made this URL; nil from the fast path
}

// String returns Href.
func (u URL) String() string { return u.Href }

// Hierarchical reports whether the URL has an authority (scheme://host/...).
// Only hierarchical URLs can be crawled or SURT-keyed by host.
func (u URL) Hierarchical() bool { return u.authority && u.Host != "" }

// Error reports a URL that cannot be parsed or resolved.
type Error struct {
	Input  string // the URL or reference as given
	Base   string // base URL it was resolved against, if any
	Reason string // why the WHATWG parser rejected it
}

func (e *Error) Error() string {
	if e.Base != "" {
		return fmt.Sprintf("canon: cannot resolve %q against %q: %s", e.Input, e.Base, e.Reason)
	}
	return fmt.Sprintf("canon: cannot parse %q: %s", e.Input, e.Reason)
}

// Parse parses an absolute URL.
func (c *Canonicalizer) Parse(raw string) (URL, error) {
	if u, ok := c.fastParse(raw); ok {
		return u, nil
	}
	return c.parseWHATWG(raw)
}

// parseWHATWG parses raw with the WHATWG parser, for whatever fastParse declines.
func (c *Canonicalizer) parseWHATWG(raw string) (URL, error) {
	p, err := c.parser.Parse(raw)
	if err != nil {
		return URL{}, &Error{Input: raw, Reason: reason(err)}
	}
	return c.build(p), nil
}

// Resolve resolves ref (an href/src attribute value, a Location header…)
// against base, as a browser would for a document at base. The zero URL as
// base parses ref as an absolute URL.
func (c *Canonicalizer) Resolve(base URL, ref string) (URL, error) {
	if base.Href == "" {
		return c.Parse(ref)
	}
	u, how := c.fastResolve(base, ref)
	switch how {
	case resolved:
		return u, nil
	case absoluteOnly:
		u, err := c.parseWHATWG(ref)
		if e, ok := err.(*Error); ok {
			e.Base = base.Href
		}
		return u, err
	}
	return c.resolveWHATWG(base, ref)
}

// resolveWHATWG resolves ref with the WHATWG parser. A base from the fast
// path has no WHATWG form and is parsed again from its WHATWG serialisation,
// which yields the same URL.
func (c *Canonicalizer) resolveWHATWG(base URL, ref string) (URL, error) {
	b := base.parsed
	if b == nil {
		var err error
		if b, err = c.parser.Parse(base.assemble(base.Userinfo, base.Host, base.wpath, base.wquery, base.HasQuery, "")); err != nil {
			return URL{}, &Error{Input: ref, Base: base.Href, Reason: "base: " + reason(err)}
		}
	}
	p, err := b.Parse(ref)
	if err != nil {
		return URL{}, &Error{Input: ref, Base: base.Href, Reason: reason(err)}
	}
	return c.build(p), nil
}

// reason extracts the WHATWG failure description without repeating the URL,
// which Error already carries.
func reason(err error) string {
	msg := string(whatwgerr.Type(err))
	if d := whatwgerr.Description(err); d != "" {
		msg += " (" + d + ")"
	}
	if msg == "" {
		return err.Error()
	}
	return msg
}

func (c *Canonicalizer) build(p *url.Url) URL {
	// The serialised href tells apart what the getters hide: "x?" from "x"
	// and "file:///" (empty host) from a URL without authority. A '?' in it
	// always starts the query, as WHATWG percent-encodes it everywhere else.
	href := p.Href(true)
	// Resolving against p clones it, and Clone lazily creates the search
	// parameters: creating them now keeps concurrent Resolve calls read-only.
	p.SearchParams()
	u := URL{
		Scheme:    p.Scheme(),
		Host:      p.Hostname(),
		Port:      p.Port(),
		wpath:     p.Pathname(),
		Fragment:  p.Fragment(),
		HasQuery:  strings.IndexByte(href, '?') >= 0,
		wquery:    p.Query(),
		authority: strings.HasPrefix(href, p.Scheme()+"://"),
		parsed:    p,
	}
	u.Path, u.Query = normalizePercent(u.wpath), normalizePercent(u.wquery)
	if p.Username() != "" || p.Password() != "" {
		u.Userinfo = p.Username()
		if p.Password() != "" {
			u.Userinfo += ":" + p.Password()
		}
	}
	u.Href = u.assemble(u.Userinfo, u.Host, u.Path, u.Query, u.HasQuery, "")
	u.Canonical = c.canonical(&u)
	return u
}

// assemble serialises components the way WHATWG does.
func (u URL) assemble(userinfo, host, path, query string, hasQuery bool, fragment string) string {
	var b strings.Builder
	b.Grow(len(u.Scheme) + len(userinfo) + len(host) + len(path) + len(query) + len(fragment) + 16)
	b.WriteString(u.Scheme)
	b.WriteByte(':')
	if u.authority {
		b.WriteString("//")
		if userinfo != "" {
			b.WriteString(userinfo)
			b.WriteByte('@')
		}
		b.WriteString(host)
		if u.Port != "" {
			b.WriteByte(':')
			b.WriteString(u.Port)
		}
	} else if strings.HasPrefix(path, "//") {
		b.WriteString("/.") // keeps a hostless "//x" path from reading as an authority
	}
	b.WriteString(path)
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(query)
	}
	if fragment != "" {
		b.WriteByte('#')
		b.WriteString(fragment)
	}
	return b.String()
}
