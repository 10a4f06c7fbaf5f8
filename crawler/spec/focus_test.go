package spec

import (
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/crawler/canon"
)

func TestFocusSection(t *testing.T) {
	s, err := Parse([]byte(`seeds: [http://example.org/]
user-agent: "t/1 (+http://example.org/)"
focus:
  keywords: [{term: web archiving, weight: 2}, {term: crawler}]
  entities: [{name: Internet Archive, aliases: [IA], iri: "http://www.wikidata.org/entity/Q461"}]
  examples: [http://example.org/about]
  weights: {document: 1, anchor: 0.5}
  urls: [{pattern: "/news/", score: 0.9}, {surt: "http://(org,example,)/blog", score: 0.7}]
  blacklist: {hosts: ["*.spam.example"], patterns: ["\\?share="]}
`), "spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(canon.New(canon.Options{})); err != nil {
		t.Fatal(err)
	}
	f := s.Focus
	if len(f.Languages) != 1 || f.Languages[0] != "en" {
		t.Errorf("languages = %v, want the default [en]", f.Languages)
	}
	if len(s.Seeds) != 2 || s.Seeds[1] != "http://example.org/about" {
		t.Errorf("seeds %v: want the example URL added", s.Seeds)
	}
	if f.Keywords[0].Weight != 2 || f.Entities[0].Aliases[0] != "IA" || f.Weights["anchor"] != 0.5 || f.RelevanceThreshold() != FocusThreshold {
		t.Errorf("focus = %+v", f)
	}
}

func TestFocusBadInput(t *testing.T) {
	for _, c := range []struct{ focus, want string }{
		{"languages: [en, klingon]\n  keywords: [{term: x}]", `focus.languages[1]: unknown language "klingon"`},
		{"languages: [en]", "focus: empty topic"},
		{"keywords: [{term: x}]\n  urls: [{pattern: \"(\", score: 1}]", "focus.urls[0].pattern: invalid regular expression"},
		{"keywords: [{term: x}]\n  blacklist: {patterns: [\"[a\"]}", "focus.blacklist.patterns[0]: invalid regular expression"},
		{"keywords: [{term: x}]\n  weights: {document: 0, anchor: 0}", "focus.weights: they sum to 0"},
		{"keywords: [{term: x}]\n  weights: {document: -1, anchor: 1}", "focus.weights.document: -1"},
		{"keywords: [{term: x}]\n  weights: {colour: 1}", "focus.weights.colour: unknown module"},
		{"keywords: [{term: x, weight: -2}]", "focus.keywords[0].weight"},
	} {
		s, err := Parse([]byte("seeds: [http://example.org/]\nuser-agent: \"t/1 (+http://example.org/)\"\nfocus:\n  "+c.focus+"\n"), "spec.yaml")
		if err == nil {
			_, err = s.Check(canon.New(canon.Options{}))
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("focus %q: error %v, want one naming %q", c.focus, err, c.want)
		}
	}
}
