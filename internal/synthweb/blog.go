package synthweb

import (
	"fmt"
	"html"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// NewBlog returns the demo blog served at b.Blog: WordPress 6 markup with
// a classic theme, 48 posts by three authors with threaded comments, paged
// home, category, tag, author and month archives (duplicate views of the
// posts), RSS feeds, a login page, a robots.txt with wildcard rules, and an
// events calendar whose month pages link to the next and previous month
// forever (a calendar trap).
func NewBlog(b Bases) http.Handler { return newBlog(b) }

// blogPage is what the blog's layout template renders.
type blogPage struct {
	Site       *blog
	Kind       string // list, single, page or calendar
	Title      string
	Heading    string
	BodyClass  string
	Canonical  string
	Posts      []*blogPost
	Post       *blogPost
	Paragraphs []template.HTML
	Pagination *pagination
	Calendar   *calendar
	Recent     []*blogPost
}

type pagination struct {
	Prev, Next string
	Pages      []pageLink
}

type pageLink struct {
	N       int
	URL     string
	Current bool
}

// Base is the blog's root URL without the final slash.
func (bl *blog) Base() string { return bl.base }

// Bases are the three demo sites' roots.
func (bl *blog) Bases() Bases { return bl.bases }

func (bl *blog) Months() []monthArchive { return bl.months }
func (bl *blog) Categories() []term     { return bl.categories }
func (bl *blog) Tags() []term           { return bl.tags }
func (bl *blog) Recent() []*blogComment { return bl.recent }
func (bl *blog) page(kind string) *blogPage {
	return &blogPage{Site: bl, Kind: kind, Recent: bl.posts[:5]}
}

func (bl *blog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !readOnly(w, r) {
		return
	}
	p := r.URL.Path
	switch {
	case p == "/robots.txt":
		writeText(w, "text/plain; charset=utf-8", "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\nDisallow: /wp-login.php\nDisallow: /*?replytocom=\nDisallow: /*?s=\n")
		return
	case strings.HasPrefix(p, "/wp-content/") || strings.HasPrefix(p, "/wp-includes/"):
		serveAsset(w, r)
		return
	case p == "/wp-login.php":
		pg := bl.page("page")
		pg.Title, pg.BodyClass = "Log In", "login"
		pg.Paragraphs = []template.HTML{`<form name="loginform" id="loginform" action="` + template.HTML(bl.base) + `/wp-login.php" method="post"><p><label for="user_login">Username or Email Address</label><input type="text" name="log" id="user_login" /></p><p><label for="user_pass">Password</label><input type="password" name="pwd" id="user_pass" /></p><p class="submit"><input type="submit" name="wp-submit" id="wp-submit" value="Log In" /></p></form><p id="nav"><a href="` + template.HTML(bl.base) + `/wp-login.php?action=lostpassword">Lost your password?</a></p>`}
		bl.render(w, pg, http.StatusOK)
		return
	case strings.HasPrefix(p, "/wp-admin"):
		http.Redirect(w, r, bl.base+"/wp-login.php?redirect_to="+strings.ReplaceAll(bl.base+p, ":", "%3A")+"&reauth=1", http.StatusFound)
		return
	case p == "/xmlrpc.php":
		writeStatus(w, http.StatusMethodNotAllowed, "text/plain; charset=UTF-8", "XML-RPC server accepts POST requests only.")
		return
	case p == "/wp-json/" || p == "/wp-json":
		writeText(w, "application/json; charset=UTF-8", fmt.Sprintf(`{"name":"Fenwick Valley Birding","description":"Birds, walks and weather in the Fenwick Valley","url":%q,"home":%q,"namespaces":["oembed/1.0","wp/v2"]}`, bl.base, bl.base))
		return
	case p == "/feed/":
		bl.feed(w, "Fenwick Valley Birding", bl.base+"/feed/", bl.posts[:10])
		return
	case p == "/comments/feed/":
		bl.commentFeed(w, "Comments for Fenwick Valley Birding", bl.base+"/comments/feed/", bl.recent)
		return
	case p == "/" && r.URL.RawQuery == "":
		bl.list(w, bl.page("list"), bl.posts, 1, bl.base+"/", "home blog hfeed", "")
		return
	case p == "/":
		bl.query(w, r)
		return
	case !strings.HasSuffix(p, "/"):
		// WordPress's canonical redirect adds the final slash.
		http.Redirect(w, r, bl.base+p+"/", http.StatusMovedPermanently)
		return
	}
	seg := strings.Split(strings.Trim(p, "/"), "/")
	// A trailing /page/N/ pages any list.
	n := 1
	if k := len(seg); k >= 2 && seg[k-2] == "page" {
		v, err := strconv.Atoi(seg[k-1])
		if err != nil || v < 2 {
			bl.notFound(w)
			return
		}
		n, seg = v, seg[:k-2]
	}
	root := bl.base + "/" + strings.Join(seg, "/") + "/"
	switch {
	case len(seg) == 0 || len(seg) == 1 && seg[0] == "":
		bl.list(w, bl.page("list"), bl.posts, n, bl.base+"/", fmt.Sprintf("home blog paged paged-%d hfeed", n), "")
	case len(seg) == 2 && seg[0] == "category":
		if t, ok := findTerm(bl.categories, seg[1]); ok {
			bl.list(w, bl.page("list"), bl.filter(func(p *blogPost) bool { return p.Category.Slug == t.Slug }), n, root, "archive category category-"+t.Slug+" hfeed", "Category: "+t.Name)
			return
		}
		bl.notFound(w)
	case len(seg) == 2 && seg[0] == "tag":
		if t, ok := findTerm(bl.tags, seg[1]); ok {
			bl.list(w, bl.page("list"), bl.filter(func(p *blogPost) bool { return hasTerm(p.Tags, t.Slug) }), n, root, "archive tag tag-"+t.Slug+" hfeed", "Tag: "+t.Name)
			return
		}
		bl.notFound(w)
	case len(seg) == 2 && seg[0] == "author":
		if t, ok := findTerm(bl.authors, seg[1]); ok {
			bl.list(w, bl.page("list"), bl.filter(func(p *blogPost) bool { return p.Author.Slug == t.Slug }), n, root, "archive author author-"+t.Slug+" hfeed", "Author: "+t.Name)
			return
		}
		bl.notFound(w)
	case len(seg) == 2 && isNumber(seg[0]) && isNumber(seg[1]):
		y, _ := strconv.Atoi(seg[0])
		m, _ := strconv.Atoi(seg[1])
		posts := bl.filter(func(p *blogPost) bool { return p.Date.Year() == y && int(p.Date.Month()) == m })
		if len(posts) == 0 {
			bl.notFound(w)
			return
		}
		bl.list(w, bl.page("list"), posts, n, root, "archive date hfeed", "Month: "+time.Month(m).String()+" "+seg[0])
	case (len(seg) == 4 || len(seg) == 5 && seg[4] == "feed") && n == 1:
		post := bl.bySlug[seg[3]]
		if post == nil || !strings.HasPrefix(post.URL, bl.base+"/"+strings.Join(seg[:4], "/")+"/") {
			bl.notFound(w)
			return
		}
		if len(seg) == 5 {
			bl.commentFeed(w, "Comments on: "+post.Title, post.URL+"feed/", flatten(post.Comments))
			return
		}
		pg := bl.page("single")
		pg.Post, pg.Title, pg.Canonical = post, post.Title, post.URL
		pg.BodyClass = fmt.Sprintf("post-template-default single single-post postid-%d single-format-standard", post.ID)
		w.Header().Set("Link", fmt.Sprintf(`<%s/wp-json/>; rel="https://api.w.org/", <%s/?p=%d>; rel=shortlink`, bl.base, bl.base, post.ID))
		w.Header().Set("Last-Modified", post.Modified.Format(http.TimeFormat))
		bl.render(w, pg, http.StatusOK)
	case len(seg) == 1 && seg[0] == "about" && n == 1:
		pg := bl.page("page")
		pg.Title, pg.BodyClass, pg.Canonical = "About", "page-template-default page page-id-2", bl.base+"/about/"
		g := textGen{rng("blog", "about")}
		pg.Paragraphs = []template.HTML{
			template.HTML("<p>This blog is written by " + html.EscapeString(bl.authors[0].Name+", "+bl.authors[1].Name+" and "+bl.authors[2].Name) + ", three birders of the Fenwick Valley.</p>"),
			template.HTML("<p>" + html.EscapeString(g.paragraph(4)) + "</p>"),
		}
		bl.render(w, pg, http.StatusOK)
	case len(seg) == 3 && seg[0] == "events" && seg[1] == "month" && n == 1:
		t, err := time.Parse("2006-01", seg[2])
		if err != nil {
			bl.notFound(w)
			return
		}
		pg := bl.page("calendar")
		pg.Calendar = newCalendar(bl.base, t)
		pg.Title, pg.BodyClass, pg.Heading = "Events for "+pg.Calendar.Name, "archive post-type-archive post-type-archive-tribe_events events-month", "Events for "+pg.Calendar.Name
		bl.render(w, pg, http.StatusOK)
	default:
		bl.notFound(w)
	}
}

// query serves the query-string forms of the home URL: ?p=ID (a
// shortlink, redirected to the post) and ?s=TERM (search results); the
// comment-reply links carry ?replytocom= on a post URL instead.
func (bl *blog) query(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if id := q.Get("p"); id != "" {
		for _, p := range bl.posts {
			if strconv.Itoa(p.ID) == id {
				http.Redirect(w, r, p.URL, http.StatusMovedPermanently)
				return
			}
		}
		bl.notFound(w)
		return
	}
	if s, ok := q["s"]; ok {
		word := strings.ToLower(strings.Join(s, " "))
		posts := bl.filter(func(p *blogPost) bool { return strings.Contains(strings.ToLower(p.Title), word) })
		bl.list(w, bl.page("list"), posts, 1, "", "search search-results hfeed", "Search Results for: "+strings.Join(s, " "))
		return
	}
	bl.list(w, bl.page("list"), bl.posts, 1, bl.base+"/", "home blog hfeed", "")
}

// list renders page n of posts, whose first page is at root.
func (bl *blog) list(w http.ResponseWriter, pg *blogPage, posts []*blogPost, n int, root, class, heading string) {
	pages := (len(posts) + blogPostsPerPage - 1) / blogPostsPerPage
	if n > max(pages, 1) {
		bl.notFound(w)
		return
	}
	pg.BodyClass, pg.Heading, pg.Title = class, heading, heading
	if n > 1 {
		pg.Title = strings.TrimSpace(heading + fmt.Sprintf(" Page %d", n))
	}
	lo, hi := (n-1)*blogPostsPerPage, min(n*blogPostsPerPage, len(posts))
	pg.Posts = posts[lo:hi]
	if root != "" {
		pg.Canonical = pagedURL(root, n)
		if pages > 1 {
			pg.Pagination = paginate(n, pages, func(k int) string { return pagedURL(root, k) })
		}
	}
	bl.render(w, pg, http.StatusOK)
}

func pagedURL(root string, n int) string {
	if n == 1 {
		return root
	}
	return fmt.Sprintf("%spage/%d/", root, n)
}

// paginate lists every page of a list of the given size.
func paginate(n, pages int, url func(int) string) *pagination {
	p := &pagination{}
	if n > 1 {
		p.Prev = url(n - 1)
	}
	if n < pages {
		p.Next = url(n + 1)
	}
	for k := 1; k <= pages; k++ {
		p.Pages = append(p.Pages, pageLink{N: k, URL: url(k), Current: k == n})
	}
	return p
}

func (bl *blog) notFound(w http.ResponseWriter) {
	pg := bl.page("list")
	pg.Title, pg.BodyClass, pg.Heading = "Page not found", "error404 hfeed", "Oops! That page can&rsquo;t be found."
	bl.render(w, pg, http.StatusNotFound)
}

func (bl *blog) render(w http.ResponseWriter, pg *blogPage, status int) {
	if w.Header().Get("Link") == "" {
		w.Header().Set("Link", fmt.Sprintf(`<%s/wp-json/>; rel="https://api.w.org/"`, bl.base))
	}
	w.Header().Set("X-Pingback", bl.base+"/xmlrpc.php")
	renderTemplate(w, blogTemplates, "layout", pg, status)
}

func flatten(cs []*blogComment) []*blogComment {
	var out []*blogComment
	for _, c := range cs {
		out = append(out, c)
		out = append(out, flatten(c.Children)...)
	}
	return out
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && s != ""
}
