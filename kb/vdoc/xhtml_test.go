package vdoc

import (
	"net/http"
	"testing"

	"github.com/antchfx/htmlquery"
)

// TestXHTMLSaved parses pages written as XHTML: a self-closing iframe or
// div must not swallow or wrap what follows, and <base> outside <head>
// still sets the base URL.
func TestXHTMLSaved(t *testing.T) {
	page := `<html xmlns="http://www.w3.org/1999/xhtml"><body><base href="https://example.org/forum/"/>` +
		`<iframe src="x.html"/><div id="empty"/><ol id="posts"><li>one<br/>two</li></ol></body></html>`
	for _, c := range []struct {
		name   string
		header http.Header
		body   string
	}{
		{"namespace and raw-text element", nil, page},
		{"XML declaration", nil, `<?xml version="1.0" encoding="UTF-8"?>` + page},
		{"media type", http.Header{"Content-Type": {"application/xhtml+xml; charset=utf-8"}}, page},
	} {
		d, err := New("https://example.org/forum/threads/1", c.header, []byte(c.body))
		if err != nil {
			t.Fatal(err)
		}
		ol := htmlquery.FindOne(d.Root, "//ol[@id='posts']")
		if ol == nil {
			t.Fatalf("%s: <ol id=posts> lost", c.name)
		}
		if p := ol.Parent; p == nil || p.Data != "body" {
			t.Errorf("%s: <ol> inside <%s>, want <body>", c.name, p.Data)
		}
		if n := len(htmlquery.Find(d.Root, "//li/br")); n != 1 {
			t.Errorf("%s: %d <br> in the list item, want 1", c.name, n)
		}
		if d.Base.String() != "https://example.org/forum/" {
			t.Errorf("%s: base %s", c.name, d.Base)
		}
	}
	// An HTML page keeps HTML parsing: <div/> opens a div there.
	d, err := New("https://example.org/", nil, []byte(`<html><body><div id="a"/><p>x</p></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	if htmlquery.FindOne(d.Root, "//div[@id='a']/p") == nil {
		t.Error("HTML page: <div/> was closed; browsers keep it open")
	}
}
