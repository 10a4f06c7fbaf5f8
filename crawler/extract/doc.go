// Package extract finds the outlinks of fetched documents, Heritrix style:
// each with its resolved URL, hop type (L navigational link, E embed, R
// redirect), the XPath-like context it was found in ("a/@href",
// "img/@srcset", "meta" …), and for links the anchor text and the text of the
// paragraph around it, which link-prioritising scorers use.
//
// Standard handles HTML (one pass of a tokenizer, no tree) and CSS. The
// Extractor interface lets a site-aware extractor replace it for the pages
// it knows. antchfx/htmlquery was not used: it starts by building the whole
// tree with html.Parse, which alone costs about 2.5 times a tokenizer pass
// and 5 times its allocations on the benchmark page (BenchmarkParseTree:
// ~2,650 allocations, 120 KB), before any XPath query runs. The tokenizer
// is scanner (scan.go): golang.org/x/net/html's Tokenizer, state for state,
// over a document in memory, which skips text to the next '<' with
// bytes.IndexByte and copies nothing it need not; the tests compare the
// two token for token and link for link on saved pages of real
// applications, the benchmark's generated site and fuzzed input. The
// document is read into memory whole (crawler/fetch bounds a decoded body,
// 32 MB by default). References are resolved from the page's bytes
// (canon.ResolveBytes) and deduplicated in open-addressed tables that
// pooled collectors reuse from page to page; testdata/golden-links.txt
// holds digests of the outlinks the extractor gave before that rewrite,
// which it must still give.
//
// Hop types and contexts follow Heritrix 3's ExtractorHTML: frames and
// iframes are embeds, <link> is an embed for icon, stylesheet,
// modulepreload, prefetch and prerender and a link for other relations
// (canonical, alternate …), pingback and connection hints are dropped, meta
// refresh is a redirect, form actions are links for GET forms, and URLs in
// CSS are embeds in the "=EMBED_MISC" context.
package extract
