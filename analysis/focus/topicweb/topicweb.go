// Package topicweb generates a topical web for focused crawling: pages
// that each belong to one topic, link mostly to pages of their topic
// (topic locality) and carry text drawn from their topic's vocabulary. It
// is served over HTTP (Handler) for real crawls and read directly by the
// simulator (Page), both from the same deterministic model.
//
// # Model
//
// Web{Pages, Topics, OutDegree, Noise, Seed}:
//
//   - each topic has a vocabulary of TopicWords made-up words; a background
//     vocabulary of BackgroundWords words is shared by all topics;
//   - page i belongs to topic i mod Topics (pages of a topic are spread
//     evenly over the URL space);
//   - a page's text has Length words (Length/2 … 3·Length/2): each word
//     is, with probability TopicShare, drawn from its topic's vocabulary,
//     else from the background; both draws are Zipfian (exponent 1), so a
//     few words of each vocabulary are frequent;
//   - a page has OutDegree links; each goes, with probability 1 − Noise,
//     to a uniformly drawn page of the page's own topic, else to a
//     uniformly drawn page of any topic (so Noise = 0 is a web of
//     disconnected topics and Noise = 1 a random graph);
//   - a link's anchor text is 2–4 words drawn like the target page's text
//     (what a link says of its target), and it sits in a paragraph of the
//     source page's text.
//
// With the defaults, the cosine of a page with a topic vector summing five
// pages of a topic averages about 0.87 for pages of that topic and 0.20 for
// others (TestTextSeparatesTopics), so that the harvest ratio's threshold
// (0.333) tells a topic's pages from the others; the links' noise is what
// a crawl has to overcome.
//
// Everything derives from Seed and the page number, so a page is made on
// demand and the same every time.
package topicweb

import (
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Web is a generated topical web. Zero fields take the defaults of New.
type Web struct {
	Pages           int     // default 20,000
	Topics          int     // default 10
	OutDegree       int     // links per page; default 10
	Noise           float64 // share of links to a random page; default 0.25
	Length          int     // mean words per page; default 300
	TopicShare      float64 // share of a page's words from its topic; default 0.6
	TopicWords      int     // words per topic vocabulary; default 300
	BackgroundWords int     // shared words; default 1,000
	// Hosts spreads the pages over this many hosts (default 1, the one
	// the web is served from); with more, links are absolute URLs on
	// hosts h0.topicweb.test, h1.topicweb.test … (for the simulator).
	Hosts int
	Seed  uint64

	words [][]string // per topic; the last is the background
}

// New returns the web w with its defaults filled in.
func New(w Web) *Web {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&w.Pages, 20000)
	def(&w.Topics, 10)
	def(&w.OutDegree, 10)
	def(&w.Length, 300)
	def(&w.TopicWords, 300)
	def(&w.BackgroundWords, 1000)
	def(&w.Hosts, 1)
	if w.Noise < 0 {
		w.Noise = 0
	} else if w.Noise == 0 {
		w.Noise = 0.25
	}
	if w.TopicShare <= 0 {
		w.TopicShare = 0.6
	}
	r := rand.New(rand.NewPCG(w.Seed, 0x746f706963))
	seen := map[string]bool{}
	vocab := func(n int) []string {
		out := make([]string, 0, n)
		for len(out) < n {
			word := makeWord(r)
			if !seen[word] {
				seen[word] = true
				out = append(out, word)
			}
		}
		return out
	}
	for range w.Topics {
		w.words = append(w.words, vocab(w.TopicWords))
	}
	w.words = append(w.words, vocab(w.BackgroundWords))
	return &w
}

// syllables make pronounceable words that are no real word of any
// language the analyzer knows, hence no stop word.
var syllables = []string{"ka", "lo", "mi", "ru", "ten", "vas", "qui", "dor", "pel", "zan", "fo", "gri", "hul", "jex", "nob", "sav", "tiv", "wum", "yat", "bre"}

func makeWord(r *rand.Rand) string {
	n := 2 + r.IntN(2)
	var b strings.Builder
	for range n {
		b.WriteString(syllables[r.IntN(len(syllables))])
	}
	return b.String()
}

// Topic is the topic of page i.
func (w *Web) Topic(i int) int { return i % w.Topics }

// URLPath is the path of page i.
func URLPath(i int) string { return "/p/" + strconv.Itoa(i) + ".html" }

// Host is the host of page i when the web has several (Hosts > 1): pages
// are spread over them regardless of topic.
func (w *Web) Host(i int) string {
	return "h" + strconv.Itoa(int(uint64(i)*0x9e3779b97f4a7c15>>33)%w.Hosts) + ".topicweb.test"
}

