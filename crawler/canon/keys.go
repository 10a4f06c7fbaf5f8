package canon

import (
	"strings"

	"golang.org/x/net/publicsuffix"
)

// HostKey is the default politeness (queue) key: the host, plus ":port"
// when the port is not the scheme's default, so two servers on one name
// are throttled separately. Empty for URLs without a host.
func (u URL) HostKey() string {
	if u.Port == "" {
		return u.Host
	}
	return u.Host + ":" + u.Port
}

// RegistrableDomain is the URL's pay-level domain; see RegistrableDomain.
func (u URL) RegistrableDomain() string { return RegistrableDomain(u.Host) }

// RegistrableDomain returns the public suffix plus one label of an ASCII
// host ("news.bbc.co.uk" → "bbc.co.uk"), using the Public Suffix List
// compiled into golang.org/x/net/publicsuffix, private section included, so
// "alice.github.io" is its own domain and never lumped with other users'
// sites. IP addresses, single-label hosts and bare public suffixes have no
// registrable domain and are returned unchanged (lowercased, without a
// trailing dot) so they still key a queue or a scope of their own.
func RegistrableDomain(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" || isIP(host) {
		return host
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return d
}
