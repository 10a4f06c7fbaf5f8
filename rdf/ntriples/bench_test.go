package ntriples

import (
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/rdf"
)

// lubm8Triples is the number of triples of lubm-univ8-seed0.nt.gz (see
// the README of ../shared/data/bench).
const lubm8Triples = 1000426

// BenchmarkLUBM8 parses LUBM(8) with mneme's reader (from the file, from
// memory without I/O, from the gzipped file) and with raptor's rapper on
// the same uncompressed file, in triples/s.
func BenchmarkLUBM8(b *testing.B) {
	gz := testenv.Path(b, "data", "bench", "lubm", "lubm-univ8-seed0.nt.gz")
	plain := filepath.Join(b.TempDir(), "lubm-univ8-seed0.nt")
	size := decompress(b, gz, plain)

	b.Run("mneme", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			f := open(b, plain)
			checkCount(b, countQuads(b, NewReader(f, rdf.ParseOptions{Name: plain})))
			f.Close()
		}
		reportTriples(b)
	})
	b.Run("mneme-memory", func(b *testing.B) {
		data, err := os.ReadFile(plain)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(size)
		for b.Loop() {
			cp := NewChunkParser(NTriples, rdf.ParseOptions{Name: plain})
			cp.Reset(data, 1)
			checkCount(b, countQuads(b, cp))
		}
		reportTriples(b)
	})
	b.Run("mneme-gzip", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			f := open(b, gz)
			zr, err := gzip.NewReader(f)
			if err != nil {
				b.Fatal(err)
			}
			checkCount(b, countQuads(b, NewReader(zr, rdf.ParseOptions{Name: gz})))
			f.Close()
		}
		reportTriples(b)
	})
	b.Run("rapper", func(b *testing.B) {
		rapper, err := exec.LookPath("rapper")
		if err != nil {
			b.Skip("rapper is not installed (Debian: apt-get install raptor2-utils): skipping the comparison")
		}
		b.SetBytes(size)
		for b.Loop() {
			out, err := exec.Command(rapper, "-i", "ntriples", "-c", plain).CombinedOutput()
			if err != nil {
				b.Fatalf("rapper: %v\n%s", err, out)
			}
			m := regexp.MustCompile(`returned (\d+) triples`).FindSubmatch(out)
			if m == nil {
				b.Fatalf("rapper printed no triple count:\n%s", out)
			}
			n, _ := strconv.Atoi(string(m[1]))
			checkCount(b, n)
		}
		reportTriples(b)
	})
}

func decompress(b *testing.B, gz, dst string) int64 {
	in := open(b, gz)
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		b.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	n, err := io.Copy(out, zr)
	if err == nil {
		err = out.Close()
	}
	if err != nil {
		b.Fatal(err)
	}
	return n
}

func open(b *testing.B, path string) *os.File {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

func countQuads(b *testing.B, r rdf.Reader) int {
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

func checkCount(b *testing.B, n int) {
	if n != lubm8Triples {
		b.Fatalf("counted %d triples, want %d", n, lubm8Triples)
	}
}

func reportTriples(b *testing.B) {
	b.ReportMetric(float64(lubm8Triples)*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}
