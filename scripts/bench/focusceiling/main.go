// Command focusceiling counts, for each of several topics, the relevant
// pages of a whole web: the most a focused crawl of that web can find.
// It walks the web once breadth-first from a start URL (its links, the
// crawler's extractor, the start URL's host only), analyses every HTML
// page as a focused crawl does (extract.ContentText, the focus topic's
// analyzer) and counts the pages whose cosine with each topic exceeds the
// relevance threshold, in all, once per distinct content (a web may serve
// one file under several URLs) and per first path segment (on a web of
// manuals served side by side, per manual).
//
// A crawl of N pages cannot find more than min(relevant, N) relevant
// pages, so min(relevant, N) / N is the best harvest ratio after N pages;
// divided by what a breadth-first crawl found, the best ratio any focused
// crawl can reach over it.
//
// Usage: focusceiling -start URL [-workers 4] 'LABEL|EXAMPLE_URL …' …
//
// Each argument is a topic: a label and the URLs of its example pages,
// as in a crawl spec's focus.examples. Prints a tab-separated line per
// topic: label, relevant pages, analysed pages, distinct relevant
// contents, then "segment=count" for the segments holding relevant pages,
// most first.
package main

import (
	"cmp"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/mneme-archive/mneme/analysis/focus"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/spec"
)

type topic struct {
	label    string
	t        *focus.Topic
	relevant map[string]int // per first path segment
	distinct map[[32]byte]bool
	total    int
}

func main() {
	start := flag.String("start", "", "URL the walk starts at")
	workers := flag.Int("workers", 4, "concurrent fetches")
	flag.Parse()
	if *start == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: focusceiling -start URL 'LABEL|EXAMPLE_URL …' …")
		os.Exit(2)
	}
	cn := canon.New(canon.Options{})
	ex := extract.New(extract.Options{Canonicalizer: cn, MaxParagraph: -1})
	startURL, err := cn.Parse(*start)
	if err != nil {
		log.Fatalf("-start %s: %v", *start, err)
	}

	var topics []*topic
	for _, arg := range flag.Args() {
		label, urls, ok := strings.Cut(arg, "|")
		if !ok {
			log.Fatalf("topic %q: want LABEL|EXAMPLE_URL …", arg)
		}
		// English, a crawl spec's default language
		f := &spec.Focus{Examples: strings.Fields(urls), Languages: []string{"en"}}
		t, err := focus.NewTopic(f, "")
		if err != nil {
			log.Fatalf("topic %s: %v", label, err)
		}
		for _, u := range f.Examples {
			body, html, err := fetch(u)
			if err != nil || !html {
				log.Fatalf("topic %s: example %s: not an HTML page (%v)", label, u, err)
			}
			t.AddExample(u, t.Analyzer().Counts(extract.ContentText(body)))
		}
		topics = append(topics, &topic{label: label, t: t, relevant: map[string]int{}, distinct: map[[32]byte]bool{}})
	}
	threshold := (&spec.Focus{}).RelevanceThreshold()

	// Breadth-first by levels; each level's pages fetched by the workers.
	seen := map[string]bool{startURL.Canonical: true}
	level := []canon.URL{startURL}
	var mu sync.Mutex
	analysed := 0
	for len(level) > 0 {
		var next []canon.URL
		jobs := make(chan canon.URL)
		var wg sync.WaitGroup
		for range *workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for u := range jobs {
					body, html, err := fetch(u.Href)
					if err != nil {
						log.Printf("%s: %v", u.Href, err)
						continue
					}
					if !html {
						continue
					}
					links, err := ex.Extract(extract.Document{URL: u, MediaType: "text/html", Text: body})
					if err != nil {
						log.Printf("%s: links: %v", u.Href, err)
					}
					// Every topic has the same analyzer (English): one count.
					counts := topics[0].t.Analyzer().Counts(extract.ContentText(body))
					sum := sha256.Sum256(body)
					seg, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
					mu.Lock()
					analysed++
					for _, tp := range topics {
						if len(counts) == 0 {
							continue
						}
						tp.total++
						if tp.t.Cosine(counts) > threshold {
							tp.relevant[seg]++
							tp.distinct[sum] = true
						}
					}
					for _, l := range links {
						if l.Hop != extract.Link || l.URL.Host != startURL.Host || seen[l.URL.Canonical] {
							continue
						}
						seen[l.URL.Canonical] = true
						next = append(next, l.URL)
					}
					mu.Unlock()
				}
			}()
		}
		for _, u := range level {
			jobs <- u
		}
		close(jobs)
		wg.Wait()
		level = next
		fmt.Fprintf(os.Stderr, "focusceiling: %d pages analysed, %d queued\n", analysed, len(level))
	}

	for _, tp := range topics {
		n := 0
		type sc struct {
			seg string
			n   int
		}
		var segs []sc
		for s, c := range tp.relevant {
			n += c
			segs = append(segs, sc{s, c})
		}
		slices.SortFunc(segs, func(a, b sc) int { return cmp.Or(b.n-a.n, strings.Compare(a.seg, b.seg)) })
		parts := []string{tp.label, fmt.Sprint(n), fmt.Sprint(tp.total), fmt.Sprint(len(tp.distinct))}
		for _, s := range segs {
			parts = append(parts, fmt.Sprintf("%s=%d", s.seg, s.n))
		}
		fmt.Println(strings.Join(parts, "\t"))
	}
}

// fetch returns a URL's body and whether it is HTML.
func fetch(u string) ([]byte, bool, error) {
	resp, err := http.Get(u)
	if err != nil {
		return nil, false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, false, fmt.Errorf("status %s", resp.Status)
	}
	mt, _, _ := strings.Cut(resp.Header.Get("Content-Type"), ";")
	if !extract.IsHTML(strings.ToLower(strings.TrimSpace(mt))) {
		return nil, false, nil
	}
	b, err := io.ReadAll(resp.Body)
	return b, true, err
}
