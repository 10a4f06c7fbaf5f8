// Command answercheck compares the answers the query benchmark saved for
// mneme, Virtuoso and Oxigraph (SPARQL JSON results, one NAME.json per
// query in one directory per system). Answers are compared as bags of
// solutions, so the order of rows does not count (the workloads make
// every ORDER BY total, so that a LIMIT picks the same rows everywhere);
// numbers are compared by value to 6 significant digits whatever their
// datatype (engines type AVG and float division differently), and a
// simple literal equals its xsd:string form. It prints one tab-separated
// line per query of the first directory: name and verdict, one of
//
//	agree            all the systems that answered agree
//	agree V          mneme and Virtuoso agree, Oxigraph gave no answer
//	agree O          mneme and Oxigraph agree, Virtuoso gave no answer
//	DIFFERS (V = O)  mneme differs from the two peers, which agree
//	differs V        mneme agrees with Oxigraph, not with Virtuoso
//	differs O        mneme agrees with Virtuoso, not with Oxigraph
//	DIFFERS          all three differ
//	only mneme       no peer answered
//
// and exits 1 when some answer of mneme differs from peers that agree
// with each other.
//
// Usage: answercheck MNEME_DIR VIRTUOSO_DIR OXIGRAPH_DIR
package main

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/results"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: answercheck MNEME_DIR VIRTUOSO_DIR OXIGRAPH_DIR")
		os.Exit(2)
	}
	files, err := filepath.Glob(filepath.Join(os.Args[1], "*.json"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "answercheck:", err)
		os.Exit(2)
	}
	slices.Sort(files)
	bad := false
	for _, f := range files {
		name := filepath.Base(f)
		m, err := load(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "answercheck: %v\n", err)
			fmt.Printf("%s\tunreadable\n", strings.TrimSuffix(name, ".json"))
			continue
		}
		v, _ := load(filepath.Join(os.Args[2], name))
		o, _ := load(filepath.Join(os.Args[3], name))
		verdict := judge(m, v, o)
		if verdict == "DIFFERS (V = O)" {
			bad = true
		}
		fmt.Printf("%s\t%s\n", strings.TrimSuffix(name, ".json"), verdict)
	}
	if bad {
		os.Exit(1)
	}
}

// judge compares mneme's canonical answer m with Virtuoso's v and
// Oxigraph's o ("" when the system gave none).
func judge(m, v, o string) string {
	switch {
	case v == "" && o == "":
		return "only mneme"
	case v == "":
		return pick(m == o, "agree O", "differs O (no V)")
	case o == "":
		return pick(m == v, "agree V", "differs V (no O)")
	case m == v && m == o:
		return "agree"
	case v == o:
		return "DIFFERS (V = O)"
	case m == o:
		return "differs V"
	case m == v:
		return "differs O"
	}
	return "DIFFERS"
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// load reads a saved answer and returns its canonical form: the sorted
// lines of its solutions, each the sorted var=term pairs of its bound
// variables; "" when the file is missing or unreadable.
func load(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	r, err := results.ReadJSON(f, path)
	if err != nil {
		return "", err
	}
	if r.Ask {
		return "ask " + strconv.FormatBool(r.Boolean), nil
	}
	lines := make([]string, 0, len(r.Rows))
	var pairs []string
	for _, row := range r.Rows {
		pairs = pairs[:0]
		for i, t := range row {
			if !t.IsZero() {
				pairs = append(pairs, r.Vars[i]+"="+canonical(t))
			}
		}
		slices.Sort(pairs)
		lines = append(lines, strings.Join(pairs, " "))
	}
	slices.Sort(lines)
	return fmt.Sprintf("%d rows\n%s", len(lines), strings.Join(lines, "\n")), nil
}

// canonical writes t so that equal answers of different engines match:
// numbers by value, strings without their redundant xsd:string.
func canonical(t rdf.Term) string {
	if t.Kind == rdf.KindLiteral {
		if numeric(t.Datatype) {
			if r, ok := new(big.Rat).SetString(strings.TrimSpace(t.Value)); ok {
				f, _ := r.Float64()
				return "num:" + strconv.FormatFloat(f, 'g', 6, 64)
			}
			switch strings.TrimSpace(t.Value) {
			case "INF", "-INF", "NaN":
				return "num:" + t.Value
			}
		}
		if t.Datatype == "" {
			t.Datatype = rdf.XSDString
		}
	}
	return t.String()
}

func numeric(dt string) bool {
	const xsd = "http://www.w3.org/2001/XMLSchema#"
	switch strings.TrimPrefix(dt, xsd) {
	case "integer", "decimal", "float", "double", "int", "long", "short", "byte",
		"nonNegativeInteger", "positiveInteger", "nonPositiveInteger", "negativeInteger",
		"unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte":
		return strings.HasPrefix(dt, xsd)
	}
	return false
}
