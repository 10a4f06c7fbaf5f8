// Package scope decides whether a discovered URL belongs to a crawl, the
// way Heritrix's decide-rule sequence does: a URL is in scope when it is on
// a seed's host or registrable domain, under a SURT prefix or matches an
// include pattern, or when it is embedded (within a few non-link hops) in
// an in-scope page; it is then rejected by exclude patterns, hop and depth
// limits, and trap detectors (URL length, repeated path segments, query
// parameter floods, runaway calendars). Every decision names the rule that
// made it, for the crawl log.
package scope
