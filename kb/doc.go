// Package kb is the knowledge base of web applications: what mneme knows
// about the applications that run sites (WordPress, MediaWiki, phpBB,
// DokuWiki and others, one YAML file each under apps/) and what it does
// with that knowledge on a page. A Type names an application; its Detect
// patterns identify it (with the technology fingerprints of
// kb/fingerprint, in Detector); its Levels are the kinds of page it has
// (a post, a list of posts, a wiki article), each with navigation actions
// (the links worth following, Navigate) and extraction actions (the
// objects a page holds and their fields, Extract), written as XPath over
// a page's virtual document (kb/vdoc). Extracted objects become RDF in
// the SIOC and Dublin Core terms of mneme's ontology (Quads).
//
// kb reads pages and knows nothing of crawls: kb/aah plugs it into the
// crawler as the application-aware helper, kb/adapt relearns patterns
// when a site's templates change.
package kb
