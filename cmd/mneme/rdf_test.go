package main

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/internal/testenv"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/rdfio"
)

const sampleTurtle = `@prefix ex: <http://example.org/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
ex:alice a foaf:Person ; foaf:name "Alice"@en , "Alicia"@es ; foaf:knows [ foaf:name "Bob" ] .
ex:bob foaf:age 42 .
`

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if strings.HasSuffix(name, ".gz") {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		zw := gzip.NewWriter(f)
		zw.Write([]byte(content))
		zw.Close()
		f.Close()
		return p
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readAll(t *testing.T, path string) []rdf.Quad {
	t.Helper()
	in, err := rdfio.Open(path, nil, rdf.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var qs []rdf.Quad
	for {
		q, err := in.Next()
		if err != nil {
			if err == io.EOF {
				return qs
			}
			t.Fatalf("%s: %v", path, err)
		}
		qs = append(qs, q.Clone())
	}
}

func TestValidateCountsAndReportsEveryError(t *testing.T) {
	good := writeFile(t, "good.ttl.gz", sampleTurtle)
	code, out, errOut := mneme(t, "", "rdf", "validate", good)
	if code != 0 || !strings.Contains(out, "good.ttl.gz: 6 triples, 0 errors") {
		t.Fatalf("good file: exit %d, out %q, err %q", code, out, errOut)
	}
	bad := writeFile(t, "bad.nt", "<http://a> <http://b> <http://c> .\n"+
		"<http://a> <http://b> \"unterminated .\n"+
		"<http://a> <http://b> <http://c> .\n"+
		"_:x <http://b> \"v\"@ .\n")
	code, out, errOut = mneme(t, "", "rdf", "validate", bad)
	if code != 1 {
		t.Fatalf("bad file: exit %d, want 1", code)
	}
	if !strings.Contains(out, "bad.nt: 2 triples, 2 errors") {
		t.Errorf("bad file summary: %q", out)
	}
	for _, pos := range []string{bad + ":2:", bad + ":4:"} {
		if !strings.Contains(errOut, pos) {
			t.Errorf("stderr lacks an error at %s: %q", pos, errOut)
		}
	}
}

func TestValidateStdinNeedsFormat(t *testing.T) {
	code, out, _ := mneme(t, "", "rdf", "validate", "-")
	if code != 2 {
		t.Fatalf("validate - without --from: exit %d (%q), want 2", code, out)
	}
}

func TestValidateMissingFile(t *testing.T) {
	code, _, errOut := mneme(t, "", "rdf", "validate", filepath.Join(t.TempDir(), "none.nt"))
	if code != 1 || !strings.Contains(errOut, "none.nt") {
		t.Fatalf("missing file: exit %d, err %q", code, errOut)
	}
}

func TestConvertRoundTripsThroughEveryWritableFormat(t *testing.T) {
	src := writeFile(t, "in.ttl", sampleTurtle)
	want := readAll(t, src)
	dir := t.TempDir()
	for _, name := range []string{"out.nt", "out.nq.gz", "out.ttl", "out.trig"} {
		out := filepath.Join(dir, name)
		if code, _, errOut := mneme(t, "", "rdf", "convert", src, out); code != 0 {
			t.Fatalf("convert to %s: exit %d: %s", name, code, errOut)
		}
		if got := readAll(t, out); !rdf.Isomorphic(got, want) {
			t.Errorf("%s is not isomorphic to the input:\n%v", name, got)
		}
	}
	ttl, _ := os.ReadFile(filepath.Join(dir, "out.ttl"))
	if !strings.Contains(string(ttl), "@prefix foaf: <http://xmlns.com/foaf/0.1/>") || !strings.Contains(string(ttl), "foaf:name") {
		t.Errorf("Turtle output lost the input's prefixes:\n%s", ttl)
	}
}

func TestConvertNamedGraphToNTriplesFails(t *testing.T) {
	src := writeFile(t, "in.nq", "<http://a> <http://b> <http://c> <http://g> .\n")
	code, _, errOut := mneme(t, "", "rdf", "convert", src, filepath.Join(t.TempDir(), "out.nt"))
	if code != 1 || !strings.Contains(errOut, "N-Quads") {
		t.Fatalf("named graph to N-Triples: exit %d, err %q", code, errOut)
	}
}

func TestConvertSyntaxErrorHasPosition(t *testing.T) {
	src := writeFile(t, "in.ttl", "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c ;\n  ex:d .\n")
	code, _, errOut := mneme(t, "", "rdf", "convert", src, filepath.Join(t.TempDir(), "out.nt"))
	if code != 1 || !strings.Contains(errOut, src+":3:") {
		t.Fatalf("syntax error: exit %d, err %q", code, errOut)
	}
}

func TestValidateLUBM8(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 1M triples")
	}
	path := testenv.Path(t, "data", "bench", "lubm", "lubm-univ8-seed0.nt.gz")
	code, out, errOut := mneme(t, "", "rdf", "validate", path)
	if code != 0 || !strings.Contains(out, ": 1000426 triples, 0 errors") {
		t.Fatalf("LUBM(8): exit %d, out %q, err %q", code, out, errOut)
	}
}
