package scope

import (
	"net/netip"
	"strings"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// hasSURTPrefix reports whether u.ScopeSURT() starts with p without
// building the SURT, a string per link of every page: it walks p along the
// parts of the SURT in the order canon.URL.SURT writes them (scheme, with
// https as http; "://("; the host, labels reversed, or an IP as it is;
// port; userinfo; ")"; path; query).
func hasSURTPrefix(u canon.URL, p string) bool {
	if !u.Hierarchical() {
		return strings.HasPrefix(u.ScopeSURT(), p)
	}
	w := surtWalk{rest: p}
	scheme := u.Scheme
	if scheme == "https" {
		scheme = "http"
	}
	if !w.eat(scheme) || !w.eat("://(") {
		return w.ok
	}
	if host := u.Host; strings.HasPrefix(host, "[") || isIPv4or6(host) {
		if !w.eat(host) {
			return w.ok
		}
	} else {
		for end := len(host); end > 0; {
			start := strings.LastIndexByte(host[:end], '.') + 1
			if !w.eat(host[start:end]) || start > 0 && !w.eat(",") {
				return w.ok
			}
			end = start - 1
		}
		if !w.eat(",") {
			return w.ok
		}
	}
	if u.Port != "" && (!w.eat(":") || !w.eat(u.Port)) ||
		u.Userinfo != "" && (!w.eat("@") || !w.eat(u.Userinfo)) ||
		!w.eat(")") || !w.eat(u.Path) ||
		u.HasQuery && (!w.eat("?") || !w.eat(u.Query)) {
		return w.ok
	}
	return w.rest == ""
}

// surtWalk matches a prefix against a string given in parts.
type surtWalk struct {
	rest string // what of the prefix is still to match
	ok   bool   // the answer, once eat returned false
}

// eat matches the next part; it returns false when the answer is known:
// the prefix ended within the part (ok says whether it matched) or
// differs from it (ok false).
func (w *surtWalk) eat(part string) bool {
	if len(w.rest) <= len(part) {
		w.ok = part[:len(w.rest)] == w.rest
		return false
	}
	if w.rest[:len(part)] != part {
		return false
	}
	w.rest = w.rest[len(part):]
	return true
}

// isIPv4or6 is the test of canon's SURT for a host it does not reverse
// (netip.ParseAddr), but a name with a letter and no colon, which cannot
// be an address, is told apart without it: a failed parse allocates its
// error.
func isIPv4or6(host string) bool {
	if strings.IndexFunc(host, func(r rune) bool { return r != '.' && r != ':' && (r < '0' || r > '9') }) >= 0 &&
		strings.IndexByte(host, ':') < 0 {
		return false
	}
	_, err := netip.ParseAddr(host)
	return err == nil
}
