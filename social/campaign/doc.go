// Package campaign runs social-media campaigns: a YAML specification
// naming (query, platform) pairs with a time window, a budget and a
// schedule (Spec); a data folder per campaign, DATA/social/ID, with the
// spec, the WARC files of every API exchange, a log of every request and
// the run state (Layout); credentials from a secrets file or the
// environment, never from the spec (Secrets); and the Runner, which asks
// each pair's platform for page after page and commits each page's RDF,
// in the campaign's named graph of the shared store, in the same atomic
// batch as the pair's new cursor (the pages of a bulk platform, an
// import, in groups through the store's bulk loader, each group with its
// pages' cursors in one atomic ingest), so that a campaign killed at any
// point resumes with no post lost or stored twice.
package campaign
