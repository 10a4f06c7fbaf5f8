package synthweb

import "html/template"

// wikiTemplates is MediaWiki 1.41's markup with the Vector (legacy) skin.
var wikiTemplates = template.Must(template.New("wiki").Parse(`
{{define "layout"}}<!DOCTYPE html>
<html class="client-nojs" lang="en" dir="ltr">
<head>
<meta charset="UTF-8"/>
<title>{{.Title}} - Fenwick Valley Wiki</title>
<script>document.documentElement.className="client-js";RLCONF={"wgPageName":"{{.Key}}","wgNamespaceNumber":{{.NS}},"wgAction":"{{.Action}}"};</script>
<link rel="stylesheet" href="/w/load.php?lang=en&amp;modules=mediawiki.legacy.commonPrint%2Cshared%7Cskins.vector.styles.legacy&amp;only=styles&amp;skin=vector"/>
<script async="" src="/w/load.php?lang=en&amp;modules=startup&amp;only=scripts&amp;raw=1&amp;skin=vector"></script>
<meta name="generator" content="MediaWiki 1.41.0"/>
{{if .NoIndex}}<meta name="robots" content="noindex,nofollow"/>
{{end}}{{with .Article}}<link rel="alternate" type="application/x-wiki" title="Edit" href="/w/index.php?title={{.Key}}&amp;action=edit"/>
{{end}}<link rel="icon" href="/favicon.ico"/>
<link rel="search" type="application/opensearchdescription+xml" href="/w/opensearch_desc.php" title="Fenwick Valley Wiki (en)"/>
<link rel="EditURI" type="application/rsd+xml" href="/w/api.php?action=rsd"/>
{{with .Canonical}}<link rel="canonical" href="{{.}}"/>
{{end}}<link rel="alternate" type="application/atom+xml" title="Fenwick Valley Wiki Atom feed" href="/w/index.php?title=Special:RecentChanges&amp;feed=atom"/>
</head>
<body class="{{.BodyClass}}">
<div id="mw-page-base" class="noprint"></div>
<div id="mw-head-base" class="noprint"></div>
<div id="content" class="mw-body" role="main">
<a id="top"></a>
<div class="mw-indicators"></div>
<h1 id="firstHeading" class="firstHeading mw-first-heading">{{.Heading}}</h1>
<div id="bodyContent" class="vector-body">
<div id="siteSub" class="noprint">From Fenwick Valley Wiki</div>
<div id="contentSub">{{.Sub}}</div>
<div id="mw-content-text" class="mw-body-content mw-content-ltr" lang="en" dir="ltr">{{.Content}}</div>
{{if .Cats}}<div id="catlinks" class="catlinks" data-mw="interface"><div id="mw-normal-catlinks" class="mw-normal-catlinks"><a href="/wiki/Special:Categories" title="Special:Categories">Categories</a>: <ul>{{range .Cats}}<li><a href="/wiki/Category:{{.}}" title="Category:{{.}}">{{.}}</a></li>{{end}}</ul></div></div>
{{end}}</div>
</div>
<div id="mw-navigation">
<h2>Navigation menu</h2>
<div id="mw-head">
<nav id="p-personal" class="vector-menu" aria-labelledby="p-personal-label" role="navigation"><div class="vector-menu-content"><ul class="vector-menu-content-list">
<li id="pt-createaccount" class="mw-list-item"><a href="/w/index.php?title=Special:CreateAccount&amp;returnto={{.ReturnTo}}" title="You are encouraged to create an account and log in; however, it is not mandatory"><span>Create account</span></a></li>
<li id="pt-login" class="mw-list-item"><a href="/w/index.php?title=Special:UserLogin&amp;returnto={{.ReturnTo}}" title="You are encouraged to log in; however, it is not mandatory [o]" accesskey="o"><span>Log in</span></a></li>
</ul></div></nav>
<div id="left-navigation">
<nav id="p-namespaces" class="vector-menu vector-menu-tabs" role="navigation"><div class="vector-menu-content"><ul class="vector-menu-content-list">
{{if .Article}}<li id="ca-nstab-main" class="selected mw-list-item"><a href="/wiki/{{.Article.Key}}" title="View the content page [c]" accesskey="c"><span>Page</span></a></li>
<li id="ca-talk" class="new mw-list-item"><a href="/w/index.php?title=Talk:{{.Article.Key}}&amp;action=edit&amp;redlink=1" rel="discussion" class="new" title="Discussion about the content page (page does not exist) [t]" accesskey="t"><span>Discussion</span></a></li>
{{else}}<li id="ca-nstab-special" class="selected mw-list-item"><a href="/wiki/{{.Key}}" title="This is a special page, and it cannot be edited"><span>Special page</span></a></li>
{{end}}</ul></div></nav>
</div>
<div id="right-navigation">
{{with .Article}}<nav id="p-views" class="vector-menu vector-menu-tabs" role="navigation"><div class="vector-menu-content"><ul class="vector-menu-content-list">
<li id="ca-view" class="{{if eq $.Action "view"}}selected {{end}}mw-list-item"><a href="/wiki/{{.Key}}"><span>Read</span></a></li>
<li id="ca-edit" class="mw-list-item"><a href="/w/index.php?title={{.Key}}&amp;action=edit" title="Edit this page [e]" accesskey="e"><span>Edit</span></a></li>
<li id="ca-history" class="{{if eq $.Action "history"}}selected {{end}}mw-list-item"><a href="/w/index.php?title={{.Key}}&amp;action=history" title="Past revisions of this page [h]" accesskey="h"><span>View history</span></a></li>
</ul></div></nav>
{{end}}<div id="p-search" role="search" class="vector-search-box-vue vector-search-box-show-thumbnail vector-search-box">
<form action="/w/index.php" id="searchform" class="vector-search-box-form"><input type="hidden" name="title" value="Special:Search"/><input type="search" name="search" placeholder="Search Fenwick Valley Wiki" id="searchInput"/><input type="submit" name="go" value="Go" id="searchButton"/></form>
</div>
</div>
</div>
<div id="mw-panel">
<div id="p-logo" role="banner"><a class="mw-wiki-logo" href="/wiki/Main_Page" title="Visit the main page"></a></div>
<nav id="p-navigation" class="vector-menu vector-menu-portal portal" role="navigation"><h3 id="p-navigation-label" class="vector-menu-heading"><span>Navigation</span></h3><div class="vector-menu-content"><ul class="vector-menu-content-list">
<li id="n-mainpage-description" class="mw-list-item"><a href="/wiki/Main_Page" title="Visit the main page [z]" accesskey="z"><span>Main page</span></a></li>
<li id="n-recentchanges" class="mw-list-item"><a href="/wiki/Special:RecentChanges" title="A list of recent changes in the wiki [r]" accesskey="r"><span>Recent changes</span></a></li>
<li id="n-randompage" class="mw-list-item"><a href="/wiki/Special:Random" title="Load a random page [x]" accesskey="x"><span>Random page</span></a></li>
<li id="n-allpages" class="mw-list-item"><a href="/wiki/Special:AllPages"><span>All pages</span></a></li>
<li id="n-blog" class="mw-list-item"><a href="{{.Bases.Blog}}/" rel="nofollow" class="external"><span>Valley blog</span></a></li>
<li id="n-forum" class="mw-list-item"><a href="{{.Bases.Forum}}/index.php" rel="nofollow" class="external"><span>Forum</span></a></li>
</ul></div></nav>
<nav id="p-tb" class="vector-menu vector-menu-portal portal" role="navigation"><h3 id="p-tb-label" class="vector-menu-heading"><span>Tools</span></h3><div class="vector-menu-content"><ul class="vector-menu-content-list">
{{with .Article}}<li id="t-whatlinkshere" class="mw-list-item"><a href="/wiki/Special:WhatLinksHere/{{.Key}}" title="A list of all wiki pages that link here [j]" accesskey="j"><span>What links here</span></a></li>
{{end}}<li id="t-specialpages" class="mw-list-item"><a href="/wiki/Special:SpecialPages" title="A list of all special pages [q]" accesskey="q"><span>Special pages</span></a></li>
{{with .Article}}<li id="t-print" class="mw-list-item"><a href="/w/index.php?title={{.Key}}&amp;printable=yes" rel="alternate" title="Printable version of this page [p]" accesskey="p"><span>Printable version</span></a></li>
<li id="t-permalink" class="mw-list-item"><a href="/w/index.php?title={{.Key}}&amp;oldid={{.Latest.ID}}" title="Permanent link to this revision of this page"><span>Permanent link</span></a></li>
<li id="t-info" class="mw-list-item"><a href="/w/index.php?title={{.Key}}&amp;action=info" title="More information about this page"><span>Page information</span></a></li>
{{end}}</ul></div></nav>
</div>
</div>
<footer id="footer" class="mw-footer" role="contentinfo">
<ul id="footer-info">
{{with .LastMod}}<li id="footer-info-lastmod"> This page was last edited on {{.}}.</li>
{{end}}</ul>
<ul id="footer-places">
<li id="footer-places-privacy"><a href="/wiki/Fenwick_Valley_Wiki:Privacy_policy">Privacy policy</a></li>
<li id="footer-places-about"><a href="/wiki/Fenwick_Valley_Wiki:About">About Fenwick Valley Wiki</a></li>
<li id="footer-places-disclaimers"><a href="/wiki/Fenwick_Valley_Wiki:General_disclaimer">Disclaimers</a></li>
</ul>
<ul id="footer-icons" class="noprint">
<li id="footer-poweredbyico"><a href="https://www.mediawiki.org/"><img src="/w/resources/assets/poweredby_mediawiki_88x31.png" alt="Powered by MediaWiki" width="88" height="31" loading="lazy"/></a></li>
</ul>
</footer>
</body>
</html>
{{end}}
`))
