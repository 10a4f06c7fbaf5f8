package synthweb

import "html/template"

type bylineData struct {
	Site *blog
	P    *blogPost
}

type commentData struct {
	Site   *blog
	C      *blogComment
	PostID int
	Odd    bool
}

// blogTemplates is a classic WordPress theme's markup (Twenty Sixteen).
var blogTemplates = template.Must(template.New("blog").Funcs(template.FuncMap{
	"wpDate": wpDate, "wpTime": wpTime, "iso": iso,
	"byline":  func(s *blog, p *blogPost) bylineData { return bylineData{s, p} },
	"comment": func(s *blog, c *blogComment, post int) commentData { return commentData{s, c, post, c.ID%2 == 1} },
}).Parse(`
{{define "main"}}{{if eq .Kind "single"}}{{template "single" .}}{{else if eq .Kind "page"}}{{template "page" .}}{{else if eq .Kind "calendar"}}{{template "calendar" .}}{{else}}{{template "list" .}}{{end}}{{end}}
{{define "layout"}}<!DOCTYPE html>
<html lang="en-GB" class="no-js">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="profile" href="https://gmpg.org/xfn/11">
<link rel="pingback" href="{{.Site.Base}}/xmlrpc.php">
<title>{{if .Title}}{{.Title}} &#8211; {{end}}Fenwick Valley Birding</title>
<meta name='robots' content='max-image-preview:large' />
<link rel="alternate" type="application/rss+xml" title="Fenwick Valley Birding &raquo; Feed" href="{{.Site.Base}}/feed/" />
<link rel="alternate" type="application/rss+xml" title="Fenwick Valley Birding &raquo; Comments Feed" href="{{.Site.Base}}/comments/feed/" />
{{with .Post}}<link rel="alternate" type="application/rss+xml" title="Fenwick Valley Birding &raquo; {{.Title}} Comments Feed" href="{{.URL}}feed/" />
{{end}}<link rel='stylesheet' id='wp-block-library-css' href='{{.Site.Base}}/wp-includes/css/dist/block-library/style.min.css?ver=6.4.3' media='all' />
<link rel='stylesheet' id='twentysixteen-style-css' href='{{.Site.Base}}/wp-content/themes/twentysixteen/style.css?ver=20231107' media='all' />
<script src="{{.Site.Base}}/wp-includes/js/jquery/jquery.min.js?ver=3.7.1" id="jquery-core-js"></script>
<link rel="https://api.w.org/" href="{{.Site.Base}}/wp-json/" />
<link rel="EditURI" type="application/rsd+xml" title="RSD" href="{{.Site.Base}}/xmlrpc.php?rsd" />
<meta name="generator" content="WordPress 6.4.3" />
{{if .Canonical}}<link rel="canonical" href="{{.Canonical}}" />
{{end}}{{with .Post}}<meta property="og:type" content="article" />
<meta property="og:title" content="{{.Title}}" />
<meta property="article:published_time" content="{{iso .Date}}" />
<meta property="article:modified_time" content="{{iso .Modified}}" />
<meta name="author" content="{{.Author.Name}}" />
{{end}}{{with .Pagination}}{{with .Prev}}<link rel="prev" href="{{.}}" />
{{end}}{{with .Next}}<link rel="next" href="{{.}}" />
{{end}}{{end}}</head>
<body class="{{.BodyClass}} wp-embed-responsive">
<div id="page" class="site">
<div class="site-inner">
<a class="skip-link screen-reader-text" href="#content">Skip to content</a>
<header id="masthead" class="site-header">
<div class="site-header-main">
<div class="site-branding">
<p class="site-title"><a href="{{.Site.Base}}/" rel="home">Fenwick Valley Birding</a></p>
<p class="site-description">Birds, walks and weather in the Fenwick Valley</p>
</div>
<div id="site-header-menu" class="site-header-menu">
<nav id="site-navigation" class="main-navigation" aria-label="Primary Menu">
<div class="menu-main-container"><ul id="menu-main" class="primary-menu">
<li class="menu-item"><a href="{{.Site.Base}}/">Home</a></li>
<li class="menu-item"><a href="{{.Site.Base}}/about/">About</a></li>
<li class="menu-item"><a href="{{.Site.Bases.Forum}}/index.php">Forum</a></li>
<li class="menu-item"><a href="{{.Site.Bases.Wiki}}/wiki/Main_Page">Valley wiki</a></li>
</ul></div>
</nav>
</div>
</div>
</header>
<div id="content" class="site-content">
<div id="primary" class="content-area">
<main id="main" class="site-main">
{{if .Heading}}<header class="page-header"><h1 class="page-title">{{.Heading}}</h1></header>
{{end}}{{template "main" .}}
</main>
</div>
{{template "sidebar" .}}
</div>
<footer id="colophon" class="site-footer">
<div class="site-info">
<span class="site-title"><a href="{{.Site.Base}}/" rel="home">Fenwick Valley Birding</a></span>
<a href="https://wordpress.org/" class="imprint">Proudly powered by WordPress</a>
</div>
</footer>
</div>
</div>
<script src="{{.Site.Base}}/wp-content/themes/twentysixteen/js/functions.js?ver=20230629" id="twentysixteen-script-js"></script>
</body>
</html>
{{end}}

{{define "sidebar"}}<aside id="secondary" class="sidebar widget-area">
<section id="search-2" class="widget widget_search">
<form role="search" method="get" class="search-form" action="{{.Site.Base}}/">
<label><span class="screen-reader-text">Search for:</span><input type="search" class="search-field" placeholder="Search &hellip;" value="" name="s" /></label>
<button type="submit" class="search-submit"><span class="screen-reader-text">Search</span></button>
</form>
</section>
<section id="recent-posts-2" class="widget widget_recent_entries">
<h2 class="widget-title">Recent Posts</h2>
<nav aria-label="Recent Posts"><ul>
{{range .Recent}}<li><a href="{{.URL}}">{{.Title}}</a></li>
{{end}}</ul></nav>
</section>
<section id="recent-comments-2" class="widget widget_recent_comments">
<h2 class="widget-title">Recent Comments</h2>
<nav aria-label="Recent Comments"><ul id="recentcomments">
{{range .Site.Recent}}<li class="recentcomments"><span class="comment-author-link">{{.Author.Name}}</span> on <a href="{{.PostURL}}#comment-{{.ID}}">a post</a></li>
{{end}}</ul></nav>
</section>
<section id="calendar-2" class="widget widget_calendar">
<h2 class="widget-title">Events</h2>
<div class="calendar_wrap"><a href="{{.Site.Base}}/events/month/2024-06/">Walks and talks calendar</a></div>
</section>
<section id="archives-2" class="widget widget_archive">
<h2 class="widget-title">Archives</h2>
<nav aria-label="Archives"><ul>
{{range .Site.Months}}<li><a href="{{.URL}}">{{.Name}}</a></li>
{{end}}</ul></nav>
</section>
<section id="categories-2" class="widget widget_categories">
<h2 class="widget-title">Categories</h2>
<nav aria-label="Categories"><ul>
{{range .Site.Categories}}<li class="cat-item"><a href="{{.URL}}">{{.Name}}</a></li>
{{end}}</ul></nav>
</section>
<section id="tag_cloud-2" class="widget widget_tag_cloud">
<h2 class="widget-title">Tags</h2>
<nav aria-label="Tags"><div class="tagcloud">
{{range .Site.Tags}}<a href="{{.URL}}" class="tag-cloud-link">{{.Name}}</a>
{{end}}</div></nav>
</section>
<section id="meta-2" class="widget widget_meta">
<h2 class="widget-title">Meta</h2>
<nav aria-label="Meta"><ul>
<li><a href="{{.Site.Base}}/wp-login.php">Log in</a></li>
<li><a href="{{.Site.Base}}/feed/">Entries feed</a></li>
<li><a href="{{.Site.Base}}/comments/feed/">Comments feed</a></li>
<li><a href="https://wordpress.org/">WordPress.org</a></li>
</ul></nav>
</section>
</aside>
{{end}}

{{define "byline"}}<footer class="entry-footer">
<span class="byline"><span class="author vcard"><img alt='' src='{{.Site.Base}}/wp-content/uploads/avatars/{{.P.Author.Slug}}-49x49.png' class='avatar avatar-49 photo' height='49' width='49' /><span class="screen-reader-text">Author </span> <a class="url fn n" href="{{.Site.Base}}/author/{{.P.Author.Slug}}/">{{.P.Author.Name}}</a></span></span>
<span class="posted-on"><span class="screen-reader-text">Posted on </span><a href="{{.P.URL}}" rel="bookmark"><time class="entry-date published" datetime="{{iso .P.Date}}">{{wpDate .P.Date}}</time>{{if ne .P.Modified .P.Date}}<time class="updated" datetime="{{iso .P.Modified}}">{{wpDate .P.Modified}}</time>{{end}}</a></span>
<span class="cat-links"><span class="screen-reader-text">Categories </span><a href="{{.P.Category.URL}}" rel="category tag">{{.P.Category.Name}}</a></span>
<span class="tags-links"><span class="screen-reader-text">Tags </span>{{range $i, $t := .P.Tags}}{{if $i}}, {{end}}<a href="{{$t.URL}}" rel="tag">{{$t.Name}}</a>{{end}}</span>
<span class="comments-link"><a href="{{.P.URL}}#comments">{{.P.NComments}} Comments<span class="screen-reader-text"> on {{.P.Title}}</span></a></span>
</footer>
{{end}}

{{define "list"}}{{range .Posts}}<article id="post-{{.ID}}" class="post-{{.ID}} post type-post status-publish format-standard has-post-thumbnail hentry category-{{.Category.Slug}}{{range .Tags}} tag-{{.Slug}}{{end}}">
<header class="entry-header">
<h2 class="entry-title"><a href="{{.URL}}" rel="bookmark">{{.Title}}</a></h2>
</header>
<a class="post-thumbnail" href="{{.URL}}" aria-hidden="true"><img width="1024" height="683" src="{{$.Site.Base}}{{.Image}}" class="attachment-post-thumbnail size-post-thumbnail wp-post-image" alt="{{.Title}}" decoding="async" /></a>
<div class="entry-content">
<p>{{.Excerpt}}</p>
<p><a href="{{.URL}}" class="more-link">Continue reading<span class="screen-reader-text"> &#8220;{{.Title}}&#8221;</span></a></p>
</div>
{{template "byline" (byline $.Site .)}}</article>
{{else}}<section class="no-results not-found"><header class="page-header"><h1 class="page-title">Nothing Found</h1></header>
<div class="page-content"><p>It seems we can&rsquo;t find what you&rsquo;re looking for. Perhaps searching can help.</p></div></section>
{{end}}{{with .Pagination}}<nav class="navigation pagination" aria-label="Posts">
<h2 class="screen-reader-text">Posts navigation</h2>
<div class="nav-links">{{with .Prev}}<a class="prev page-numbers" href="{{.}}">Previous page</a>{{end}}
{{range .Pages}}{{if .Current}}<span aria-current="page" class="page-numbers current"><span class="meta-nav screen-reader-text">Page </span>{{.N}}</span>{{else}}<a class="page-numbers" href="{{.URL}}"><span class="meta-nav screen-reader-text">Page </span>{{.N}}</a>{{end}}
{{end}}{{with .Next}}<a class="next page-numbers" href="{{.}}">Next page</a>{{end}}</div>
</nav>
{{end}}{{end}}

{{define "comment"}}<li id="comment-{{.C.ID}}" class="comment {{if .Odd}}odd alt{{else}}even{{end}} depth-{{.C.Depth}}{{if .C.Children}} parent{{end}}">
<article id="div-comment-{{.C.ID}}" class="comment-body">
<footer class="comment-meta">
<div class="comment-author vcard">
<img alt='' src='{{.Site.Base}}/wp-content/uploads/avatars/{{.C.Author.Slug}}-42x42.png' class='avatar avatar-42 photo' height='42' width='42' loading='lazy' decoding='async'/>
<b class="fn">{{if .C.URL}}<a href="{{.C.URL}}" class="url" rel="ugc external nofollow">{{.C.Author.Name}}</a>{{else}}{{.C.Author.Name}}{{end}}</b> <span class="says">says:</span>
</div>
<div class="comment-metadata"><a href="{{.C.PostURL}}#comment-{{.C.ID}}"><time datetime="{{iso .C.Date}}">{{wpDate .C.Date}} at {{wpTime .C.Date}}</time></a></div>
</footer>
<div class="comment-content"><p>{{.C.Text}}</p></div>
<div class="reply"><a rel="nofollow" class="comment-reply-link" href="{{.C.PostURL}}?replytocom={{.C.ID}}#respond" data-commentid="{{.C.ID}}" data-postid="{{.PostID}}" aria-label="Reply to {{.C.Author.Name}}">Reply</a></div>
</article>
{{if .C.Children}}<ol class="children">
{{range .C.Children}}{{template "comment" (comment $.Site . $.PostID)}}{{end}}</ol>
{{end}}</li>
{{end}}

{{define "single"}}{{with .Post}}<article id="post-{{.ID}}" class="post-{{.ID}} post type-post status-publish format-standard has-post-thumbnail hentry category-{{.Category.Slug}}{{range .Tags}} tag-{{.Slug}}{{end}}">
<header class="entry-header">
<h1 class="entry-title">{{.Title}}</h1>
</header>
<div class="post-thumbnail"><img width="1024" height="683" src="{{$.Site.Base}}{{.Image}}" class="attachment-post-thumbnail size-post-thumbnail wp-post-image" alt="" decoding="async" /></div>
<div class="entry-content">
{{range .Paragraphs}}{{.}}
{{end}}</div>
{{template "byline" (byline $.Site .)}}</article>
<div id="comments" class="comments-area">
{{if .Comments}}<h2 class="comments-title">{{.NComments}} thoughts on &ldquo;{{.Title}}&rdquo;</h2>
<ol class="comment-list">
{{range .Comments}}{{template "comment" (comment $.Site . $.Post.ID)}}{{end}}</ol>
{{end}}<div id="respond" class="comment-respond">
<h2 id="reply-title" class="comment-reply-title">Leave a Reply</h2>
<form action="{{$.Site.Base}}/wp-comments-post.php" method="post" id="commentform" class="comment-form">
<p class="comment-form-comment"><label for="comment">Comment</label> <textarea id="comment" name="comment" cols="45" rows="8" required></textarea></p>
<p class="form-submit"><input name="submit" type="submit" id="submit" class="submit" value="Post Comment" /><input type='hidden' name='comment_post_ID' value='{{.ID}}' id='comment_post_ID' /></p>
</form>
</div>
</div>
<nav class="navigation post-navigation" aria-label="Posts">
<h2 class="screen-reader-text">Post navigation</h2>
<div class="nav-links">{{with .Prev}}<div class="nav-previous"><a href="{{.URL}}" rel="prev"><span class="meta-nav" aria-hidden="true">Previous</span> <span class="post-title">{{.Title}}</span></a></div>{{end}}{{with .Next}}<div class="nav-next"><a href="{{.URL}}" rel="next"><span class="meta-nav" aria-hidden="true">Next</span> <span class="post-title">{{.Title}}</span></a></div>{{end}}</div>
</nav>
{{end}}{{end}}

{{define "page"}}<article id="post-2" class="post-2 page type-page status-publish hentry">
<header class="entry-header"><h1 class="entry-title">{{.Title}}</h1></header>
<div class="entry-content">
{{range .Paragraphs}}{{.}}
{{end}}</div>
</article>
{{end}}

{{define "calendar"}}<div class="tribe-events-calendar-month">
<h2 class="tribe-events-calendar-month__header">{{.Calendar.Name}}</h2>
<table class="tribe-events-calendar">
{{range .Calendar.Weeks}}<tr>{{range .}}<td>{{if .Day}}<span class="tribe-events-calendar-month__day-date">{{.Day}}</span>{{with .Event}}<div class="tribe-events-calendar-month__calendar-event"><h3>{{.}}</h3></div>{{end}}{{end}}</td>{{end}}</tr>
{{end}}</table>
<nav class="tribe-events-c-top-bar__nav">
<a href="{{.Calendar.Prev}}" class="tribe-events-c-top-bar__nav-link tribe-events-c-top-bar__nav-link--prev" rel="prev">&laquo; {{.Calendar.PrevName}}</a>
<a href="{{.Calendar.Next}}" class="tribe-events-c-top-bar__nav-link tribe-events-c-top-bar__nav-link--next" rel="next">{{.Calendar.NextName}} &raquo;</a>
</nav>
</div>
{{end}}
`))
