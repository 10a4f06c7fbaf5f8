// Package warc writes, reads, repairs and indexes the crawler's WARC 1.1 archive files.
//
// A Writer stores each fetch as gzip-per-record WARC 1.1 records (warcinfo at the
// head of every file, request/response pairs, revisits of both profiles, metadata
// with outlinks; records up to 1 KiB are stored in their gzip member, larger ones
// compressed), rotates files by size under Heritrix-style names and reports for
// every record the file, offset and compressed length. When a file is closed a
// pywb-compatible CDXJ index is written beside it; the entries it gathers while
// the file grows are kept in memory 8,192 at a time, the others in sorted run
// files beside the index, merged at the end (a 1 GB file may hold a million
// records). Reader iterates the records of a
// file, Repair cuts a file left open by a crash back to its last complete record,
// and Recover does that for a whole directory before a crawl resumes.
//
// Records are serialised here rather than through github.com/nlnwa/gowarc's record
// builder and WarcFileWriter (see writer.go for why); the gowarc unmarshaler parses
// records on the read side.
package warc
