package warc

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func BenchmarkScratchParts(b *testing.B) {
	exs := benchExchanges(b)
	var parts [3][][]byte
	for _, ex := range exs {
		recs, _, _ := ex.records()
		for i, r := range recs {
			var buf bytes.Buffer
			buf.Write(r.appendHeader(nil, "<urn:uuid:12345678-1234-1234-1234-123456789012>"))
			copyContent(&buf, r.block)
			buf.WriteString("\r\n\r\n")
			parts[i] = append(parts[i], buf.Bytes())
		}
	}
	for i, name := range []string{"response", "request", "metadata"} {
		for _, level := range []int{0, 1, -2} {
			b.Run(fmt.Sprint(name, level), func(b *testing.B) {
				gz, _ := gzip.NewWriterLevel(nil, level)
				var out bytes.Buffer
				var in, comp int64
				cpu := cpuTime()
				k := 0
				for b.Loop() {
					p := parts[i][k%len(parts[i])]
					k++
					out.Reset()
					gz.Reset(&out)
					gz.Write(p)
					gz.Close()
					in += int64(len(p))
					comp += int64(out.Len())
				}
				b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/1000/float64(b.N), "cpu-us")
				b.ReportMetric(float64(in)/float64(b.N), "in")
				b.ReportMetric(float64(comp)/float64(b.N), "out")
			})
		}
	}
}
