package ntriples_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
)

// A loader can cut the input into chunks of complete lines, number their
// first lines with CountLines, and parse the chunks on several goroutines.
func ExampleChunkParser() {
	input := "<http://example.org/a> <http://example.org/p> \"1\" .\n" +
		"<http://example.org/b> <http://example.org/p> \"2\" .\n" +
		"<http://example.org/c> <http://example.org/p> oops .\n" +
		"<http://example.org/d> <http://example.org/p> \"4\" .\n"

	type chunk struct {
		data      []byte
		firstLine int
	}
	var chunks []chunk
	c := ntriples.NewChunker(strings.NewReader(input))
	line := 1
	for {
		data, err := c.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		chunks = append(chunks, chunk{bytes.Clone(data), line}) // the Chunker reuses its buffer
		line += ntriples.CountLines(data)
	}
	// Split the one small chunk further by line, as a loader would split
	// a big file, so that each goroutine gets one line.
	var parts []chunk
	for _, ch := range chunks {
		for i, l := range bytes.SplitAfter(ch.data, []byte("\n")) {
			if len(l) > 0 {
				parts = append(parts, chunk{l, ch.firstLine + i})
			}
		}
	}

	results := make([][]string, len(parts))
	var wg sync.WaitGroup
	for i, part := range parts {
		wg.Go(func() {
			p := ntriples.NewChunkParser(ntriples.NTriples, rdf.ParseOptions{Name: "data.nt"})
			p.Reset(part.data, part.firstLine)
			for {
				q, err := p.Next()
				if err == io.EOF {
					return
				}
				if err != nil {
					results[i] = append(results[i], err.Error())
					continue
				}
				results[i] = append(results[i], q.O.Value)
			}
		})
	}
	wg.Wait()
	fmt.Println(results)
	// Output:
	// [[1] [2] [data.nt:3:47: expected an object (IRI, blank node or literal), found 'o'] [4]]
}
