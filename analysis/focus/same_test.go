package focus

import (
	"math"
	"testing"

	"github.com/mneme-archive/mneme/analysis/focus/text"
	"github.com/mneme-archive/mneme/analysis/focus/topicweb"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// TestScoresSameAsPlain scores the pages of a generated web twice (the
// second time from the scorer's caches) and checks every link's score
// against the plain computation: each text's term counts from a fresh
// analyzer and its cosine with the topic vector, aggregated with the
// weights. The caches and reused maps must not change a score.
func TestScoresSameAsPlain(t *testing.T) {
	web := topicweb.New(topicweb.Web{Pages: 200, Seed: 5})
	cn := canon.New(canon.Options{})
	ex := extract.New(extract.Options{Canonicalizer: cn})
	s := newTestScorer(t, &spec.Focus{
		Keywords: []spec.FocusKeyword{{Term: web.Text(0)[0]}, {Term: web.Text(10)[3]}},
		Weights:  map[string]float64{"document": 0.4, "paragraph": 0.2, "anchor": 0.3, "url": 0.1},
		URLs:     []spec.FocusURLRule{{Pattern: "/p/1[0-9]*[.]html", Score: 1}},
	}, frontier.UpdateAvg)
	plain, err := text.New("en")
	if err != nil {
		t.Fatal(err)
	}
	topic := s.Topic().Vector()
	cos := func(txt string) float64 {
		if txt == "" {
			return math.NaN()
		}
		return text.Cosine(plain.Counts(txt), topic)
	}
	w := s.Weights()
	for pass := range 2 {
		for i := range 60 {
			u, err := cn.Parse(web.URL("http://topicweb.test", i))
			if err != nil {
				t.Fatal(err)
			}
			body := web.HTML(i)
			out, err := ex.Extract(extract.Document{URL: u, MediaType: "text/html", Text: body})
			if err != nil {
				t.Fatal(err)
			}
			var links []Link
			for _, l := range out {
				links = append(links, Link{URL: l.URL, Hop: l.Hop, Text: l.Text, Paragraph: l.Paragraph})
			}
			content := extract.ContentText(body)
			_, scores, err := s.Score(u, content, links)
			if err != nil {
				t.Fatal(err)
			}
			doc := cos(content)
			for k, l := range links {
				v := noValues()
				v[modDocument] = doc
				if l.Hop == extract.Link {
					v[modParagraph], v[modAnchor] = cos(l.Paragraph), cos(l.Text)
				}
				v[modURL] = scoreURL(s.rules, l.URL)
				if want := w.Aggregate(v); math.Abs(scores[k]-want) > 1e-12 {
					t.Fatalf("pass %d page %d link %s: score %v, plain %v", pass, i, l.URL.Href, scores[k], want)
				}
			}
		}
	}
}
