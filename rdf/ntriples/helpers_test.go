package ntriples

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// result is everything a reader produced: the quads (cloned) and the
// errors, each error in its place in the sequence.
type result struct {
	quads []rdf.Quad
	errs  []string
	seq   []string // quads and errors in order, as text
}

// readAll drains r. It fails the test when r makes no progress (more
// calls than input bytes plus one), which would be a hang.
func readAll(t testing.TB, r rdf.Reader, inputLen int) result {
	t.Helper()
	var res result
	for calls := 0; ; calls++ {
		if calls > inputLen+1 {
			t.Fatalf("reader made %d calls on %d bytes without reaching io.EOF", calls, inputLen)
		}
		q, err := r.Next()
		if err == io.EOF {
			return res
		}
		if err != nil {
			var pe *rdf.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is %T, not *rdf.ParseError: %v", err, err)
			}
			res.errs = append(res.errs, err.Error())
			res.seq = append(res.seq, "error "+err.Error())
			continue
		}
		res.quads = append(res.quads, q.Clone())
		res.seq = append(res.seq, q.String())
	}
}

// parse reads input whole with a reader of the given syntax.
func parse(t testing.TB, s Syntax, input string) result {
	t.Helper()
	return readAll(t, newReader(strings.NewReader(input), s, rdf.ParseOptions{Name: "in"}), len(input))
}
