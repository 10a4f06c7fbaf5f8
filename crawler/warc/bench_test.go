package warc

import (
	"bytes"
	stdgzip "compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/mneme-archive/mneme/internal/shared"
)

// benchExchanges builds exchanges of real pages (../shared/data/aah-pages)
// cut to 45 KB, the size of a typical HTML page, so that compression sees
// real markup rather than generated repetition. Each carries its payload
// digest, as a fetcher hands it over.
func benchExchanges(b *testing.B) []Exchange {
	files, err := filepath.Glob(filepath.Join(shared.Path(b, "data", "aah-pages", "pages"), "*.html"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no pages: %v", err)
	}
	var exs []Exchange
	for i, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		body = body[:min(len(body), 45<<10)]
		url := fmt.Sprintf("http://site%d.example.org/page/%d.html", i%20, i)
		resp := fmt.Sprintf("HTTP/1.1 200 OK\r\nDate: Tue, 04 Mar 2025 05:06:07 GMT\r\nServer: nginx\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n", len(body))
		ex := Exchange{URL: url, IP: "127.0.0.1", Date: fetchTime,
			Request:  bytes.NewReader([]byte("GET " + url + " HTTP/1.1\r\nHost: example.org\r\nUser-Agent: mneme-bench\r\nAccept-Encoding: gzip\r\n\r\n")),
			Response: bytes.NewReader(append([]byte(resp), body...)),
		}
		if ex.PayloadDigest, err = PayloadDigest(ex.Response); err != nil {
			b.Fatal(err)
		}
		exs = append(exs, ex)
	}
	return exs
}

// BenchmarkWriteExchange writes request/response pairs of 45 KB pages into
// a temporary directory and reports CPU time, wall-clock rate and compressed
// bytes per exchange: from one goroutine at two gzip levels, with the payload
// digest computed here or given by the caller, and from 16 goroutines per
// core as crawl workers call it. Run with -benchtime 10000x for the
// 10,000-exchange figures in docs/benchmarks.md.
func BenchmarkWriteExchange(b *testing.B) {
	exs := benchExchanges(b)
	for _, bc := range []struct {
		name     string
		level    int
		given    bool
		parallel bool
	}{
		{"serial/level1", 1, false, false},
		{"serial/level6", 6, false, false},
		{"serial/level1/given-digest", 1, true, false},
		{"parallel/level1/given-digest", 1, true, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w, err := NewWriter(Config{Dir: b.TempDir(), CrawlID: "bench", GzipLevel: bc.level, Info: Info{Software: "mneme-bench"}})
			if err != nil {
				b.Fatal(err)
			}
			var next, written atomic.Int64
			write := func() error {
				ex := exs[(next.Add(1)-1)%int64(len(exs))]
				if !bc.given {
					ex.PayloadDigest = ""
				}
				c, err := w.WriteExchange(ex)
				written.Add(c.Response.Length + c.Request.Length)
				return err
			}
			b.SetBytes(exs[0].Response.Size())
			b.ReportAllocs()
			start, cpu := time.Now(), cpuTime()
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
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "exchanges/s")
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/exchange")
			b.ReportMetric(float64(written.Load())/float64(b.N), "gz-bytes/exchange")
		})
	}
}

// BenchmarkGzip compresses the benchmark's 45 KB pages one gzip member each,
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
		for _, level := range []int{1, 6} {
			b.Run(fmt.Sprintf("%s/level%d", bc.name, level), func(b *testing.B) {
				gz, err := bc.new(level)
				if err != nil {
					b.Fatal(err)
				}
				var out bytes.Buffer
				var in, compressed int64
				b.SetBytes(int64(len(pages[0])))
				cpu := cpuTime()
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
				b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(b.N), "cpu-µs/page")
				b.ReportMetric(100*float64(compressed)/float64(in), "%size")
			})
		}
	}
}

// cpuTime returns the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
