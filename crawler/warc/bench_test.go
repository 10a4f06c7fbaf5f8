package warc

import (
	"bytes"
	stdgzip "compress/gzip"
	"fmt"
	"github.com/mneme-archive/mneme/internal/testenv"
	"io"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/mneme-archive/mneme/internal/synthweb"
)

// benchPages is how many distinct generated pages the benchmarks cycle through.
const benchPages = 500

// benchExchanges builds exchanges as the crawler hands them over for a crawl
// of internal/synthweb's generated site (the site of the crawl profiles in
// docs/benchmarks.md): a 20–50 KB HTML page behind the server's response
// head, the request as sent, the payload digest taken while reading, and a
// metadata record listing the page's 50–100 links and its embeds.
func benchExchanges(b *testing.B) []Exchange {
	site := synthweb.NewBigSite(synthweb.BigOptions{Pages: 20000})
	var exs []Exchange
	for i := range benchPages {
		page := 1 + i*37%(site.Options().Pages-1)
		url := "http://127.0.0.1:8080" + site.Path(page)
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, httptest.NewRequest("GET", site.Path(page), nil))
		body := rec.Body.Bytes()
		var head bytes.Buffer
		fmt.Fprintf(&head, "HTTP/1.1 200 OK\r\n")
		rec.Result().Header.Write(&head)
		fmt.Fprintf(&head, "Date: Tue, 04 Mar 2025 05:06:07 GMT\r\n\r\n")
		meta := &Metadata{Via: "http://127.0.0.1:8080" + site.Path((page-1)/4), HopPath: "LLLLLL", FetchTime: 3 * time.Millisecond}
		for _, t := range site.Links(page) {
			meta.Outlinks = append(meta.Outlinks, Outlink{URL: "http://127.0.0.1:8080" + site.Path(t), Hop: "L", Context: "a/@href"})
		}
		for _, e := range []string{"/static/css/site-1.css", "/static/css/site-2.css", "/static/js/app.js", "/static/img/7.png", "/static/img/31.png", "/static/img/52.png"} {
			meta.Outlinks = append(meta.Outlinks, Outlink{URL: "http://127.0.0.1:8080" + e, Hop: "E", Context: "img/@src"})
		}
		ex := Exchange{URL: url, IP: "127.0.0.1", Date: fetchTime,
			Request:  wire("GET " + site.Path(page) + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: mneme/0.1 (+https://example.org/bot)\r\nAccept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8\r\nAccept-Encoding: gzip\r\n\r\n"),
			Response: wire(head.String() + string(body)),
			Metadata: meta,
		}
		var err error
		if ex.PayloadDigest, err = PayloadDigest(ex.Response); err != nil {
			b.Fatal(err)
		}
		exs = append(exs, ex)
	}
	return exs
}

// wireBytes holds bytes as crawler/fetch's Buffer does, exposing them to
// the writer.
type wireBytes struct {
	*bytes.Reader
	b []byte
}

func wire(s string) wireBytes             { return wireBytes{bytes.NewReader([]byte(s)), []byte(s)} }
func (w wireBytes) Bytes() ([]byte, bool) { return w.b, true }

// BenchmarkWriteExchange writes captures of generated 20–50 KB pages (a
// response, its request and a metadata record each) into a temporary
// directory, as the crawler does: GroupSync, with a Sync every 2,048
// captures (the RDF writer's batch), from one goroutine and from 16 per
// core. It reports CPU time, wall-clock rate and the compressed bytes of
// the three records per capture. Close, which writes the CDXJ, is measured.
func BenchmarkWriteExchange(b *testing.B) {
	exs := benchExchanges(b)
	for _, bc := range []struct {
		name     string
		level    int
		parallel bool
	}{
		{"serial/level1", 1, false},
		{"parallel/level1", 1, true},
		{"parallel/level4", 4, true},
		{"parallel/level6", 6, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w, err := NewWriter(Config{Dir: b.TempDir(), CrawlID: "bench", GzipLevel: bc.level, GroupSync: true, Info: Info{Software: "mneme-bench"}})
			if err != nil {
				b.Fatal(err)
			}
			var next, written atomic.Int64
			write := func() error {
				n := next.Add(1)
				c, err := w.WriteExchange(exs[(n-1)%int64(len(exs))])
				written.Add(c.Response.Length + c.Request.Length + c.Metadata.Length)
				if err == nil && n%2048 == 0 {
					err = w.Sync()
				}
				return err
			}
			var in int64
			for _, ex := range exs {
				in += ex.Response.Size()
			}
			b.SetBytes(in / int64(len(exs)))
			b.ReportAllocs()
			start, cpu := time.Now(), testenv.CPUTime()
			if bc.parallel {
				b.SetParallelism(16)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if err := write(); err != nil {
							b.Error(err)
							return
						}
					}
				})
			} else {
				for b.Loop() {
					if err := write(); err != nil {
						b.Fatal(err)
					}
				}
			}
			if err := w.Sync(); err != nil {
				b.Fatal(err)
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "exchanges/s")
			b.ReportMetric(float64((testenv.CPUTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/exchange")
			b.ReportMetric(float64(written.Load())/float64(b.N), "gz-bytes/exchange")
		})
	}
}

// BenchmarkGzip compresses the benchmark's responses one gzip member each,
// as the writer does, with compress/gzip and klauspost/compress at levels 1
// and 6 (each library's default): the comparison behind DefaultGzipLevel.
func BenchmarkGzip(b *testing.B) {
	exs := benchExchanges(b)
	pages := make([][]byte, len(exs))
	for i, ex := range exs {
		pages[i] = make([]byte, ex.Response.Size())
		ex.Response.ReadAt(pages[i], 0)
	}
	type resetter interface {
		io.WriteCloser
		Reset(io.Writer)
	}
	for _, bc := range []struct {
		name string
		new  func(level int) (resetter, error)
	}{
		{"stdlib", func(l int) (resetter, error) { return stdgzip.NewWriterLevel(nil, l) }},
		{"klauspost", func(l int) (resetter, error) { return gzip.NewWriterLevel(nil, l) }},
	} {
		for _, level := range []int{1, 4, 6} {
			b.Run(fmt.Sprintf("%s/level%d", bc.name, level), func(b *testing.B) {
				gz, err := bc.new(level)
				if err != nil {
					b.Fatal(err)
				}
				var out bytes.Buffer
				var in, compressed int64
				b.SetBytes(int64(len(pages[0])))
				cpu := testenv.CPUTime()
				i := 0
				for b.Loop() {
					page := pages[i%len(pages)]
					i++
					out.Reset()
					gz.Reset(&out)
					if _, err := gz.Write(page); err != nil {
						b.Fatal(err)
					}
					if err := gz.Close(); err != nil {
						b.Fatal(err)
					}
					in += int64(len(page))
					compressed += int64(out.Len())
				}
				b.ReportMetric(float64((testenv.CPUTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/page")
				b.ReportMetric(100*float64(compressed)/float64(in), "%size")
			})
		}
	}
}
