package w3c

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/turtle"
)

// Load reads the Turtle manifest at path and, recursively, the manifests
// it includes (mf:include). Files are read with their file: IRI as base,
// so mf:action and mf:result nodes name local files (Node.Path).
func Load(path string) (*Manifest, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return load(abs, "", map[string]bool{})
}

func load(path, inheritedBase string, loading map[string]bool) (*Manifest, error) {
	if loading[path] {
		return nil, fmt.Errorf("%s: manifest includes itself", path)
	}
	loading[path] = true
	defer delete(loading, path)
	quads, err := readTurtle(path, fileIRI(path))
	if err != nil {
		return nil, err
	}
	m, err := build(path, NewGraph(quads), inheritedBase)
	if err != nil {
		return nil, err
	}
	for _, list := range m.All(MF + "include") {
		for _, inc := range list.List() {
			p := inc.Path()
			if p == "" {
				return nil, fmt.Errorf("%s: mf:include %s is not a local file", path, inc.Term)
			}
			childBase := ""
			if m.AssumedTestBase != "" {
				rel, err := filepath.Rel(filepath.Dir(path), filepath.Dir(p))
				if err == nil && rel != "." {
					childBase = m.AssumedTestBase + filepath.ToSlash(rel) + "/"
				} else if err == nil {
					childBase = m.AssumedTestBase
				}
			}
			child, err := load(p, childBase, loading)
			if err != nil {
				return nil, err
			}
			m.Includes = append(m.Includes, child)
		}
	}
	return m, nil
}

// readTurtle parses the Turtle file at path with base as base IRI.
func readTurtle(path, base string) ([]rdf.Quad, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Collect(turtle.NewReader(f, rdf.ParseOptions{Name: path, Base: base}))
}

// Collect reads r to its end and returns its quads, cloned.
func Collect(r rdf.Reader) ([]rdf.Quad, error) {
	var out []rdf.Quad
	for {
		q, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, q.Clone())
	}
}
