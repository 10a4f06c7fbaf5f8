package apierr

import (
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	u, _ := url.Parse("https://user:pw@h.example/api?q=a+b&access_token=s3cret&Signature=x&limit=2")
	got := RedactURL(u)
	if strings.Contains(got, "s3cret") || strings.Contains(got, "pw@") || !strings.Contains(got, "access_token=redacted") ||
		!strings.Contains(got, "Signature=redacted") || !strings.Contains(got, "limit=2") || !strings.Contains(got, "q=a+b") {
		t.Fatal(got)
	}
	u, _ = url.Parse("https://h.example/api?q=a%2Cb")
	if got := RedactURL(u); got != "https://h.example/api?q=a%2Cb" {
		t.Fatalf("a URL without credentials changed: %s", got)
	}
}

func TestWrapScrubs(t *testing.T) {
	creds := map[string]string{"token": "abc/def+ghi", "short": "ab"}
	tr := &Tracker{}
	tr.set(Exchange{Method: "GET", URL: "https://h.example/x", Status: 200, ContentType: "text/html"})
	err := tr.Wrap("p", errors.Join(errors.New("echo abc/def+ghi and abc%2Fdef%2Bghi"), io.ErrUnexpectedEOF), creds)
	msg := err.Error()
	if strings.Contains(msg, "abc/def") || strings.Contains(msg, "abc%2F") || !strings.Contains(msg, "p: GET https://h.example/x: 200 OK: ") ||
		!strings.Contains(msg, "text/html, not JSON") || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatal(msg)
	}
}
