package robots

import (
	"strings"
	"time"
)

// Agent is the rule set that applies to one crawler: the merged groups
// naming its product token, else the merged "*" groups, else nothing.
type Agent struct {
	rules       []rule
	disallowAll bool   // robots.txt unreachable: nothing may be fetched
	reason      string // why there are no rules, for Decision.Rule
	crawlDelay  time.Duration
	hasDelay    bool
}

// Decision is the verdict for one path, with the rule that decided it so
// crawl logs can say why a URL was skipped.
type Decision struct {
	Allowed bool
	Rule    string // e.g. "disallow: /private/", "no matching rule", "robots.txt unreachable: …"
}

// Agent selects the rules for the crawler whose product token is token
// (e.g. "mneme"; matched case-insensitively against User-agent lines).
// Every group naming the token is merged (RFC 9309 §2.2.1); when none does,
// the "*" groups are merged instead. Crawl-delay is the largest found in
// the selected groups.
func (r *Robots) Agent(token string) *Agent {
	token = strings.ToLower(token)
	a := &Agent{reason: "no matching rule"}
	if !r.collect(a, token) {
		r.collect(a, "*")
	}
	return a
}

func (r *Robots) collect(a *Agent, token string) bool {
	found := false
	for i := range r.groups {
		g := &r.groups[i]
		for _, t := range g.agents {
			if t == token {
				found = true
				a.rules = append(a.rules, g.rules...)
				if g.hasDelay && (!a.hasDelay || g.crawlDelay > a.crawlDelay) {
					a.crawlDelay, a.hasDelay = g.crawlDelay, true
				}
				break
			}
		}
	}
	return found
}

// AllowAll returns an Agent without rules; reason says why (for logs).
func AllowAll(reason string) *Agent { return &Agent{reason: reason} }

// DisallowAll returns an Agent that refuses every path; reason says why.
func DisallowAll(reason string) *Agent { return &Agent{disallowAll: true, reason: reason} }

// CrawlDelay returns the Crawl-delay of the selected groups, capped at
// limit, and whether the file set one. Crawl-delay is not part of RFC 9309;
// the cap keeps a hostile value from stalling a queue.
func (a *Agent) CrawlDelay(limit time.Duration) (time.Duration, bool) {
	return min(a.crawlDelay, limit), a.hasDelay
}

// Allowed reports whether path may be fetched; see Check.
func (a *Agent) Allowed(path string) bool { return a.Check(path).Allowed }

// Check decides whether path (the URL's path plus "?query", as sent in the
// request line) may be fetched. The longest matching pattern wins and
// Allow wins a tie (RFC 9309 §2.2.2); /robots.txt itself is always allowed.
func (a *Agent) Check(path string) Decision {
	if path == "" {
		path = "/"
	}
	if path == "/robots.txt" {
		return Decision{Allowed: true, Rule: "/robots.txt is always allowed"}
	}
	if a.disallowAll {
		return Decision{Allowed: false, Rule: a.reason}
	}
	if len(a.rules) == 0 {
		return Decision{Allowed: true, Rule: a.reason}
	}
	path = normalize(path, false)
	best := -1
	for i, r := range a.rules {
		if best >= 0 && (r.length < a.rules[best].length || r.length == a.rules[best].length && (!r.allow || a.rules[best].allow)) {
			continue // cannot beat the current winner
		}
		if matches(r.pattern, r.anchored, path) {
			best = i
		}
	}
	if best < 0 {
		return Decision{Allowed: true, Rule: a.reason}
	}
	return Decision{Allowed: a.rules[best].allow, Rule: a.rules[best].text}
}

// matches reports whether pattern, where '*' stands for any run of octets,
// matches a prefix of path (all of it when anchored). It is the classic
// glob walk that backtracks only to the last '*', linear in practice and
// O(len(pattern)·len(path)) at worst.
func matches(pattern string, anchored bool, path string) bool {
	p, s := 0, 0
	star, mark := -1, 0
	for {
		if p == len(pattern) && (!anchored || s == len(path)) {
			return true
		}
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, s
			p++
		case p < len(pattern) && s < len(path) && pattern[p] == path[s]:
			p++
			s++
		case star >= 0 && mark < len(path):
			mark++
			p, s = star+1, mark
		default:
			return false
		}
	}
}

const upperHex = "0123456789ABCDEF"

// normalize brings a path or a pattern to the form RFC 9309 §2.2.2
// compares: escapes of unreserved characters decoded, other escapes with
// uppercase hex, non-ASCII and control octets percent-encoded. In a path
// (not a pattern) '*' and '$' are literal, so they are encoded as %2A and
// %24, which is how a pattern must spell them to match them verbatim.
func normalize(s string, pattern bool) string {
	var b []byte // nil until the first change, so clean input costs nothing
	grow := func(i int) {
		if b == nil {
			b = append(make([]byte, 0, len(s)+8), s[:i]...)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			switch {
			case isUnreserved(d):
				grow(i)
				b = append(b, d)
			case s[i+1] != upperHex[d>>4] || s[i+2] != upperHex[d&15]:
				grow(i)
				b = append(b, '%', upperHex[d>>4], upperHex[d&15])
			case b != nil:
				b = append(b, s[i:i+3]...)
			}
			i += 2
			continue
		}
		if c <= 0x20 || c >= 0x7f || !pattern && (c == '*' || c == '$') {
			grow(i)
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		} else if b != nil {
			b = append(b, c)
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}

func isUnreserved(c byte) bool {
	return isAlpha(c) || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}
