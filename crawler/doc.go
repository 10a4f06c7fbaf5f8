// Package crawler runs crawls: it drives the frontier, fetcher, robots.txt
// policy, scope, link extraction, WARC writer, crawl.log and RDF store of one
// crawl as a library (New or Open, then Run; Pause, Resume, Stop and
// Status while it runs), which the mneme crawl command and the control API
// share.
//
// # Data folder
//
// A data folder holds one store for all crawls (DATA/store, so that SPARQL
// spans crawls) and a folder per crawl:
//
//	DATA/crawls/ID/spec.yaml   the specification, every default written out
//	DATA/crawls/ID/frontier/   the Pebble frontier
//	DATA/crawls/ID/digests/    payload digest → first capture, for revisits
//	DATA/crawls/ID/warcs/      WARC files and their CDXJ indexes
//	DATA/crawls/ID/crawl.log   one line per finished URL (Heritrix layout)
//	DATA/crawls/ID/state       JSON: running, stopped or finished; times
//	DATA/crawls/ID/report.txt  seeds' fate, hosts, status codes, MIME types (each run's end)
//
// # Pipeline and crash safety
//
// One dispatcher claims URLs from the frontier (a worker's worth ahead) when
// a queue is ready; workers fetch (robots.txt first, as a prerequisite),
// extract links, write the WARC records, schedule the links found and hand
// the capture and its crawl.log line to a single RDF writer, which makes the
// WARC records of a batch durable with one fsync, stores their payload
// digests for deduplication, commits captures and links, writes and syncs
// the batch's crawl.log lines and only then completes the URLs in the
// frontier (synced once per batch). A batch commits at the latest
// rdf.commit-within (default 1 s) after its first URL.
//
// The crash contract (kill -9, power loss): whatever the frontier holds as
// done is in the WARC files, the store and crawl.log, and every crawl.log
// line names a durable record with a committed capture. A crash loses the
// URLs in flight or awaiting their batch: at most workers + 2 × rdf.batch
// URLs, in time the fetches of the last rdf.commit-within plus the commit
// under way; they are fetched again on resume. Open repairs the WARC files,
// drops captures pointing into a cut-off part, cuts a half-written
// crawl.log line, and marks the WARC records that no capture names (written
// before the crash, never committed) abandoned: a metadata record naming
// each (abandonedRecord) in the new run's file, the record left out of its
// file's CDXJ index and its digest out of the digest index (durable.go).
//
// # Hostile servers
//
// Every fetch is bounded (spec sections fetch, politeness and scope):
// bodies by size (cut "length") and by time, total and minimum rate (cut
// "time"); decoded bodies for analysis by size (gzip bombs); redirects
// count as hops against max-hops and end after max-redirects in a row;
// crawl.log shows at most the last 50 hops of a path; a retriable error
// (connection failure, timeout, 429, 503) delays its URL only, unless
// the host is failing (nothing answers, no robots.txt, 3 errors in a row),
// and no retry waits longer than max-retry-delay, whatever Retry-After
// says. URLs injected into a running crawl pass its scope and, with
// politeness off, the loopback rule (Inject).
//
// # Analyzers
//
// By default every page's links are found by the standard HTML and CSS
// extractor and all of them are followed (within the scope). Deps.Analyzer
// replaces that step: it gets the fetched page (URL, headers, text),
// returns the links to record and, apart, those to follow, and may return
// statements about the page, which the RDF writer commits with its capture
// (the application-aware helper of package kb/aah stores the posts,
// comments and wiki pages it extracts that way). While it analyzes a page
// it may fetch more pages of the same host through the crawl
// (Page.Fetch: scope, robots.txt, politeness, WARC and crawl.log), so
// that no request goes unrecorded.
//
// # Incremental crawls
//
// A spec with an incremental section makes the crawl continuous
// (docs/incremental.md): each fetched URL is scheduled again by its revisit
// policy (crawler/revisit: "ar" or "poisson") and waits in the frontier
// with its history; a revisit is a conditional request, its change status
// comes from the 304 or the content's digest, an unchanged capture is a
// WARC revisit record and every capture points to the previous one of its
// URL in RDF. Schedules run on the crawl's clock.
//
// # Crawls across time
//
// A crawl that captures a URL an earlier crawl of the data folder
// captured revises that capture (found in the store, see earlier.go):
// prov:wasRevisionOf, a change status from the payload digests, and a
// WARC revisit record of the earlier record when the payload is unchanged.
package crawler
