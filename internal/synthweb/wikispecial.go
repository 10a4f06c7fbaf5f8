package synthweb

import (
	"cmp"
	"fmt"
	"html"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// special serves Special:NAME[/ARG].
func (wk *wiki) special(w http.ResponseWriter, r *http.Request, rest string) {
	name, arg, _ := strings.Cut(rest, "/")
	key := "Special:" + name
	pg := wk.newPage(key, key, -1, "view")
	var b strings.Builder
	switch name {
	case "Random":
		// Random per URL, so that the site stays deterministic.
		a := wk.order[1+int(rng(r.URL.RequestURI()).IntN(len(wk.order)-1))]
		http.Redirect(w, r, wk.base+"/wiki/"+a.Key, http.StatusFound)
		return
	case "RecentChanges":
		wk.recentChanges(&b, r.URL.Query())
		pg.Title, pg.Heading = "Recent changes", "Recent changes"
	case "AllPages":
		pg.Title, pg.Heading = "All pages", "All pages"
		b.WriteString(`<div class="mw-allpages-body"><ul class="mw-allpages-chunk">`)
		for _, a := range wk.byTitle() {
			fmt.Fprintf(&b, `<li><a href="/wiki/%s" title="%s">%s</a></li>`, a.Key, html.EscapeString(a.Title), html.EscapeString(a.Title))
		}
		b.WriteString(`</ul></div>`)
	case "SpecialPages":
		pg.Title, pg.Heading = "Special pages", "Special pages"
		b.WriteString(`<div class="mw-specialpages-list"><ul>`)
		for _, s := range []string{"AllPages", "Categories", "RecentChanges", "UserLogin", "CreateAccount", "Search"} {
			fmt.Fprintf(&b, `<li><a href="/wiki/Special:%s" title="Special:%s">%s</a></li>`, s, s, s)
		}
		b.WriteString(`</ul></div>`)
	case "Categories":
		pg.Title, pg.Heading = "Categories", "Categories"
		b.WriteString(`<ul>`)
		for _, c := range wk.catOrder {
			fmt.Fprintf(&b, `<li><a href="/wiki/Category:%s" title="Category:%s">%s</a> (%d members)</li>`, wikiKey(c), html.EscapeString(c), html.EscapeString(c), len(wk.cats[c]))
		}
		b.WriteString(`</ul>`)
	case "Contributions":
		if !slices.Contains(wk.editors, arg) {
			wk.missing(w, key+"/"+arg)
			return
		}
		pg.Title, pg.Heading = "User contributions for "+arg, template.HTML("User contributions for "+html.EscapeString(arg))
		b.WriteString(`<ul class="mw-contributions-list">`)
		for _, rev := range wk.byTime() {
			if rev.User == arg {
				fmt.Fprintf(&b, `<li data-mw-revid="%d"><a href="/w/index.php?title=%s&amp;oldid=%d" class="mw-changeslist-date">%s</a> <span class="mw-changeslist-links"><span><a href="/w/index.php?title=%s&amp;diff=prev&amp;oldid=%d">diff</a></span><span><a href="/w/index.php?title=%s&amp;action=history">hist</a></span></span> <bdi><a href="/wiki/%s" class="mw-contributions-title">%s</a></bdi> <span class="comment">(%s)</span></li>`,
					rev.ID, url.QueryEscape(rev.Article.Key), rev.ID, mwDate(rev.Time), url.QueryEscape(rev.Article.Key), rev.ID, url.QueryEscape(rev.Article.Key), rev.Article.Key, html.EscapeString(rev.Article.Title), html.EscapeString(rev.Comment))
			}
		}
		b.WriteString(`</ul>`)
	case "WhatLinksHere":
		target := wk.articles[arg]
		if target == nil {
			wk.missing(w, key+"/"+arg)
			return
		}
		pg.Title, pg.Heading = "Pages that link to \""+target.Title+"\"", template.HTML("Pages that link to &quot;"+html.EscapeString(target.Title)+"&quot;")
		b.WriteString(`<ul id="mw-whatlinkshere-list">`)
		needle := `href="/wiki/` + url.PathEscape(target.Key) + `"`
		for _, a := range wk.byTitle() {
			for _, bl := range a.Blocks {
				if strings.Contains(string(bl), needle) {
					fmt.Fprintf(&b, `<li><a href="/wiki/%s" title="%s">%s</a></li>`, a.Key, html.EscapeString(a.Title), html.EscapeString(a.Title))
					break
				}
			}
		}
		b.WriteString(`</ul>`)
	case "UserLogin", "CreateAccount":
		pg.Title, pg.Heading = "Log in", "Log in"
		b.WriteString(`<form name="userlogin" class="mw-htmlform" method="post" action="/w/index.php?title=Special:UserLogin"><input name="wpName" id="wpName1"/><input type="password" name="wpPassword" id="wpPassword1"/><button type="submit" name="wploginattempt" id="wpLoginAttempt">Log in</button></form>`)
	case "Search", "Log":
		pg.Title, pg.Heading = name, template.HTML(name)
		b.WriteString(`<p>No results.</p>`)
	default:
		pg.Title, pg.Heading = "No such special page", "No such special page"
		b.WriteString(`<p>You have requested an invalid special page.</p>`)
		pg.Content = template.HTML(b.String())
		wk.render(w, pg, http.StatusNotFound)
		return
	}
	pg.Content = template.HTML(b.String())
	wk.render(w, pg, http.StatusOK)
}

// recentChanges lists the latest edits; its option links (limit × days ×
// hide minor edits) make 40 URLs for one list, as on a real wiki.
func (wk *wiki) recentChanges(b *strings.Builder, q url.Values) {
	limit, days := 50, 30
	if n, err := strconv.Atoi(q.Get("limit")); err == nil && n > 0 {
		limit = min(n, 500)
	}
	if n, err := strconv.Atoi(q.Get("days")); err == nil && n > 0 {
		days = n
	}
	hideMinor := q.Get("hideminor") == "1"
	opt := func(l, d int, hm bool) string {
		h := 0
		if hm {
			h = 1
		}
		return fmt.Sprintf("/w/index.php?title=Special:RecentChanges&amp;hideminor=%d&amp;limit=%d&amp;days=%d", h, l, d)
	}
	b.WriteString(`<div class="rcoptions">Show last `)
	for i, l := range []int{50, 100, 250, 500} {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(b, `<a href="%s">%d</a>`, opt(l, days, hideMinor), l)
	}
	b.WriteString(` changes in last `)
	for i, d := range []int{1, 3, 7, 14, 30} {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(b, `<a href="%s">%d</a>`, opt(limit, d, hideMinor), d)
	}
	fmt.Fprintf(b, ` days<br/><a href="%s">%s minor edits</a></div><ul class="special">`, opt(limit, days, !hideMinor), map[bool]string{true: "Show", false: "Hide"}[hideMinor])
	n := 0
	for _, rev := range slices.Backward(wk.byTime()) {
		if n == limit {
			break
		}
		if hideMinor && rev.Minor {
			continue
		}
		n++
		k := url.QueryEscape(rev.Article.Key)
		diff := "diff"
		if rev.Parent != 0 {
			diff = fmt.Sprintf(`<a href="/w/index.php?title=%s&amp;diff=%d&amp;oldid=%d">diff</a>`, k, rev.ID, rev.Parent)
		}
		fmt.Fprintf(b, `<li class="mw-line-even mw-changeslist-line"><span class="mw-changeslist-links"><span>%s</span><span><a href="/w/index.php?title=%s&amp;action=history">hist</a></span></span> <span class="mw-changeslist-separator"></span> <span class="mw-title"><a href="/wiki/%s" class="mw-changeslist-title">%s</a></span>; %s <span class="mw-changeslist-separator"></span> %s <span class="comment">(%s)</span></li>`,
			diff, k, rev.Article.Key, html.EscapeString(rev.Article.Title), rev.Time.Format("15:04"), userLinks(rev.User), html.EscapeString(rev.Comment))
	}
	b.WriteString(`</ul>`)
}

func (wk *wiki) byTitle() []*wikiArticle {
	out := slices.Clone(wk.order)
	slices.SortFunc(out, func(a, b *wikiArticle) int { return cmp.Compare(a.Title, b.Title) })
	return out
}

// byTime lists every revision, oldest first.
func (wk *wiki) byTime() []*wikiRev {
	var out []*wikiRev
	for _, a := range wk.order {
		out = append(out, a.Revs...)
	}
	slices.SortFunc(out, func(a, b *wikiRev) int { return a.Time.Compare(b.Time) })
	return out
}
