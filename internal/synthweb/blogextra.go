package synthweb

import (
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"
)

// feed writes an RSS 2.0 feed of posts, as WordPress's /feed/.
func (bl *blog) feed(w http.ResponseWriter, title, self string, posts []*blogPost) {
	var b strings.Builder
	rssHead(&b, title, self, bl.base+"/", posts[0].Date)
	for _, p := range posts {
		fmt.Fprintf(&b, "<item>\n<title>%s</title>\n<link>%s</link>\n<comments>%s#respond</comments>\n<dc:creator><![CDATA[%s]]></dc:creator>\n<pubDate>%s</pubDate>\n<category><![CDATA[%s]]></category>\n<guid isPermaLink=\"false\">%s/?p=%d</guid>\n<description><![CDATA[%s]]></description>\n<slash:comments>%d</slash:comments>\n</item>\n",
			html.EscapeString(p.Title), p.URL, p.URL, p.Author.Name, p.Date.Format(time.RFC1123Z), p.Category.Name, bl.base, p.ID, p.Excerpt, p.NComments)
	}
	b.WriteString("</channel>\n</rss>\n")
	writeText(w, "application/rss+xml; charset=UTF-8", b.String())
}

// commentFeed writes an RSS 2.0 feed of comments.
func (bl *blog) commentFeed(w http.ResponseWriter, title, self string, cs []*blogComment) {
	var b strings.Builder
	var last time.Time
	for _, c := range cs {
		if c.Date.After(last) {
			last = c.Date
		}
	}
	rssHead(&b, title, self, bl.base+"/", last)
	for _, c := range cs {
		fmt.Fprintf(&b, "<item>\n<title>By: %s</title>\n<link>%s#comment-%d</link>\n<dc:creator><![CDATA[%s]]></dc:creator>\n<pubDate>%s</pubDate>\n<guid isPermaLink=\"false\">%s/?p=%d#comment-%d</guid>\n<description><![CDATA[%s]]></description>\n</item>\n",
			html.EscapeString(c.Author.Name), c.PostURL, c.ID, c.Author.Name, c.Date.Format(time.RFC1123Z), bl.base, c.ID, c.ID, c.Text)
	}
	b.WriteString("</channel>\n</rss>\n")
	writeText(w, "application/rss+xml; charset=UTF-8", b.String())
}

func rssHead(b *strings.Builder, title, self, link string, updated time.Time) {
	fmt.Fprintf(b, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"
	xmlns:content="http://purl.org/rss/1.0/modules/content/"
	xmlns:dc="http://purl.org/dc/elements/1.1/"
	xmlns:atom="http://www.w3.org/2005/Atom"
	xmlns:slash="http://purl.org/rss/1.0/modules/slash/">
<channel>
<title>%s</title>
<atom:link href="%s" rel="self" type="application/rss+xml" />
<link>%s</link>
<description>Birds, walks and weather in the Fenwick Valley</description>
<lastBuildDate>%s</lastBuildDate>
<language>en-GB</language>
<generator>https://wordpress.org/?v=6.4.3</generator>
`, html.EscapeString(title), self, link, updated.Format(time.RFC1123Z))
}

// calendar is one month of the events calendar. Its previous and next
// links never end: the trap a crawler must bound by dates or hops.
type calendar struct {
	Name               string
	Prev, Next         string
	PrevName, NextName string
	Weeks              [][]calendarDay
}

type calendarDay struct {
	Day   int
	Event string
}

func newCalendar(base string, month time.Time) *calendar {
	prev, next := month.AddDate(0, -1, 0), month.AddDate(0, 1, 0)
	c := &calendar{
		Name:     month.Format("January 2006"),
		Prev:     base + "/events/month/" + prev.Format("2006-01") + "/",
		Next:     base + "/events/month/" + next.Format("2006-01") + "/",
		PrevName: prev.Format("January"), NextName: next.Format("January"),
	}
	// Guided walks on the second Saturday of the months the blog covers.
	walk := 0
	if y := month.Year(); y >= 2023 && y <= 2024 {
		walk = 8 + (13-int(month.Weekday()))%7
	}
	week := make([]calendarDay, int(month.Weekday()))
	for d := 1; d <= month.AddDate(0, 1, -1).Day(); d++ {
		day := calendarDay{Day: d}
		if d == walk {
			day.Event = "Guided walk at " + places[int(month.Month())%len(places)]
		}
		week = append(week, day)
		if len(week) == 7 {
			c.Weeks = append(c.Weeks, week)
			week = nil
		}
	}
	if len(week) > 0 {
		c.Weeks = append(c.Weeks, week)
	}
	return c
}
