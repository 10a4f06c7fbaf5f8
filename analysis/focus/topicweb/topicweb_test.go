package topicweb

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/analysis/focus/text"
)

func TestTopicLocality(t *testing.T) {
	w := New(Web{Pages: 2000, Topics: 5, Noise: 0.3, Seed: 7})
	same, all := 0, 0
	for i := range w.Pages {
		for _, l := range w.Links(i) {
			all++
			if w.Topic(l.Target) == w.Topic(i) {
				same++
			}
		}
	}
	// 1 − noise of the links stay in the topic, and a random link lands
	// in it one time in Topics.
	want := 0.7 + 0.3/5
	if got := float64(same) / float64(all); got < want-0.02 || got > want+0.02 {
		t.Errorf("same-topic links %.3f, want %.3f", got, want)
	}
	if !bytes.Equal(w.HTML(42), New(Web{Pages: 2000, Topics: 5, Noise: 0.3, Seed: 7}).HTML(42)) {
		t.Error("page 42 differs between two webs of the same model")
	}
}

// TestTextSeparatesTopics checks the model's text against the harvest
// ratio's measure: a topic vector summing a few pages of a topic has a
// cosine above 0.333 with most pages of that topic and below it with most
// others.
func TestTextSeparatesTopics(t *testing.T) {
	w := New(Web{Pages: 1000, Topics: 5, Seed: 3})
	an, err := text.New("en")
	if err != nil {
		t.Fatal(err)
	}
	topic := text.Vector{}
	for _, i := range w.Seeds(0, 5) {
		topic.Add(an.Counts(strings.Join(w.Text(i), " ")).Normalized(), 1)
	}
	in, out, nIn, nOut := 0, 0, 0, 0
	sumIn, sumOut := 0.0, 0.0
	for i := 100; i < 400; i++ {
		c := text.Cosine(an.Counts(strings.Join(w.Text(i), " ")), topic)
		if w.Topic(i) == 0 {
			nIn++
			sumIn += c
			if c > 0.333 {
				in++
			}
		} else {
			nOut++
			sumOut += c
			if c > 0.333 {
				out++
			}
		}
	}
	t.Logf("mean cosine with the topic: %.3f for its pages, %.3f for others", sumIn/float64(nIn), sumOut/float64(nOut))
	if float64(in)/float64(nIn) < 0.9 || float64(out)/float64(nOut) > 0.1 {
		t.Errorf("above 0.333: %d/%d pages of the topic, %d/%d of others", in, nIn, out, nOut)
	}
}

func TestHandler(t *testing.T) {
	w := New(Web{Pages: 100, Topics: 4})
	srv := httptest.NewServer(w.Handler())
	defer srv.Close()
	for path, code := range map[string]int{"/p/7.html": 200, "/p/100.html": 404, "/p/07.html": 404, "/": 200, "/robots.txt": 200} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != code {
			t.Errorf("%s: %d, want %d", path, resp.StatusCode, code)
		}
		if path == "/p/7.html" && !bytes.Equal(body, w.HTML(7)) {
			t.Errorf("%s: not the page's HTML", path)
		}
	}
}
