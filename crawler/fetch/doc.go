// Package fetch performs one HTTP(S) fetch for an archival crawler and keeps
// everything an archive and a link extractor need from it.
//
// A Fetcher wraps a tuned net/http Transport (keep-alive, HTTP/2 over TLS, a
// bounded DNS cache, connect, TLS, header, read-idle and total timeouts). It
// never follows redirects and never decompresses on the wire: a redirect comes
// back with its Location resolved for the crawl loop to schedule as an R hop,
// and the archive keeps the bytes exactly as received.
//
// For HTTP/1.x the request and response are recorded at the connection, so
// Result.Request and Result.Response are the bytes written and read, header
// order, chunked framing and content coding included: what Heritrix stores and
// what crawler/warc expects (its payload digest removes the chunking itself).
// HTTP/2 frames are not HTTP messages, so for an h2 exchange the recorder
// writes the HTTP/1.1-style equivalent ("HTTP/2.0" protocol, fields sorted by
// name, entity body as received), as other archiving crawlers do.
//
// Recordings and bodies stay in memory up to Config.MemoryLimit and spill to a
// temporary file beyond it, so a fetch uses bounded memory whatever it
// downloads. Bodies longer than Config.MaxBodySize are cut ("length"), fetches
// longer than Config.TotalTimeout are cut ("time"). Failures are classified
// into Heritrix's negative fetch status codes.
package fetch
