package robots

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxBytes is how much of a robots.txt file is parsed. RFC 9309 §2.5
// requires at least 500 KiB; content beyond it is ignored, as Google does.
const MaxBytes = 500 << 10

// Robots is a parsed robots.txt file.
type Robots struct {
	groups   []group
	Sitemaps []string // Sitemap lines, in file order; they belong to no group
}

type group struct {
	agents     []string // lowercased product tokens; "*" matches any crawler
	rules      []rule
	crawlDelay time.Duration
	hasDelay   bool
}

type rule struct {
	allow    bool
	pattern  string // normalised path pattern, '*' wildcards, without a final '$'
	anchored bool   // the pattern ended with '$'
	length   int    // octets of the normalised pattern, '$' included: the precedence
	text     string // "allow: /x$", kept for Decision.Rule so Check does not allocate
}

// Parse reads a robots.txt body. It never fails: lines it does not
// understand are ignored, as RFC 9309 §2.2 asks. Only the first MaxBytes
// are read; a line cut by that limit is dropped.
func Parse(body []byte) *Robots {
	if len(body) > MaxBytes {
		body = body[:MaxBytes]
		if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
			body = body[:i]
		}
	}
	body = bytes.TrimPrefix(body, []byte("\xEF\xBB\xBF"))
	r := &Robots{}
	var cur *group
	agentsOpen := false // the last group line was a user-agent: more may join the group
	for len(body) > 0 {
		var line []byte
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		val := string(bytes.TrimSpace(value))
		k := strings.ToLower(string(bytes.TrimSpace(key)))
		switch k {
		case "user-agent", "useragent", "user agent":
			token := productToken(val)
			if token == "" {
				continue
			}
			if !agentsOpen {
				r.groups = append(r.groups, group{})
				cur = &r.groups[len(r.groups)-1]
			}
			cur.agents = append(cur.agents, token)
			agentsOpen = true
		case "allow", "disallow", "dissallow", "dissalow", "disalow":
			if cur == nil {
				continue // rules before any user-agent line belong to no group
			}
			agentsOpen = false
			if val == "" {
				continue // "Disallow:" with no path matches nothing
			}
			cur.rules = append(cur.rules, newRule(k == "allow", val))
		case "crawl-delay":
			if cur == nil {
				continue
			}
			agentsOpen = false
			if s, err := strconv.ParseFloat(val, 64); err == nil && s >= 0 && !math.IsInf(s, 0) {
				cur.crawlDelay = time.Duration(math.Min(s, 1e6) * float64(time.Second))
				cur.hasDelay = true
			}
		case "sitemap", "site-map":
			if val != "" {
				r.Sitemaps = append(r.Sitemaps, val)
			}
		}
	}
	return r
}

// productToken extracts the part of a User-agent value that names the
// crawler: "*", or the leading run of letters, '_' and '-' (RFC 9309
// §2.2.1), lowercased, so "Googlebot/2.1" names "googlebot".
func productToken(v string) string {
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	n := 0
	for n < len(v) && (isAlpha(v[n]) || v[n] == '_' || v[n] == '-') {
		n++
	}
	return strings.ToLower(v[:n])
}

func newRule(allow bool, value string) rule {
	r := rule{allow: allow}
	if strings.HasSuffix(value, "$") {
		r.anchored = true
		value = value[:len(value)-1]
		r.length = 1
	}
	r.pattern = normalize(value, true)
	r.length += len(r.pattern)
	r.text = "disallow: " + r.pattern
	if allow {
		r.text = "allow: " + r.pattern
	}
	if r.anchored {
		r.text += "$"
	}
	return r
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
