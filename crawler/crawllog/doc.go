// Package crawllog writes and reads crawl.log, one line per finished URI in
// Heritrix 3's layout (org.archive.crawler.io.UriProcessingFormatter):
//
//	2025-01-01T12:00:00.123Z   200      51234 http://example.com/a LLE http://example.com/ text/html #007 20250101120000080+43 sha1:4RBC… - duplicate:digest,3t
//
// logging time (ISO 8601, milliseconds, UTC), fetch status right-aligned in 5
// columns, content size right-aligned in 10 ("-" when unknown), URI, hop path
// from the seed, via URI, MIME type cut at its first ';' ("no-type" when
// absent), thread "#" plus at least 3 digits, fetch begin time (17 digits) "+"
// duration in milliseconds, content digest, source tag and a comma-separated
// list of annotations. Empty fields are "-". Annotations are an open list:
// fetcher truncation marks, retries ("3t"), "duplicate:digest", revisit
// scores and whatever later stages add.
package crawllog
