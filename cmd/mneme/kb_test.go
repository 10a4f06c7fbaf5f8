package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/internal/testenv"
)

func TestKBCheckBuiltin(t *testing.T) {
	files, err := filepath.Glob("../../kb/apps/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no KB files: %v", err)
	}
	code, out, errOut := mneme(t, "", "kb", "check", "../../kb/apps")
	if code != 0 {
		t.Fatalf("kb check: code %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(files) {
		t.Fatalf("kb check printed %d lines for %d files:\n%s", len(lines), len(files), out)
	}
	if !strings.Contains(out, "kb/apps/wordpress.yaml: wordpress (blog), 15 detection patterns, 3 levels") {
		t.Errorf("no summary of wordpress.yaml in:\n%s", out)
	}
}

// TestKBCheckErrors checks that every mistake is reported at its file,
// line and column, all of them in one run, with exit code 1.
func TestKBCheckErrors(t *testing.T) {
	bad := writeFile(t, "bad.yaml", `type: demo
name: Demo
category: shop
detect:
  - //meta[@name='generator'][starts-with(@content, 'Demo')
levels:
  - name: thread
    kind: terminal
    detect:
      - "//div[@id='posts'}"
    navigate:
      - select: //a/@href
        target: nowhere
    extract:
      - object: forum-post
        records: //div[@class='post']
        fields:
          content: .//div[@class='content']
          colour: .//b
`)
	code, out, errOut := mneme(t, "", "kb", "check", bad)
	if code != 1 || out != "" {
		t.Fatalf("code %d, stdout %q", code, out)
	}
	want := []string{
		bad + `:3:11: category "shop": expected one of blog, forum, wiki, cms`,
		bad + `:5:60: invalid XPath: expected "]" at the end in "//meta[@name='generator'][starts-with(@content, 'Demo')"`,
		bad + `:10:27: invalid XPath: unexpected character "}" in "//div[@id='posts'}"`,
		bad + `:13:17: target level "nowhere" is not defined`,
		bad + `:19:19: field "colour": expected one of title, author, author_url, date, modified, content, tags, categories, reply_to, id, url, note, version_of`,
		"mneme: 5 problems",
	}
	if got := strings.Split(strings.TrimSpace(errOut), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, strings.Join(want, "\n"))
	}

	unknown := writeFile(t, "unknown.yaml", "type: demo\nname: Demo\ncategory: forum\ncolour: red\n")
	code, _, errOut = mneme(t, "", "kb", "check", unknown)
	if code != 1 || !strings.Contains(errOut, unknown+`:4: unknown key "colour"`) {
		t.Errorf("unknown key: code %d, stderr %q", code, errOut)
	}
	code, _, errOut = mneme(t, "", "kb", "check", filepath.Join(t.TempDir(), "missing.yaml"))
	if code != 1 || !strings.Contains(errOut, "missing.yaml") {
		t.Errorf("missing file: code %d, stderr %q", code, errOut)
	}
}

type detectJSON struct {
	Input, Type, Level, Pattern, Error string
	Actions                            []string
	Technologies                       []string
}

func detectLines(t *testing.T, out string) []detectJSON {
	t.Helper()
	var rs []detectJSON
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r detectJSON
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("not JSON: %q: %v", line, err)
		}
		rs = append(rs, r)
	}
	return rs
}

func TestKBDetectJSON(t *testing.T) {
	post := writeFile(t, "post.html", `<!DOCTYPE html><html><head>
<meta name="generator" content="WordPress 6.1.1"><title>Hello</title></head>
<body class="post-template-default single single-post postid-7"><article class="post">
<h1 class="entry-title">Hello</h1><div class="entry-content"><p>Some words here.</p></div></article></body></html>`)
	plain := writeFile(t, "plain.html", `<html><body><p>Nothing to see.</p></body></html>`)
	missing := filepath.Join(t.TempDir(), "missing.html")
	code, out, errOut := mneme(t, "", "kb", "detect", "--json", post, plain, missing)
	if code != 1 {
		t.Errorf("code %d with an unreadable input, want 1 (stderr %q)", code, errOut)
	}
	rs := detectLines(t, out)
	if len(rs) != 3 {
		t.Fatalf("%d JSON lines, want 3:\n%s", len(rs), out)
	}
	if r := rs[0]; r.Input != post || r.Type != "wordpress" || r.Level != "post" ||
		r.Pattern != "//meta[@name='generator'][starts-with(@content, 'WordPress')]" {
		t.Errorf("post: %+v", r)
	}
	if !strings.Contains(strings.Join(rs[0].Actions, "\n"), "extract blog-post: 1 objects") {
		t.Errorf("post actions: %q", rs[0].Actions)
	}
	if r := rs[1]; r.Type != "" || r.Level != "" || r.Error != "" {
		t.Errorf("plain page: %+v", r)
	}
	if r := rs[2]; r.Error == "" || r.Type != "" {
		t.Errorf("missing file: %+v", r)
	}
}

