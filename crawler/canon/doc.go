// Package canon parses URLs the way browsers do (WHATWG URL Standard, via
// github.com/nlnwa/whatwg-url, with a fast path for plain http(s) URLs
// that gives the same result at a tenth of the cost, and a shorter one
// still for the plain paths and queries of a site, joined to their base's
// href) and derives the keys an
// archival crawler files them under: the Heritrix-style canonical "already
// seen" key, the Heritrix SURT and SURT prefixes used by scopes, the
// pywb/CDXJ SURT key, the politeness host key and the registrable
// (pay-level) domain.
//
// A parsed URL keeps two forms apart on purpose, as Heritrix does: Href is
// what the fetcher requests (normalised but faithful), Canonical is a lossy
// key for deduplication only (session ids dropped, optionally www stripped,
// query sorted), so canonicalization never changes what is fetched.
package canon