// URL is the URL of page i, on base (e.g. "http://127.0.0.1:8080") when
// the web has one host.
func (w *Web) URL(base string, i int) string {
	if w.Hosts > 1 {
		return "http://" + w.Host(i) + URLPath(i)
	}
	return base + URLPath(i)
}

// Page returns the HTML of the page at rawURL (its path names it), for the
// simulator.
func (w *Web) Page(rawURL string) ([]byte, bool) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, false
	}
	i := w.PageOf(u.Path)
	if i < 0 {
		return nil, false
	}
	return w.HTML(i), true
}

// PageOf returns the page number of a path, or -1.
func (w *Web) PageOf(path string) int {
	s, ok := strings.CutPrefix(path, "/p/")
	if !ok {
		return -1
	}
	s, ok = strings.CutSuffix(s, ".html")
	if !ok {
		return -1
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 || i >= w.Pages || strconv.Itoa(i) != s {
		return -1
	}
	return i
}

// Seeds returns n pages of topic t (the first ones).
func (w *Web) Seeds(t, n int) []int {
	var out []int
	for i := t; i < w.Pages && len(out) < n; i += w.Topics {
		out = append(out, i)
	}
	return out
}

func (w *Web) rng(i int, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(w.Seed^uint64(i)*0x9e3779b97f4a7c15, stream))
}

// zipfIndex draws an index in [0, n) with P(k) ∝ 1/(k+1).
func zipfIndex(r *rand.Rand, n int) int {
	// Inverse of the continuous approximation: H(k) ≈ ln(k+1).
	k := int(math.Exp(r.Float64()*math.Log(float64(n)+1))) - 1
	return min(max(k, 0), n-1)
}

func (w *Web) word(r *rand.Rand, topic int) string {
	if r.Float64() < w.TopicShare {
		v := w.words[topic]
		return v[zipfIndex(r, len(v))]
	}
	v := w.words[len(w.words)-1]
	return v[zipfIndex(r, len(v))]
}

// Link is a link of a generated page.
type Link struct {
	Target int
	Anchor string
}

// Links returns the links of page i.
func (w *Web) Links(i int) []Link {
	r := w.rng(i, 2)
	t := w.Topic(i)
	out := make([]Link, 0, w.OutDegree)
	for range w.OutDegree {
		var j int
		if r.Float64() < w.Noise {
			j = r.IntN(w.Pages)
		} else {
			j = t + w.Topics*r.IntN((w.Pages-t+w.Topics-1)/w.Topics)
		}
		words := make([]string, 2+r.IntN(3))
		for k := range words {
			words[k] = w.word(r, w.Topic(j))
		}
		out = append(out, Link{Target: j, Anchor: strings.Join(words, " ")})
	}
	return out
}

// Text returns the words of page i.
func (w *Web) Text(i int) []string {
	r := w.rng(i, 1)
	n := w.Length/2 + r.IntN(w.Length+1)
	out := make([]string, n)
	for k := range out {
		out[k] = w.word(r, w.Topic(i))
	}
	return out
}

// HTML renders page i: a title, a navigation bar (the same on every page,
// chrome to be left out of analysis) and the text in paragraphs of about
// 40 words with the links spread over them.
func (w *Web) HTML(i int) []byte {
	text := w.Text(i)
	links := w.Links(i)
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head>\n<body>\n", html.EscapeString(strings.Join(text[:min(5, len(text))], " ")))
	b.WriteString("<nav><a href=\"/\">Home</a> <a href=\"/about.html\">About</a></nav>\n<main>\n")
	paras := (len(text) + 39) / 40
	for p := range paras {
		b.WriteString("<p>")
		b.WriteString(strings.Join(text[p*40:min(len(text), (p+1)*40)], " "))
		for k := p; k < len(links); k += paras {
			fmt.Fprintf(&b, " <a href=\"%s\">%s</a>", w.URL("", links[k].Target), html.EscapeString(links[k].Anchor))
		}
		b.WriteString("</p>\n")
	}
	b.WriteString("</main>\n</body></html>\n")
	return []byte(b.String())
}

// Handler serves the web: /p/N.html, a home page linking the first page
// of every topic, an about page and a permissive robots.txt.
func (w *Web) Handler() http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			rw.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(rw, "User-agent: *\nAllow: /\n")
			return
		case "/", "/about.html":
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(rw, "<!DOCTYPE html><html><head><title>Topical web</title></head><body><ul>")
			for t := range w.Topics {
				fmt.Fprintf(rw, "<li><a href=\"%s\">topic %d</a></li>", URLPath(t), t)
			}
			fmt.Fprint(rw, "</ul></body></html>")
			return
		}
		i := w.PageOf(r.URL.Path)
		if i < 0 {
			http.NotFound(rw, r)
			return
		}
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = rw.Write(w.HTML(i))
	})
}
