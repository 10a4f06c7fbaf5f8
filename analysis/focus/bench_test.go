package focus

import (
	"github.com/mneme-archive/mneme/internal/testenv"
	"net/http/httptest"
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/internal/synthweb"
)

// BenchmarkScoreSite is the analysis of the crawl benchmark's cost part
// (scripts/bench-focus.sh, PARTS=cost) without the crawl: every module
// of its spec scores pages of the crawl benchmark's generated site, whose
// content text and links the focused crawl's extractor gave.
func BenchmarkScoreSite(b *testing.B) {
	site := synthweb.NewBigSite(synthweb.BigOptions{})
	cn := canon.New(canon.Options{})
	x := extract.New(extract.Options{Canonicalizer: cn})
	type page struct {
		url     canon.URL
		content string
		links   []Link
	}
	pages := make([]page, 256)
	for k := range pages {
		i := k * 78
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", site.Path(i), nil))
		u, err := cn.Parse("http://127.0.0.1:8080" + site.Path(i))
		if err != nil {
			b.Fatal(err)
		}
		out, text, err := x.ExtractContent(extract.Document{URL: u, MediaType: "text/html", Text: rec.Body.Bytes()})
		if err != nil {
			b.Fatal(err)
		}
		p := page{url: u, content: text}
		for _, l := range out {
			p.links = append(p.links, Link{URL: l.URL, Hop: l.Hop, Text: l.Text, Paragraph: l.Paragraph})
		}
		pages[k] = p
	}
	f := &spec.Focus{
		Languages: []string{"en"},
		Keywords:  []spec.FocusKeyword{{Term: "archive"}},
		Entities:  []spec.FocusEntity{{Name: "Internet Archive", Aliases: []string{"Wayback Machine"}}, {Name: "Heritrix"}},
		URLs:      []spec.FocusURLRule{{Pattern: `/s/[0-9]+/[0-9]*1[.]html`, Score: 1}},
		Weights:   map[string]float64{"document": 0.4, "paragraph": 0.2, "anchor": 0.2, "entities": 0.1, "url": 0.1},
	}
	s, err := New(Options{Focus: f, Store: b.TempDir(), Canon: cn, Update: frontier.UpdateAvg})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	n := 0
	cpu := testenv.CPUTime()
	for b.Loop() {
		p := pages[n%len(pages)]
		n++
		if _, _, err := s.Score(p.url, p.content, p.links); err != nil {
			b.Fatal(err)
		}
	}
	// The machine's load inflates wall times, not CPU times (the
	// explanation store's background work included).
	b.ReportMetric(float64((testenv.CPUTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/page")
}
