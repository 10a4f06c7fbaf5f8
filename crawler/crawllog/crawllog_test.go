package crawllog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func sample() Entry {
	return Entry{
		Time:          time.Date(2025, 1, 1, 12, 0, 0, 123e6, time.UTC),
		Status:        200,
		Size:          51234,
		URI:           "http://example.com/a",
		HopPath:       "LLE",
		Via:           "http://example.com/",
		MimeType:      "text/html; charset=utf-8",
		Thread:        7,
		FetchBegin:    time.Date(2025, 1, 1, 12, 0, 0, 80e6, time.UTC),
		FetchDuration: 43 * time.Millisecond,
		Digest:        "sha1:4RBCJKZKZ3LNQRHOEWPJMDOSDGEOGBKW",
		Annotations:   []string{"duplicate:digest", "3t"},
	}
}

func TestFormatLayout(t *testing.T) {
	want := "2025-01-01T12:00:00.123Z   200      51234 http://example.com/a LLE http://example.com/ text/html #007 " +
		"20250101120000080+43 sha1:4RBCJKZKZ3LNQRHOEWPJMDOSDGEOGBKW - duplicate:digest,3t"
	if got := sample().String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	failed := Entry{Time: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), Status: -9998, Size: -1, URI: "http://example.com/private", Thread: 123}
	want = "2025-01-01T00:00:00.000Z -9998          - http://example.com/private - - no-type #123 - - - -"
	if got := failed.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRoundTrip(t *testing.T) {
	e := sample()
	e.MimeType = "text/html"
	e.SourceTag = "http://seed.example/"
	e.Extra = `{"warcFilename":"x.warc.gz"}`
	got, err := Parse(e.String())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, e) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, e)
	}
}

func TestHeritrixLineWithoutAnnotations(t *testing.T) {
	// Heritrix 3 ends a line without annotations after the source tag.
	line := "2025-01-01T12:00:00.123Z   404        162 http://example.com/x L http://example.com/ text/html #012 20250101120000001+5 sha1:AAAA - "
	e, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	if e.Status != 404 || e.Size != 162 || e.HopPath != "L" || e.Thread != 12 || e.FetchDuration != 5*time.Millisecond || e.Annotations != nil {
		t.Errorf("parsed %+v", e)
	}
}

func TestFieldsStayTokens(t *testing.T) {
	e := sample()
	e.Annotations = []string{"odd note, with spaces"}
	e.MimeType = ""
	got, err := Parse(e.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Annotations) != 1 || got.Annotations[0] != "odd_note__with_spaces" || got.MimeType != "no-type" {
		t.Errorf("annotations %q, mime %q", got.Annotations, got.MimeType)
	}
}

func TestParseErrors(t *testing.T) {
	good := strings.Fields(sample().String())
	for i, bad := range map[int]string{0: "yesterday", 1: "ok", 2: "-5", 7: "007", 8: "2025+1"} {
		f := append([]string(nil), good...)
		f[i] = bad
		_, err := Parse(strings.Join(f, " "))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Field != i+1 {
			t.Errorf("field %d = %q: error %v", i+1, bad, err)
		}
	}
	r := NewReader(strings.NewReader(sample().String()+"\n\nnot a crawl log line\n"), "crawl.log")
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err := r.Next()
	if err == nil || !strings.HasPrefix(err.Error(), "crawl.log:3: ") {
		t.Errorf("error %v, want one at crawl.log:3", err)
	}
}

func TestConcurrentWriters(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				e := sample()
				e.Thread = g
				e.URI = fmt.Sprintf("http://example.com/%d/%d", g, i)
				if err := w.Write(e); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	r := NewReader(&buf, "crawl.log")
	seen := map[string]bool{}
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if e.URI != fmt.Sprintf("http://example.com/%d/%s", e.Thread, strings.Split(e.URI, "/")[4]) {
			t.Fatalf("line mixes writers: %s", e)
		}
		seen[e.URI] = true
	}
	if len(seen) != writers*each {
		t.Errorf("read %d distinct lines, want %d", len(seen), writers*each)
	}
}

func BenchmarkAppend(b *testing.B) {
	e := sample()
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = Append(buf[:0], e)
	}
}

func TestBoundHopPath(t *testing.T) {
	long := strings.Repeat("L", 10) + strings.Repeat("R", 100)
	got := BoundHopPath(long)
	if want := "60+" + strings.Repeat("R", MaxHopPath); got != want {
		t.Errorf("BoundHopPath = %q, want %q", got, want)
	}
	if got := BoundHopPath("LLE"); got != "LLE" {
		t.Errorf("BoundHopPath(LLE) = %q", got)
	}
	line := Append(nil, Entry{Status: 302, URI: "http://a/", HopPath: long, Size: -1})
	if len(line) > 200 {
		t.Errorf("a line with a 110-hop path is %d bytes: %s", len(line), line)
	}
}
