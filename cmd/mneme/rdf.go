package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/rdfio"
)

func newRDFCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rdf",
		Short: "Check and convert RDF files (N-Triples, N-Quads, Turtle, TriG, RDF/XML)",
		Args:  subcommandArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newRDFValidateCmd(), newRDFConvertCmd())
	return cmd
}

func newRDFValidateCmd() *cobra.Command {
	var from, base string
	var maxErrors int
	cmd := &cobra.Command{
		Use:   "validate FILE...",
		Short: "Parse RDF files, count their triples or quads and report every syntax error",
		Long: `Parse each FILE (format from its extension, .gz read transparently; "-" is
standard input and needs --from) and print how many triples or quads it holds.

Every syntax error is reported as FILE:LINE:COLUMN: reason. Line-based formats
(N-Triples, N-Quads) go on after an error to report all of them; the others
stop at the first. The exit code is 1 when any file has an error.`,
		Example: `  mneme rdf validate data.nt.gz
  mneme rdf validate --max-errors 0 dump.nq
  cat x.ttl | mneme rdf validate --from turtle -`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, files []string) error {
			f, err := formatFlag(from)
			if err != nil {
				return err
			}
			if f == nil && slices.Contains(files, "-") {
				return usagef("reading standard input needs --from")
			}
			failed := 0
			for _, path := range files {
				if cmd.Context().Err() != nil {
					return cmd.Context().Err()
				}
				ok, err := validateFile(cmd, path, f, base, maxErrors)
				if err != nil {
					return err
				}
				if !ok {
					failed++
				}
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d files have errors", failed, len(files))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "input format (ntriples, nquads, turtle, trig, rdfxml); default: from the file name")
	cmd.Flags().StringVar(&base, "base", "", "base IRI for relative IRIs (default: the file's file:// IRI)")
	cmd.Flags().IntVar(&maxErrors, "max-errors", 100, "stop reporting a file's errors after this many (0: no limit)")
	return cmd
}

// validateFile reports whether path parsed without error; the returned
// error is for failures other than syntax errors (file missing, cancelled).
func validateFile(cmd *cobra.Command, path string, f *rdfio.Format, base string, maxErrors int) (bool, error) {
	in, err := rdfio.Open(path, f, rdf.ParseOptions{Base: base})
	if err != nil {
		return false, err
	}
	defer in.Close()
	ctx := cmd.Context()
	var count, errs int
	for {
		_, err := in.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *rdf.ParseError
			if !errors.As(err, &pe) {
				return false, fmt.Errorf("%s: %w", path, err)
			}
			errs++
			if maxErrors <= 0 || errs <= maxErrors {
				fmt.Fprintln(cmd.ErrOrStderr(), pe)
			}
			if !in.Format.LineBased {
				break
			}
			continue
		}
		count++
		if count&0xffff == 0 && ctx.Err() != nil {
			return false, ctx.Err()
		}
	}
	unit := "triple"
	if in.Format.Quads {
		unit = "quad"
	}
	if errs > maxErrors && maxErrors > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d more errors not shown\n", path, errs-maxErrors)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s: %s, %s\n", path, plural(count, unit), plural(errs, "error"))
	return errs == 0, nil
}

func newRDFConvertCmd() *cobra.Command {
	var from, to, base string
	var prefixes []string
	cmd := &cobra.Command{
		Use:   "convert IN OUT",
		Short: "Convert an RDF file to another serialization",
		Long: `Convert IN to OUT, streaming. Formats come from the file names (.nt, .nq,
.ttl, .trig, .rdf/.owl/.xml for RDF/XML input; a final .gz compresses or
decompresses) or from --from/--to; "-" is standard input or output and needs
the flag. Prefixes declared in a Turtle or TriG input are kept when writing
Turtle or TriG; --prefix adds more.

Converting stops at the first syntax error, reported as FILE:LINE:COLUMN.`,
		Example: `  mneme rdf convert data.nt.gz data.ttl
  mneme rdf convert --to nquads dump.trig -
  mneme rdf convert --prefix ub=http://www.lehigh.edu/~zhp2/2004/0401/univ-bench.owl# lubm.nt lubm.ttl`,
		Args: usageArgs(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			inFormat, err := formatFlag(from)
			if err != nil {
				return err
			}
			outFormat, err := formatFlag(to)
			if err != nil {
				return err
			}
			if args[0] == "-" && inFormat == nil {
				return usagef("reading standard input needs --from")
			}
			if args[1] == "-" && outFormat == nil {
				return usagef("writing standard output needs --to")
			}
			extra, err := parsePrefixes(prefixes)
			if err != nil {
				return err
			}
			n, err := convert(cmd, args[0], args[1], inFormat, outFormat, base, extra)
			if err != nil {
				return err
			}
			if args[1] != "-" {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s → %s: %d statements\n", args[0], args[1], n)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "input format (default: from IN's name)")
	cmd.Flags().StringVar(&to, "to", "", "output format (default: from OUT's name)")
	cmd.Flags().StringVar(&base, "base", "", "base IRI for relative IRIs in IN")
	cmd.Flags().StringArrayVar(&prefixes, "prefix", nil, "prefix for Turtle/TriG output as NAME=IRI (repeatable)")
	return cmd
}

func convert(cmd *cobra.Command, inPath, outPath string, inFormat, outFormat *rdfio.Format, base string, extra map[string]string) (int, error) {
	in, err := rdfio.Open(inPath, inFormat, rdf.ParseOptions{Base: base})
	if err != nil {
		return 0, err
	}
	defer in.Close()
	if outFormat == nil {
		if outFormat, _, err = rdfio.ForPath(outPath); err != nil {
			return 0, err
		}
	}
	// Read the first statement before creating the writer: the prefixes a
	// Turtle input declares up front are known by then.
	first, err := in.Next()
	if err != nil && err != io.EOF {
		return 0, err
	}
	pm := map[string]string{}
	if pr, ok := in.Reader.(rdf.PrefixReader); ok {
		maps.Copy(pm, pr.Prefixes())
	}
	maps.Copy(pm, extra)
	out, err := rdfio.Create(outPath, outFormat, rdf.WriteOptions{Prefixes: pm})
	if err != nil {
		return 0, err
	}
	n := 0
	for err == nil {
		if err = out.Write(first); err != nil {
			break
		}
		n++
		if n&0xffff == 0 && cmd.Context().Err() != nil {
			err = cmd.Context().Err()
			break
		}
		first, err = in.Next()
	}
	if err == io.EOF {
		err = nil
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}

func formatFlag(name string) (*rdfio.Format, error) {
	if name == "" {
		return nil, nil
	}
	f, err := rdfio.ByName(name)
	if err != nil {
		return nil, usageError{err}
	}
	return f, nil
}

func parsePrefixes(specs []string) (map[string]string, error) {
	m := map[string]string{}
	for _, s := range specs {
		name, iri, ok := strings.Cut(s, "=")
		if !ok || iri == "" {
			return nil, usagef("--prefix %q: want NAME=IRI", s)
		}
		m[name] = iri
	}
	return m, nil
}

// plural formats a count with its noun: "1 triple", "2 triples".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
