// Package robots decides whether a crawler may fetch a URL according to
// the site's robots.txt, following RFC 9309 (the Robots Exclusion
// Protocol): group selection by case-insensitive product token with merging
// of repeated groups and the "*" fallback, longest-match precedence with
// Allow winning ties, "*" and "$" wildcards, percent-encoding normalisation
// of paths, a 500 KiB parse limit, and the status-code policy of §2.3.1
// (4xx: allow all, 5xx or network error: disallow all). It also reads the
// non-standard Crawl-delay and the Sitemap lines, and caches per-site
// results with RFC 9309's expiry rules on an injectable clock.
//
// Fetching is left to the crawler (so robots.txt lands in the WARC like any
// prerequisite); FromResponse turns what the fetch produced into a policy.
package robots
