package spec

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/revisit"
)

const incrementalExample = `
seeds: [https://news.example.org/]
user-agent: "mneme/0.1 (+https://example.org/crawler)"
incremental:
  policy: poisson
  conditional-requests: false
  abort-on-headers: true
  trust-min-checked: 5
  waits:
    - {content-type: "^text/", initial: 2h, min: 10m, max: 48h, default: 3h, changed-factor: 2, unchanged-factor: 1.2, use-overdue: true}
    - {initial: 24h, min: 1h, max: 672h, default: 72h, changed-factor: 1.5, unchanged-factor: 1.5}
  hosts:
    news.example.org: [{initial: 30m, min: 5m, max: 12h, default: 1h, changed-factor: 1.5, unchanged-factor: 1.5}]
  strip:
    - {url: "^https://news", strip: ["<time>[^<]*</time>"], max-size: 4096}
  fuzzy:
    - {url: "forum", threshold: 0.9}
`

func TestIncrementalSection(t *testing.T) {
	s, err := Parse([]byte(incrementalExample), "incr.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(canon.New(canon.Options{})); err != nil {
		t.Fatal(err)
	}
	cfg, ok, err := s.RevisitConfig()
	if err != nil || !ok {
		t.Fatalf("RevisitConfig: %v %v", ok, err)
	}
	if cfg.Policy != revisit.PolicyPoisson || cfg.ConditionalRequests || !cfg.AbortOnHeaders ||
		cfg.TrustMinChecked != 5 || cfg.TrustMinRatio != revisit.DefaultConfig().TrustMinRatio || !cfg.EmbedsWithPage {
		t.Errorf("settings %+v", cfg)
	}
	text := cfg.Waits.For("other.org", "text/html")
	if text.Initial != 2*time.Hour || text.Min != 10*time.Minute || text.ChangedFactor != 2 || !text.UseOverdue {
		t.Errorf("text evaluator %+v", text)
	}
	if img := cfg.Waits.For("other.org", "image/png"); img.Initial != 24*time.Hour {
		t.Errorf("catch-all evaluator %+v", img)
	}
	if host := cfg.Waits.For("news.example.org", "text/html"); host.Initial != 30*time.Minute {
		t.Errorf("host evaluator %+v", host)
	}
	var st revisit.State
	a := cfg.Detector.Compare(&st, "https://news.example.org/a", []byte("<p>x</p><time>09:00</time>"))
	b := cfg.Detector.Compare(&st, "https://news.example.org/a", []byte("<p>x</p><time>10:00</time>"))
	if a.Digest != b.Digest {
		t.Error("the strip rule did not remove the time")
	}
	if len(cfg.Detector.Fuzzy) != 1 || cfg.Detector.Fuzzy[0].Threshold != 0.9 {
		t.Errorf("fuzzy rules %+v", cfg.Detector.Fuzzy)
	}
	// Written out and read back, the section is the same.
	data, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(data, "written")
	if err != nil {
		t.Fatal(err)
	}
	cfg2, _, err := again.RevisitConfig()
	if err != nil || cfg2.Policy != cfg.Policy || cfg2.ConditionalRequests || len(cfg2.Waits.Stack) != 2 {
		t.Errorf("after a round trip: %+v %v", cfg2, err)
	}
}

func TestIncrementalErrors(t *testing.T) {
	if _, ok, err := Default().RevisitConfig(); ok || err != nil {
		t.Errorf("a spec without the section is incremental: %v %v", ok, err)
	}
	for _, c := range []struct{ edit, want string }{
		{"policy: poisson", "policy: lifo"},
		{`"^text/"`, `"^text/("`},
		{"<time>[^<]*</time>", "<time>[^<*</time>"},
		{"threshold: 0.9", "threshold: 1.5"},
		{"{initial: 24h, min: 1h", "{content-type: x, initial: 24h, min: 1h"}, // no catch-all
		{"min: 10m, max: 48h", "min: 10h, max: 1h"},
	} {
		s, err := Parse([]byte(strings.Replace(incrementalExample, c.edit, c.want, 1)), "incr.yaml")
		if err != nil {
			t.Fatalf("%s: %v", c.want, err)
		}
		if _, err := s.Check(canon.New(canon.Options{})); err == nil || !strings.Contains(err.Error(), "incremental") {
			t.Errorf("%s: %v", c.want, err)
		}
	}
}

// The example of docs/incremental.md is a valid specification.
func TestIncrementalDocExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/incremental.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```yaml\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/incremental.md: no YAML example")
	}
	s, err := Parse([]byte("seeds: [https://news.example.org/]\nuser-agent: \"mneme/0.1 (+https://example.org/crawler)\"\n"+example), "docs/incremental.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(canon.New(canon.Options{})); err != nil {
		t.Fatal(err)
	}
	cfg, ok, err := s.RevisitConfig()
	if err != nil || !ok || len(cfg.Waits.Stack) != 2 || len(cfg.Waits.Hosts) != 1 || len(cfg.Detector.Strip) != 1 {
		t.Fatalf("%+v %v %v", cfg, ok, err)
	}
	var st revisit.State
	a := cfg.Detector.Compare(&st, "https://news.example.org/", []byte(`<p>x</p><div id="clock">09:00</div>`))
	b := cfg.Detector.Compare(&st, "https://news.example.org/", []byte(`<p>x</p><div id="clock">10:00</div>`))
	if a.Digest != b.Digest {
		t.Error("the example's strip rule keeps the clock")
	}
}
