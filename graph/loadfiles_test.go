package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/mneme-archive/mneme/rdf"
)

// TestFileLoadChunkReuse refills a chunk buffer a worker has parsed, as
// the reader does with the buffers workers give back: subjects of the new
// text that sit where those of the old text sat, with the same length,
// are other terms and must get their own IDs.
func TestFileLoadChunkReuse(t *testing.T) {
	s := openTest(t, defaultHash)
	l, err := s.NewLoader(context.Background(), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := l.NewFileLoad(FileLoadOptions{})
	r.ctx, r.cancel = context.WithCancel(context.Background())
	defer r.cancel()
	src := &loadSource{path: "reuse.nt", scope: blankScope()}
	text := func(round int) []byte {
		var b []byte
		for i := range 20 {
			b = fmt.Appendf(b, "<http://e.org/r%d/s%02d> <http://e.org/p> \"v\" .\n", round, i)
		}
		return b
	}
	jobs := make(chan loadJob)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.work(jobs)
	}()
	buf := text(1)
	jobs <- loadJob{src: src, chunk: buf, line: 1}
	// Taken once the worker is done with the first chunk.
	jobs <- loadJob{src: src, chunk: []byte("# nothing\n"), line: 21}
	copy(buf, text(2))
	jobs <- loadJob{src: src, chunk: buf, line: 22}
	close(jobs)
	<-done
	if err := r.err(); err != nil {
		t.Fatal(err)
	}
	res, err := l.Commit()
	if err != nil {
		t.Fatal(err)
	}
	m := model{}
	for round := 1; round <= 2; round++ {
		for i := range 20 {
			m[rdf.Quad{S: rdf.IRI(fmt.Sprintf("http://e.org/r%d/s%02d", round, i)),
				P: rdf.IRI("http://e.org/p"), O: rdf.Literal("v", rdf.XSDString)}] = true
		}
	}
	if res.Added != uint64(len(m)) {
		t.Errorf("added %d quads, want %d", res.Added, len(m))
	}
	compareWithModel(t, s.View, m)
}
