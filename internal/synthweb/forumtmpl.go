package synthweb

import "html/template"

// forumTemplates is phpBB 3.3's prosilver markup.
var forumTemplates = template.Must(template.New("forum").Funcs(template.FuncMap{
	"date": phpbbDate, "iso": iso,
	"odd": func(i int) bool { return i%2 == 1 }, "inc": func(i int) int { return i + 1 },
}).Parse(`
{{define "layout"}}<!DOCTYPE html>
<html dir="ltr" lang="en-gb">
<head>
<meta charset="utf-8" />
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>{{if .Title}}{{.Title}} - {{end}}Fenwick Valley Naturalists</title>
{{with .Canonical}}<link rel="canonical" href="{{.}}">
{{end}}<link href="./assets/css/font-awesome.min.css?assets_version=12" rel="stylesheet">
<link href="./styles/prosilver/theme/stylesheet.css?assets_version=12" rel="stylesheet">
<link href="./styles/prosilver/theme/en/stylesheet.css?assets_version=12" rel="stylesheet">
</head>
<body id="phpbb" class="nojs notouch section-{{.Section}} ltr ">
<div id="wrap" class="wrap">
<a id="top" class="top-anchor" accesskey="t"></a>
<div id="page-header">
<div class="headerbar" role="banner">
<div class="inner">
<div id="site-description" class="site-description">
<a id="logo" class="logo" href="{{.U "index.php"}}" title="Board index"><span class="site_logo"></span></a>
<h1>Fenwick Valley Naturalists</h1>
<p>Birds, plants and people of the Fenwick Valley</p>
</div>
<div id="search-box" class="search-box search-header" role="search">
<form action="{{.U "search.php"}}" method="get" id="search">
<fieldset><input name="keywords" id="keywords" type="search" maxlength="128" title="Search for keywords" class="inputbox search tiny" size="20" value="" placeholder="Search…" />
<button class="button button-search" type="submit" title="Search">Search</button>
<a href="{{.U "search.php"}}" class="button button-search-end" title="Advanced search">Advanced search</a>
</fieldset>
</form>
</div>
</div>
</div>
<div class="navbar" role="navigation">
<div class="inner">
<ul id="nav-main" class="nav-main linklist" role="menubar">
<li><a href="{{.U "faq.php"}}" rel="help" title="Frequently Asked Questions" role="menuitem">FAQ</a></li>
<li><a href="{{.U "memberlist.php"}}" role="menuitem">Members</a></li>
<li class="rightside"><a href="{{.U "ucp.php?mode=login&redirect=index.php"}}" title="Login" accesskey="x" role="menuitem">Login</a></li>
<li class="rightside"><a href="{{.U "ucp.php?mode=register"}}" role="menuitem">Register</a></li>
</ul>
<ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks" role="menubar">
<li class="breadcrumbs" itemscope itemtype="https://schema.org/BreadcrumbList">
<span class="crumb"><a href="{{.Bases.Blog}}/" data-navbar-reference="home">Fenwick Valley Birding</a></span>
<span class="crumb"><a href="{{.U "index.php"}}" accesskey="h" data-navbar-reference="index">Board index</a></span>
{{with .Forum}}<span class="crumb"><a href="{{$.U (printf "viewforum.php?f=%d" .ID)}}">{{.Name}}</a></span>{{end}}
</li>
</ul>
</div>
</div>
</div>
<div id="page-body" class="page-body" role="main">
{{template "main" .}}
</div>
<div id="page-footer" class="page-footer" role="contentinfo">
<div class="copyright">
<p class="footer-row"><span class="footer-copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>&reg; Forum Software &copy; phpBB Limited</span></p>
<p class="footer-row" role="menu"><a class="footer-link" href="{{.U "ucp.php?mode=privacy"}}" title="Privacy" role="menuitem"><span class="footer-link-text">Privacy</span></a> | <a class="footer-link" href="{{.U "ucp.php?mode=terms"}}" title="Terms" role="menuitem"><span class="footer-link-text">Terms</span></a></p>
</div>
</div>
</div>
<script src="./assets/javascript/jquery-3.6.0.min.js?assets_version=12"></script>
<script src="./assets/javascript/core.js?assets_version=12"></script>
</body>
</html>
{{end}}

{{define "main"}}{{if eq .Section "index"}}{{template "index" .}}{{else if eq .Section "viewforum"}}{{template "viewforum" .}}{{else if eq .Section "viewtopic"}}{{template "viewtopic" .}}{{else if eq .Section "memberlist"}}{{template "memberlist" .}}{{else}}{{template "message" .}}{{end}}{{end}}

{{define "user"}}<a href="{{.P.U (printf "memberlist.php?mode=viewprofile&u=%d" .M.ID)}}" class="username">{{.M.Name}}</a>{{end}}

{{define "index"}}<div class="forabg">
<div class="inner">
<ul class="topiclist">
<li class="header"><dl class="row-item"><dt><div class="list-inner"><a href="{{.U "viewforum.php?f=1"}}">Fenwick Valley</a></div></dt><dd class="topics">Topics</dd><dd class="posts">Posts</dd><dd class="lastpost"><span>Last post</span></dd></dl></li>
</ul>
<ul class="topiclist forums">
{{range .Forums}}<li class="row">
<dl class="row-item forum_read">
<dt title="No unread posts"><div class="list-inner"><a href="{{$.U (printf "viewforum.php?f=%d" .ID)}}" class="forumtitle">{{.Name}}</a><br />{{.Desc}}</div></dt>
<dd class="topics">{{len .Topics}} <dfn>Topics</dfn></dd>
<dd class="posts">{{.Posts}} <dfn>Posts</dfn></dd>
<dd class="lastpost"><span>{{with .Last}}<dfn>Last post </dfn>by {{template "user" ($.User .Author)}} <a href="{{$.U (printf "viewtopic.php?p=%d#p%d" .ID .ID)}}" title="Go to last post"><i class="icon fa-external-link-square fa-fw icon-lightgray icon-md" aria-hidden="true"></i><span class="sr-only">View the latest post</span></a><br /><time datetime="{{iso .Date}}">{{date .Date}}</time>{{end}}</span></dd>
</dl>
</li>
{{end}}</ul>
</div>
</div>
<div class="stat-block statistics"><h3>Statistics</h3><p>Total posts <strong>{{.TotalPosts}}</strong> &bull; Total topics <strong>{{len .Topics}}</strong> &bull; Total members <strong>{{len .Members}}</strong></p></div>
{{end}}

{{define "pagination"}}{{with .Pagination}}<div class="pagination">
{{$.Count}}
<ul>
{{with .Prev}}<li class="arrow previous"><a class="button button-icon-only" href="{{$.U .}}" rel="prev" role="button"><i class="icon fa-chevron-left fa-fw" aria-hidden="true"></i><span class="sr-only">Previous</span></a></li>
{{end}}{{range .Pages}}{{if .Current}}<li class="active"><span>{{.N}}</span></li>{{else}}<li><a class="button" href="{{$.U .URL}}" role="button">{{.N}}</a></li>{{end}}
{{end}}{{with .Next}}<li class="arrow next"><a class="button button-icon-only" href="{{$.U .}}" rel="next" role="button"><i class="icon fa-chevron-right fa-fw" aria-hidden="true"></i><span class="sr-only">Next</span></a></li>
{{end}}</ul>
</div>
{{end}}{{end}}

{{define "viewforum"}}<h2 class="forum-title"><a href="{{.U (printf "viewforum.php?f=%d" .Forum.ID)}}">{{.Forum.Name}}</a></h2>
<div><p>{{.Forum.Desc}}</p></div>
<div class="action-bar bar-top">
<a href="{{.U (printf "posting.php?mode=post&f=%d" .Forum.ID)}}" class="button" title="Post a new topic"><span>New Topic</span> <i class="icon fa-pencil fa-fw" aria-hidden="true"></i></a>
{{template "pagination" .}}</div>
<div class="forumbg">
<div class="inner">
<ul class="topiclist">
<li class="header"><dl class="row-item"><dt><div class="list-inner">Topics</div></dt><dd class="posts">Replies</dd><dd class="views">Views</dd><dd class="lastpost"><span>Last post</span></dd></dl></li>
</ul>
<ul class="topiclist topics">
{{range $i, $t := .Topics}}<li class="row {{if $i | odd}}bg1{{else}}bg2{{end}}">
<dl class="row-item topic_read">
<dt title="No unread posts"><div class="list-inner">
<a href="{{$.U (printf "viewtopic.php?t=%d" .ID)}}" class="topictitle">{{.Title}}</a><br />
<div class="responsive-hide left-box">by {{template "user" ($.User (index .Posts 0).Author)}} &raquo; <time datetime="{{iso (index .Posts 0).Date}}">{{date (index .Posts 0).Date}}</time></div>
{{if gt (len .Pages) 1}}<div class="pagination"><span><i class="icon fa-clone fa-fw" aria-hidden="true"></i></span><ul>
{{range $k, $s := .Pages}}<li><a class="button" href="{{if $s}}{{$.U (printf "viewtopic.php?t=%d&start=%d" $t.ID $s)}}{{else}}{{$.U (printf "viewtopic.php?t=%d" $t.ID)}}{{end}}">{{inc $k}}</a></li>
{{end}}</ul></div>
{{end}}</div></dt>
<dd class="posts">{{.Replies}} <dfn>Replies</dfn></dd>
<dd class="views">{{.Views}} <dfn>Views</dfn></dd>
<dd class="lastpost"><span><dfn>Last post </dfn>by {{template "user" ($.User .Last.Author)}} <a href="{{$.U (printf "viewtopic.php?p=%d#p%d" .Last.ID .Last.ID)}}" title="Go to last post"><i class="icon fa-external-link-square fa-fw icon-lightgray icon-md" aria-hidden="true"></i></a><br /><time datetime="{{iso .Last.Date}}">{{date .Last.Date}}</time></span></dd>
</dl>
</li>
{{end}}</ul>
</div>
</div>
<div class="action-bar bar-bottom">{{template "pagination" .}}</div>
{{end}}

{{define "viewtopic"}}<h2 class="topic-title"><a href="{{.U (printf "viewtopic.php?t=%d" .Topic.ID)}}">{{.Topic.Title}}</a></h2>
<div class="action-bar bar-top">
<a href="{{.U (printf "posting.php?mode=reply&t=%d" .Topic.ID)}}" class="button" title="Post a reply"><span>Post Reply</span></a>
<div class="dropdown-container dropdown-button-control topic-tools"><ul class="dropdown-contents">
<li><a href="{{.U (printf "viewtopic.php?t=%d&view=print" .Topic.ID)}}" title="Print view" accesskey="p"><i class="icon fa-print fa-fw" aria-hidden="true"></i><span>Print view</span></a></li>
</ul></div>
{{template "pagination" .}}</div>
{{range $i, $p := .Posts}}<div id="p{{.ID}}" class="post has-profile {{if $i | odd}}bg1{{else}}bg2{{end}}">
<div class="inner">
<dl class="postprofile" id="profile{{.ID}}">
<dt class="has-profile-rank no-avatar"><div class="avatar-container"></div>{{template "user" ($.User .Author)}}</dt>
<dd class="profile-rank">{{.Author.Rank}}</dd>
<dd class="profile-posts"><strong>Posts:</strong> <a href="{{$.U (printf "search.php?author_id=%d&sr=posts" .Author.ID)}}">{{.Author.Posts}}</a></dd>
<dd class="profile-joined"><strong>Joined:</strong> {{date .Author.Joined}}</dd>
</dl>
<div class="postbody">
<div id="post_content{{.ID}}">
<h3{{if not $i}} class="first"{{end}}><a href="#p{{.ID}}">{{.Title}}</a></h3>
<ul class="post-buttons">
<li><a href="{{$.U (printf "posting.php?mode=quote&p=%d" .ID)}}" title="Reply with quote" class="button button-icon-only"><i class="icon fa-quote-left fa-fw" aria-hidden="true"></i><span>Quote</span></a></li>
</ul>
<p class="author">
<a class="unread" href="{{$.U (printf "viewtopic.php?p=%d#p%d" .ID .ID)}}" title="Post"><i class="icon fa-file fa-fw icon-lightgray icon-md" aria-hidden="true"></i><span class="sr-only">Post</span></a>
<span class="responsive-hide">by <strong>{{template "user" ($.User .Author)}}</strong> &raquo; </span><time datetime="{{iso .Date}}">{{date .Date}}</time>
</p>
<div class="content">{{with .Quote}}<blockquote><div><cite>{{template "user" ($.User .Author)}} wrote: <a href="{{$.U (printf "viewtopic.php?p=%d#p%d" .ID .ID)}}" data-post-id="{{.ID}}" onclick="if(document.getElementById(hash.substr(1)))href=hash">&uarr;</a><span class="responsive-hide">{{date .Date}}</span></cite>{{.Content}}</div></blockquote>
{{end}}{{.Content}}</div>
</div>
</div>
<div class="back2top"><a href="#top" class="top" title="Top"><i class="icon fa-chevron-circle-up fa-fw icon-gray" aria-hidden="true"></i><span class="sr-only">Top</span></a></div>
</div>
</div>
<hr class="divider" />
{{end}}<div class="action-bar bar-bottom">{{template "pagination" .}}</div>
<div class="action-bar actions-jump"><p class="jumpbox-return"><a href="{{.U (printf "viewforum.php?f=%d" .Forum.ID)}}" class="left-box arrow-left" accesskey="r">Return to &ldquo;{{.Forum.Name}}&rdquo;</a></p></div>
{{end}}

{{define "memberlist"}}{{with .Member}}<h2 class="memberlist-title">Viewing profile - {{.Name}}</h2>
<div class="panel bg1">
<div class="inner">
<dl class="left-box details profile-details">
<dt>Username:</dt><dd><span>{{.Name}}</span></dd>
<dt>Rank:</dt><dd>{{.Rank}}</dd>
{{with .Site}}<dt>Website:</dt><dd><a href="{{.}}" class="postlink">{{.}}</a></dd>{{end}}
</dl>
</div>
</div>
<div class="panel bg2">
<div class="inner">
<h3>User statistics</h3>
<dl class="details">
<dt>Joined:</dt><dd>{{date .Joined}}</dd>
<dt>Total posts:</dt><dd>{{.Posts}} | <strong><a href="{{$.U (printf "search.php?author_id=%d&sr=posts" .ID)}}">Search user’s posts</a></strong></dd>
</dl>
</div>
</div>
{{else}}<h2 class="solo">Members</h2>
<div class="forumbg forumbg-table"><div class="inner">
<table class="table1 memberlist" id="memberlist">
<thead><tr><th class="name">Username</th><th class="posts">Posts</th><th class="joined">Joined</th></tr></thead>
<tbody>
{{range .Members}}<tr class="bg1"><td>{{template "user" ($.User .)}}<br />{{.Rank}}</td><td class="posts">{{.Posts}}</td><td>{{date .Joined}}</td></tr>
{{end}}</tbody>
</table>
</div></div>
{{end}}{{end}}

{{define "message"}}<div class="panel" id="message">
<div class="inner">
<h2 class="message-title">{{.Heading}}</h2>
<p>{{.Message}}</p>
</div>
</div>
{{end}}

{{define "print"}}<!DOCTYPE html>
<html dir="ltr" lang="en-gb">
<head>
<meta charset="utf-8" />
<meta name="robots" content="noindex" />
<title>Fenwick Valley Naturalists &bull; {{.Topic.Title}}</title>
<link href="./styles/prosilver/theme/print.css" rel="stylesheet">
</head>
<body id="phpbb">
<div id="wrap" class="wrap">
<div id="page-header"><h1>Fenwick Valley Naturalists</h1><p><a href="{{.Base}}/index.php">{{.Base}}/index.php</a></p><h2>{{.Topic.Title}}</h2><p><a href="{{.Base}}/viewtopic.php?t={{.Topic.ID}}">{{.Base}}/viewtopic.php?t={{.Topic.ID}}</a></p></div>
<div id="page-body" class="page-body">
{{range .Topic.Posts}}<div class="post">
<h3>{{.Title}}</h3>
<div class="date"><strong>Posted:</strong> {{date .Date}}</div>
<div class="author"><strong>Posted by:</strong> {{.Author.Name}}</div>
<div class="content">{{.Content}}</div>
</div>
<hr />
{{end}}</div>
<div id="page-footer" class="page-footer"><div class="copyright">Powered by phpBB&reg; Forum Software &copy; phpBB Limited<br />https://www.phpbb.com/</div></div>
</div>
</body>
</html>
{{end}}
`))
