package kb

import (
	"net/http"
	"testing"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// evidenceCase is a generated page and the application and category that
// detection should name on it ("" for none).
type evidenceCase struct {
	name, url, head, body, app, category string
	// html holds attributes of the root element.
	html string
}

// checkEvidence detects each case with det and compares.
func checkEvidence(t *testing.T, det *Detector, cases []evidenceCase) {
	t.Helper()
	checkEvidenceHeaders(t, det, cases, nil)
}

// checkEvidenceHeaders is checkEvidence with the response headers of
// each case by its name.
func checkEvidenceHeaders(t *testing.T, det *Detector, cases []evidenceCase, headers map[string]http.Header) {
	t.Helper()
	for _, c := range cases {
		page := "<!DOCTYPE html><html" + c.html + "><head><title>t</title>" + c.head + "</head>" + c.body + "</html>"
		doc, err := vdoc.New(c.url, headers[c.name], []byte(page))
		if err != nil {
			t.Fatal(err)
		}
		d := det.Detect(doc)
		if d.App() != c.app || d.Category() != c.category {
			t.Errorf("%s: detected %q (%q), want %q (%q); evidence %+v, rejected %v",
				c.name, d.App(), d.Category(), c.app, c.category, d.Evidence, d.Rejected)
		}
	}
}

// TestEvidenceKinds checks, on generated pages and with the built-in
// knowledge base alone, each kind of evidence the detector must read
// beyond a theme's stock markup: assets on a host of another domain,
// settings only in embedded JSON, markup ids wherever they stand in the
// tag, a CMS's file paths; and a lone weak signal that names no
// application: a generator string on a plain page, an engine's id on the
// root or body of a page with nothing else of the engine.
func TestEvidenceKinds(t *testing.T) {
	const u = "https://www.example.org/2024/05/a-post/"
	plain := `<body><h1>A page</h1><p>Text.</p></body>`
	checkEvidence(t, NewDetector(builtinKB(t), nil), []evidenceCase{
		{"WordPress theme on a CDN host of another domain", u,
			`<link rel="stylesheet" href="https://cdn.examplecdn.net/wp-content/themes/astra/style.css">`, plain, "wordpress", "blog", ""},
		{"WordPress plugin script on a CDN", u,
			`<script src="https://c0.cdnhost.io/wp-content/plugins/contact-form-7/includes/js/index.js"></script>`, plain, "wordpress", "blog", ""},
		{"WordPress core files on a CDN", u,
			`<script src="https://s0.cdnhost.io/wp-includes/js/jquery/jquery.min.js"></script>`, plain, "wordpress", "blog", ""},
		{"WordPress settings in embedded JSON only", u,
			`<script>var wpApiSettings = {"root":"https:\/\/www.example.org\/wp-json\/","nonce":"x"};</script>`, plain, "wordpress", "blog", ""},
		{"WordPress ajax URL in embedded JSON only", u,
			`<script>var ajax = {"url":"https:\/\/www.example.org\/wp-admin\/admin-ajax.php"};</script>`, plain, "wordpress", "blog", ""},
		{"WordPress uploads in JSON-LD on its own host", u,
			`<script type="application/ld+json">{"@type":"Article","image":"https://www.example.org/wp-content/uploads/2024/05/a.jpg"}</script>`, plain, "wordpress", "blog", ""},
		{"phpBB body id after other attributes", "https://forum.example.org/viewtopic.php?f=1&t=2",
			"", `<body data-spy="scroll" data-target=".x" id="phpbb" class="nojs notouch section-viewtopic ltr"><div class="post"><div class="postbody">x</div></div></body>`, "phpbb", "forum", ""},
		{"a lone phpBB body id on a page of none of its structure", "https://forum.example.org/viewtopic.php?f=1&t=2",
			"", `<body data-spy="scroll" id="phpbb" class="section-viewtopic ltr"><div class="panel"><div class="postbody">x</div></div></body>`, "", "", ""},
		{"phpBB body id with its theme's stylesheet", "https://forum.example.org/viewtopic.php?f=1&t=2",
			`<link href="./styles/prosilver/theme/stylesheet.css" rel="stylesheet">`, `<body id="phpbb" class="section-viewtopic ltr"><div class="panel"><div class="postbody">x</div></div></body>`, "phpbb", "forum", ""},
		{"phpBB body id with its template's script on a restyled board", "https://forum.example.org/viewtopic.php?f=1&t=2",
			`<script src="./styles/acme-2/template/forum_fn.js?assets_version=12"></script>`, `<body id="phpbb" class="section-viewtopic ltr"><div class="panel"><div class="postbody">x</div></div></body>`, "phpbb", "forum", ""},
		{"a lone XenForo root id", "https://www.example.org/threads/a.12/", "", plain, "", "", ` id="XF" lang="en-US"`},
		{"XenForo root id with its scripts on a CDN", "https://www.example.org/threads/a.12/",
			`<script src="https://cdn.example.net/js/xf/preamble.min.js?_v=1"></script>`, plain, "xenforo", "forum", ` id="XF" lang="en-US"`},
		{"Vanilla body id with its applications' stylesheet", "https://forum.example.org/discussion/12/a",
			`<link rel="stylesheet" href="/static-asset/cl1/applications/dashboard/design/style.css">`, `<body id="vanilla_discussion_index" class="x"><p>x</p></body>`, "vanilla", "forum", ""},
		{"a lone Vanilla body id", "https://forum.example.org/discussion/12/a",
			"", `<body id="vanilla_discussion_index" class="x"><p>x</p></body>`, "", "", ""},
		{"XenForo root id with its message list", "https://www.example.org/threads/a.12/", "",
			`<body><ol id="messageList"><li>x</li></ol></body>`, "xenforo", "forum", ` id="XenForo" lang="en-US"`},
		{"Drupal files on a page's images", "https://www.example.org/node/12",
			"", `<body><img src="/sites/default/files/styles/large/public/2024-05/a.jpg"></body>`, "drupal", "cms", ""},
		{"Drupal files in a stylesheet", "https://www.example.org/about",
			`<link rel="stylesheet" href="/sites/default/files/css/css_abc.css">`, plain, "drupal", "cms", ""},
		{"a lone WordPress generator on a plain page", "https://www.example.org/a.html",
			`<meta name="generator" content="WordPress 6.4">`, plain, "", "", ""},
		{"a lone Joomla generator on a plain page", "https://www.example.org/a.html",
			`<meta name="generator" content="Joomla! - Open Source Content Management">`, plain, "", "", ""},
		{"a lone Drupal generator on a plain page", "https://www.example.org/a.html",
			`<meta name="generator" content="Drupal 10 (https://www.drupal.org)">`, plain, "", "", ""},
		{"a plain page", "https://www.example.org/a.html", "", plain, "", "", ""},
	})
}

// TestEvidenceKindsFingerprints checks, with every webappanalyzer
// fingerprint and the knowledge base's specific entries switched off
// (an engine never seen) and on, that technologies the fingerprints name
// get their category's type: static-site generators, hosted site
// builders, blog and community platforms (Tumblr by its blog's host, its
// header or its controls' frame), forums the knowledge base does
// not describe, engines marked by their own name in the page's id and an
// asset's path, their settings' script or data attributes, or credited in
// a footer or a comment; and that another site's share button, a
// widget's data attributes, an icon's class, an engine's name as the
// page's id alone, an ordinary word as the body's id or a credit to a
// plugin names no platform.
func TestEvidenceKindsFingerprints(t *testing.T) {
	fp := loadFingerprints(t)
	plain := `<body><h1>A page</h1><p>Text.</p></body>`
	const u = "https://www.example.org/posts/a/"
	cases := []evidenceCase{
		{"Hugo by its generator", u, `<meta name="generator" content="Hugo 0.121.1">`, plain, "hugo", "cms", ""},
		{"Jekyll by its generator", u, `<meta name="generator" content="Jekyll v4.3.2">`, plain, "jekyll", "cms", ""},
		{"Squarespace by its context global", u, "",
			`<body><script>Static.SQUARESPACE_CONTEXT = {"website":{"id":"1"}};</script><p>x</p></body>`, "squarespace", "cms", ""},
		{"Webflow by its site attribute", u, "", plain, "webflow", "cms", ` data-wf-page="5f1a2b3c4d5e6f7a8b9c0d1f" data-wf-site="5f1a2b3c4d5e6f7a8b9c0d1e"`},
		{"Simple Machines Forum by its theme global", "https://www.example.org/index.php?topic=12.0", "",
			`<body><script>var smf_theme_url = "https://www.example.org/Themes/default"; var smf_images_url = "x";</script><p>x</p></body>`, "simple-machines-forum", "forum", ""},
		{"inSided by its data global", "https://community.example.org/t/12", "",
			`<body><script>window.inSidedData = {"user":{}};</script><p>x</p></body>`, "insided", "forum", ""},
		// Markup that names its engine, which no fingerprint rule reads.
		{"vBulletin by the root element's id and its stylesheets' path", "https://forums.example.org/12-a-thread.html",
			`<link rel="stylesheet" href="https://forums.example.org/clientscript/vbulletin_css/style00038l/main-rollup.css">`, plain, "vbulletin", "forum", ` id="vbulletin_html" dir="ltr"`},
		{"the root element's id alone naming an engine", "https://forums.example.org/12-a-thread.html", "", plain, "", "", ` id="vbulletin_html" dir="ltr"`},
		{"the body's id alone naming an engine", "https://forum.example.org/viewtopic.php?f=1&t=2", "",
			`<body data-spy="scroll" id="phpbb" class="section-viewtopic ltr"><div class="panel"><div class="postbody">x</div></div></body>`, "", "", ""},
		{"an ordinary word of the page as the body's id", "https://www.example.org/community/", "",
			`<body id="community"><h1>Our Community</h1><p>Join the community and meet other members.</p></body>`, "", "", ""},
		{"Drupal by its data attributes", "https://www.example.org/pl/a", "",
			`<body><div data-drupal-settingstray="editable"><a href="/en/a" data-drupal-link-system-path="node/1">EN</a><a href="/pl/a" data-drupal-link-system-path="node/1">PL</a></div><form data-drupal-selector="search-form"></form></body>`, "drupal", "cms", ""},
		{"data attributes of a widget sharing an application's name", u, "",
			`<body data-instant-intensity="viewport"><a href="/b" data-instant-allow-query-string>b</a><a href="/c" data-instant-allow-query-string>c</a></body>`, "", "", ""},
		{"an icon font's class naming an application", u, "",
			`<body class="wordpress-share"><a class="fa fa-wordpress fa-tumblr" href="https://example.wordpress.com/">blog</a></body>`, "", "", ""},
		{"Joomla by the class of its settings' script", "https://www.example.org/news/123-a.html", "",
			`<body><script type="application/json" class="joomla-script-options new">{"csrf.token":"d7e7","system.paths":{"root":""}}</script><p>x</p></body>`, "joomla", "cms", ""},
		{"a JSON-LD script's id naming an application", u, "",
			`<body><script type="application/ld+json" id="wordpress-schema">{"@type":"Article"}</script><p>x</p></body>`, "", "", ""},
		{"MyBB by its footer's credit", "https://forum.example.org/thread-12.html", "",
			`<body><div id="copyright">Powered By <a href="https://mybb.com" target="_blank">MyBB</a>, &copy; 2002-2024 MyBB Group.</div></body>`, "mybb", "forum", ""},
		{"Contao by its template's comment", u, "",
			`<body><!--\n\tThis website is powered by Contao Open Source CMS :: Licensed under GNU/LGPL\n--><p>x</p></body>`, "contao", "cms", ""},
		{"a comment crediting a plugin", u, "",
			`<body><!-- Cookie Consent by Complianz powered by Complianz | GDPR/CCPA Cookie Consent --><p>x</p></body>`, "", "", ""},
		{"a credit in running text", u, "",
			`<body><p>Our shop, powered by WordPress and a lot of coffee, opens today.</p></body>`, "", "", ""},
		{"a credit to a plugin or vendor", u, "",
			`<body><footer>Powered by <a href="https://agency.example.net/">Example Agency</a></footer></body>`, "", "", ""},
		{"Tumblr by its blog's host", "https://someone.tumblr.com/post/123/a-post", "", plain, "tumblr", "blog", ""},
		{"Tumblr on the blog's own domain by its header", u, "", plain, "tumblr", "blog", ""},
		{"Tumblr on the blog's own domain by its controls' frame", u, "",
			`<body><p>x</p><iframe src="https://www.tumblr.com/dashboard/iframe?src=https%3A%2F%2Fwww.example.org%2F" width="1" height="1"></iframe></body>`, "tumblr", "blog", ""},
		{"Tumblr's share button on a site of its own", u, "",
			`<body><p>x</p><script async src="https://secure.assets.tumblr.com/post.js"></script></body>`, "", "", ""},
	}
	headers := map[string]http.Header{"Tumblr on the blog's own domain by its header": {"X-Tumblr-User": {"someone"}}}
	checkEvidenceHeaders(t, NewDetector(&KB{}, fp), cases, headers)
	checkEvidenceHeaders(t, NewDetector(builtinKB(t), fp), cases, headers)
	// A generator the knowledge base finds alone on a plain page names
	// nothing, though the fingerprints name its technology by it (with
	// the specific entries off, the fingerprints' generator names it:
	// most technologies have no other evidence the fingerprints read).
	checkEvidence(t, NewDetector(builtinKB(t), fp), []evidenceCase{
		{"a lone WordPress generator on a plain page", u, `<meta name="generator" content="WordPress 6.4">`, plain, "", "", ""},
		{"a lone Joomla generator on a plain page", u, `<meta name="generator" content="Joomla! - Open Source Content Management">`, plain, "", "", ""},
		{"a lone Drupal generator on a plain page", u, `<meta name="generator" content="Drupal 10 (https://www.drupal.org)">`, plain, "", "", ""},
	})
}
