package turtle

import (
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// generator is an io.Reader producing head, then n items of exactly the
// same length, then tail, without ever holding the document. It counts
// the bytes handed out so a test can see how far ahead the parser read.
type generator struct {
	head, tail string
	item       func(i int) string // each result must have the same length
	n          int

	i        int
	pending  string
	produced int64
	doneTail bool
}

func (g *generator) Read(p []byte) (int, error) {
	total := 0
	for len(p) > 0 {
		if g.pending == "" {
			switch {
			case g.head != "":
				g.pending, g.head = g.head, ""
			case g.i < g.n:
				g.pending = g.item(g.i)
				g.i++
			case !g.doneTail:
				g.pending, g.doneTail = g.tail, true
			default:
				if total == 0 {
					return 0, io.EOF
				}
				return total, nil
			}
		}
		c := copy(p, g.pending)
		g.pending = g.pending[c:]
		p = p[c:]
		total += c
		g.produced += int64(c)
	}
	return total, nil
}

// TestStreamingBoundedMemory parses generated documents of a million
// triples in three shapes (many statements, one statement with a huge
// object list, one huge collection). Every triple must come out while the
// parser has read at most its bufio buffer (plus one item) past the text
// of that triple, and the live heap must not grow with the document.
func TestStreamingBoundedMemory(t *testing.T) {
	const n = 1_000_000
	shapes := []struct {
		name string
		gen  generator
		// index returns the item number a triple belongs to, or -1.
		index func(q rdf.Quad) int
		// triples is the number of triples the document holds.
		triples int
	}{
		{"statements", generator{
			head: "@prefix ex: <http://ex/> .\n",
			item: func(i int) string { return fmt.Sprintf("ex:s%08d ex:p %08d .\n", i, i) },
			n:    n,
		}, func(q rdf.Quad) int { return atoi(q.O.Value) }, n},
		{"object list", generator{
			head: "<http://ex/s> <http://ex/p> 0",
			item: func(i int) string { return fmt.Sprintf(", <http://ex/o%08d>", i) },
			tail: " .\n",
			n:    n,
		}, func(q rdf.Quad) int {
			if q.O.IsIRI() {
				return atoi(strings.TrimPrefix(q.O.Value, "http://ex/o"))
			}
			return -1
		}, n + 1},
		{"collection", generator{
			head: "<http://ex/s> <http://ex/p> (",
			item: func(i int) string { return fmt.Sprintf(" %08d", i) },
			tail: " ) .\n",
			n:    n / 2,
		}, func(q rdf.Quad) int {
			if q.O.IsLiteral() {
				return atoi(q.O.Value)
			}
			return -1
		}, n + 1},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			g := sh.gen
			itemLen := int64(len(g.item(0)))
			headLen := int64(len(g.head))
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			r := NewReader(&g, rdf.ParseOptions{Name: sh.name})
			count, maxAhead := 0, int64(0)
			for {
				q, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				count++
				if i := sh.index(q); i >= 0 {
					end := headLen + int64(i+1)*itemLen // where item i ends
					if ahead := g.produced - end; ahead > maxAhead {
						maxAhead = ahead
					}
				}
				if count == sh.triples/2 {
					runtime.GC()
					var mid runtime.MemStats
					runtime.ReadMemStats(&mid)
					if grown := int64(mid.HeapAlloc) - int64(before.HeapAlloc); grown > 4<<20 {
						t.Errorf("live heap grew by %d bytes halfway through the document", grown)
					}
				}
			}
			if count != sh.triples {
				t.Fatalf("%d triples, want %d", count, sh.triples)
			}
			if limit := int64(bufSize) + itemLen + int64(len(g.tail)); maxAhead > limit {
				t.Errorf("parser read up to %d bytes past a triple before handing it out, want at most %d", maxAhead, limit)
			}
			if g.produced < headLen+int64(g.n)*itemLen {
				t.Fatalf("generator produced only %d bytes", g.produced)
			}
		})
	}
}

func atoi(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return v
}
