// Package ntriples reads and writes RDF 1.1 N-Triples and N-Quads, the
// line-based formats that bulk loading runs on.
//
// The reader is built for throughput: it scans lines in place in a large
// buffer and the strings of the terms it returns point into that buffer
// (or into a reusable scratch buffer when escapes had to be decoded), so
// parsing allocates nothing per statement. The same core, ChunkParser,
// parses any chunk of complete lines given its first line number, which
// lets a loader split one file into chunks and parse them concurrently.
//
// Input is validated exactly as the W3C N-Triples and N-Quads test suites
// require: absolute IRIs only, IRIREF, UCHAR, ECHAR, LANGTAG and
// BLANK_NODE_LABEL character rules, valid UTF-8 everywhere.
package ntriples