func TestKBDetectFingerprints(t *testing.T) {
	dir := testenv.Path(t, "data", "fingerprints", "webappanalyzer")
	page := writeFile(t, "typo3.html", `<html><head><meta name="generator" content="TYPO3 CMS"></head><body><p>x</p></body></html>`)
	code, out, errOut := mneme(t, "", "kb", "detect", "--json", "--fingerprints", dir, page)
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	r := detectLines(t, out)[0]
	if r.Type != "typo3-cms" || !strings.HasPrefix(r.Pattern, "fingerprint TYPO3 CMS: meta[generator]") {
		t.Errorf("TYPO3 page: %+v", r)
	}
	code, _, errOut = mneme(t, "", "kb", "detect", "--fingerprints", t.TempDir(), page)
	if code != 1 || !strings.Contains(errOut, "categories.json") {
		t.Errorf("empty fingerprint dir: code %d, stderr %q", code, errOut)
	}
}

// TestKBDetectLive detects the real WordPress site of
// ../shared/cms/setup-cms.sh over HTTP, when it answers.
func TestKBDetectLive(t *testing.T) {
	c := &http.Client{Timeout: 3 * time.Second}
	resp, err := c.Get("http://127.0.0.1:8081/")
	if err != nil {
		t.Skipf("WordPress on 127.0.0.1:8081 does not answer (%v): run bash ../shared/cms/setup-cms.sh", err)
	}
	resp.Body.Close()
	code, out, errOut := mneme(t, "", "kb", "detect", "http://127.0.0.1:8081/")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	for _, want := range []string{`http://127.0.0.1:8081/: wordpress, level "list"`, "navigate to post: 5 links"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// forumPage is a thread of a forum engine no knowledge-base entry
// describes, with posts dated relative to the capture and absolutely.
const forumPage = `<!DOCTYPE html><html><head><title>Which lens?</title></head><body>
<div id="nav"><a href="/">Home</a> <a href="/f/3">Cameras</a></div>
<div id="thread">
 <div class="entry" id="m1"><div class="who"><a href="/people/ann">ann</a></div>
  <span class="when">2 hours ago</span>
  <div class="words"><p>Which lens would you take for a week of walking in the hills?</p></div></div>
 <div class="entry" id="m2"><div class="who"><a href="/people/bob">bob</a></div>
  <span class="when">14 March 2024, 09:30</span>
  <div class="words"><p>A small zoom: it saves changing lenses in the rain.</p></div></div>
 <div class="entry" id="m3"><div class="who"><a href="/people/cy">cy</a></div>
  <span class="when">vor 3 Tagen</span>
  <div class="words"><p>Eine Festbrennweite reicht völlig, und sie ist leicht.</p></div></div>
</div></body></html>`

func TestKBExtractJSON(t *testing.T) {
	captured := time.Date(2024, 3, 20, 12, 0, 0, 0, time.UTC)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", captured.Format(http.TimeFormat))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(forumPage))
	}))
	defer srv.Close()
	plain := writeFile(t, "plain.html", `<html><body><p>Nothing to see.</p></body></html>`)
	code, out, errOut := mneme(t, "", "kb", "extract", "--json", srv.URL+"/t/42", plain)
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	var rs []extractResult
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var r extractResult
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%v in:\n%s", err, out)
		}
		rs = append(rs, r)
	}
	if len(rs) != 2 {
		t.Fatalf("%d JSON lines, want 2:\n%s", len(rs), out)
	}
	if r := rs[0]; r.Type != "generic-forum" || len(r.Objects) != 3 {
		t.Fatalf("forum thread: %+v", r)
	}
	want := []extractObject{
		{Kind: "post", Author: "ann", Date: "2024-03-20T10:00:00Z", Text: "Which lens would you take for a week of walking in the hills?"},
		{Kind: "post", Author: "bob", Date: "2024-03-14T09:30:00Z", Text: "A small zoom: it saves changing lenses in the rain."},
		{Kind: "post", Author: "cy", Date: "2024-03-17T12:00:00Z", Text: "Eine Festbrennweite reicht völlig, und sie ist leicht."},
	}
	for i, w := range want {
		g := rs[0].Objects[i]
		w.ReplyTo = g.ReplyTo
		if g != w {
			t.Errorf("post %d: got %+v, want %+v", i+1, g, w)
		}
		if i > 0 && !strings.HasSuffix(g.ReplyTo, "#m1") {
			t.Errorf("post %d answers %q, want the opening post", i+1, g.ReplyTo)
		}
	}
	if r := rs[1]; r.Type != "" || len(r.Objects) != 0 || r.Error != "" {
		t.Errorf("plain page: %+v", r)
	}
}
