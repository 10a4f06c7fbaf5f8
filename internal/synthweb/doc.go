// Package synthweb serves deterministic synthetic web sites as
// http.Handlers, for the demo, tests and benchmarks of the crawler: a blog
// with WordPress markup, a forum with phpBB markup and a wiki with MediaWiki
// markup (each with its robots.txt, duplicate views and crawler traps), all
// about one imaginary valley and linking to each other, and a large generic
// site of N pages sized for throughput and crash tests. The same seed gives
// the same bytes on every run and machine; nothing depends on the request
// order or the clock.
package synthweb
