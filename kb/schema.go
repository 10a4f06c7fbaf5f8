package kb

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mneme-archive/mneme/kb/xpath"
)

// The file format, as decoded from YAML. Scalars that later checks report
// on carry their position (str); everything else decodes strictly, so an
// unknown key is an error with its line.
type fileType struct {
	Type     str    `yaml:"type"`
	Name     str    `yaml:"name"`
	Category str    `yaml:"category"`
	Website  string `yaml:"website"`
	Detect   []str  `yaml:"detect"`
	// SiteFiles are path parts under which the application serves a
	// site's own files (Type.SiteFiles).
	SiteFiles []str       `yaml:"site_files"`
	Avoid     []str       `yaml:"avoid"`
	Levels    []fileLevel `yaml:"levels"`
}

type fileLevel struct {
	Name     str           `yaml:"name"`
	Kind     str           `yaml:"kind"`
	Detect   []str         `yaml:"detect"`
	Navigate []fileNav     `yaml:"navigate"`
	Extract  []fileExtract `yaml:"extract"`
}

type fileNav struct {
	Select   strs `yaml:"select"`
	Target   str  `yaml:"target"`
	Optional bool `yaml:"optional"`
}

type fileExtract struct {
	Object   str             `yaml:"object"`
	Records  str             `yaml:"records"`
	Fields   map[string]strs `yaml:"fields"`
	Optional []str           `yaml:"optional"`
}

// str is a scalar with its position in the file; Shift is where its
// value starts after Col (1 past an opening quote), -1 when the value is
// not written as is on one line (block scalars, escapes, line folding).
type str struct {
	V         string
	Line, Col int
	Shift     int
}

func scalar(n *yaml.Node) str {
	s := str{V: n.Value, Line: n.Line, Col: n.Column, Shift: -1}
	switch n.Style {
	case 0:
		if !strings.Contains(n.Value, "\n") {
			s.Shift = 0
		}
	case yaml.SingleQuotedStyle:
		if !strings.ContainsAny(n.Value, "'\n") {
			s.Shift = 1
		}
	case yaml.DoubleQuotedStyle:
		if !strings.ContainsFunc(n.Value, func(r rune) bool { return r == '\\' || r == '"' || r < ' ' }) {
			s.Shift = 1
		}
	}
	return s
}

func (s *str) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: expected a single value, found a %s", n.Line, kindName(n.Kind))}}
	}
	*s = scalar(n)
	return nil
}

// strs is one or several alternative XPath expressions: a scalar or a
// sequence of scalars.
type strs []str

func (s *strs) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*s = strs{scalar(n)}
		return nil
	case yaml.SequenceNode:
		out := make(strs, 0, len(n.Content))
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: expected an XPath expression, found a %s", c.Line, kindName(c.Kind))}}
			}
			out = append(out, scalar(c))
		}
		*s = out
		return nil
	}
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: expected an XPath expression or a list of them, found a %s", n.Line, kindName(n.Kind))}}
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	}
	return "value"
}

// Error is one problem in a knowledge-base file, printed as
// file:line:column: message.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Errors is every problem found in one file.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

var (
	slugRE     = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	yamlLineRE = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	// The decoder's message for a key the format does not have.
	unknownKeyRE = regexp.MustCompile(`^field (\S+) not found in type`)
)

// Categories of application types.
var categories = []string{"blog", "forum", "wiki", "cms"}

// ParseType reads one application type from a YAML file (name is used in
// errors) and checks it: every required key present, no unknown key,
// every XPath valid, every target level defined, extraction only on
// terminal levels. All problems are returned together as Errors.
func ParseType(name string, r io.Reader) (*Type, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var f fileType
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, yamlErrors(name, err)
	}
	c := &checker{file: name}
	t := c.check(&f)
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return t, nil
}

// yamlErrors turns the decoder's "line N: msg" errors into Errors.
func yamlErrors(file string, err error) error {
	if errors.Is(err, io.EOF) {
		return Errors{{File: file, Line: 1, Msg: "empty file"}}
	}
	var te *yaml.TypeError
	var lines []string
	if errors.As(err, &te) {
		lines = te.Errors
	} else {
		lines = []string{err.Error()}
	}
	var out Errors
	for _, l := range lines {
		e := &Error{File: file, Line: 1, Msg: l}
		if m := yamlLineRE.FindStringSubmatch(l); m != nil {
			fmt.Sscan(m[1], &e.Line)
			e.Msg = m[2]
		}
		if m := unknownKeyRE.FindStringSubmatch(e.Msg); m != nil {
			e.Msg = fmt.Sprintf("unknown key %q", m[1])
		}
		out = append(out, e)
	}
	return out
}

type checker struct {
	file string
	errs Errors
}

func (c *checker) errorf(at str, format string, args ...any) {
	c.errs = append(c.errs, &Error{File: c.file, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(format, args...)})
}

// need reports a missing key at the position of the mapping holding it.
func (c *checker) need(s str, key string, line int) bool {
	if strings.TrimSpace(s.V) == "" {
		c.errs = append(c.errs, &Error{File: c.file, Line: line, Msg: fmt.Sprintf("missing %q", key)})
		return false
	}
	return true
}

func (c *checker) xpath(s str) *Pattern {
	e, err := xpath.Compile(s.V)
	var se *xpath.SyntaxError
	switch {
	case errors.As(err, &se) && s.Shift >= 0:
		// Point at the offending character in the file.
		at := s
		at.Col += s.Shift + se.Col - 1
		c.errorf(at, "invalid XPath: %s in %q", se.Msg, s.V)
		return nil
	case err != nil:
		c.errorf(s, "invalid XPath: %v in %q", err, s.V)
		return nil
	}
	return &Pattern{Expr: e, Line: s.Line}
}

func (c *checker) xpaths(list []str) []*Pattern {
	var out []*Pattern
	for _, s := range list {
		if p := c.xpath(s); p != nil {
			out = append(out, p)
		}
	}
	return out
}

func (c *checker) check(f *fileType) *Type {
	t := &Type{Website: f.Website}
	if c.need(f.Type, "type", 1) {
		if !slugRE.MatchString(f.Type.V) {
			c.errorf(f.Type, "type %q: use lower-case letters, digits and '-'", f.Type.V)
		}
		t.ID = f.Type.V
	}
	if c.need(f.Name, "name", 1) {
		t.Name = f.Name.V
	}
	if c.need(f.Category, "category", 1) {
		if !slices.Contains(categories, f.Category.V) {
			c.errorf(f.Category, "category %q: expected one of %s", f.Category.V, strings.Join(categories, ", "))
		}
		t.Category = f.Category.V
	}
	if len(f.Detect) == 0 {
		c.errs = append(c.errs, &Error{File: c.file, Line: 1, Msg: `missing "detect": at least one pattern identifies the type`})
	}
	t.Detect = c.xpaths(f.Detect)
	for _, sf := range f.SiteFiles {
		if !strings.HasPrefix(sf.V, "/") || !strings.HasSuffix(sf.V, "/") || strings.ContainsAny(sf.V, `'"<> `) {
			c.errorf(sf, "site_files %q: a path part, written /like/this/", sf.V)
			continue
		}
		t.SiteFiles = append(t.SiteFiles, siteFiles(sf.V, sf.Line))
	}
	t.Avoid = c.xpaths(f.Avoid)
	if len(f.Levels) == 0 {
		c.errs = append(c.errs, &Error{File: c.file, Line: 1, Msg: `missing "levels"`})
	}
	names := map[string]bool{}
	for _, fl := range f.Levels {
		if fl.Name.V != "" {
			if names[fl.Name.V] {
				c.errorf(fl.Name, "level %q defined twice", fl.Name.V)
			}
			names[fl.Name.V] = true
		}
	}
	for i := range f.Levels {
		if l := c.level(&f.Levels[i], names); l != nil {
			t.Levels = append(t.Levels, l)
		}
	}
	return t
}

func (c *checker) level(fl *fileLevel, names map[string]bool) *Level {
	line := fl.Name.Line
	if line == 0 {
		line = fl.Kind.Line
	}
	if !c.need(fl.Name, "name", line) {
		return nil
	}
	l := &Level{Name: fl.Name.V}
	switch fl.Kind.V {
	case "terminal":
		l.Terminal = true
		if len(fl.Extract) == 0 {
			c.errorf(fl.Name, "terminal level %q has no extract actions", l.Name)
		}
	case "intermediate":
		if len(fl.Extract) > 0 {
			c.errorf(fl.Kind, "intermediate level %q only navigates: move its extract actions to a terminal level", l.Name)
		}
	case "":
		c.errorf(fl.Name, "level %q: missing \"kind\" (intermediate or terminal)", l.Name)
	default:
		c.errorf(fl.Kind, "kind %q: expected intermediate or terminal", fl.Kind.V)
	}
	if len(fl.Detect) == 0 {
		c.errorf(fl.Name, "level %q: missing \"detect\"", l.Name)
	}
	l.Detect = c.xpaths(fl.Detect)
	for _, fn := range fl.Navigate {
		nav := &Navigation{Optional: fn.Optional}
		if len(fn.Select) == 0 {
			c.errorf(fn.Target, "navigation action: missing \"select\"")
		}
		nav.Select = c.xpaths(fn.Select)
		if c.need(fn.Target, "target", fl.Name.Line) {
			if !names[fn.Target.V] {
				c.errorf(fn.Target, "target level %q is not defined", fn.Target.V)
			}
			nav.Target = fn.Target.V
		}
		l.Navigate = append(l.Navigate, nav)
	}
	for i := range fl.Extract {
		if x := c.extract(&fl.Extract[i], fl.Name); x != nil {
			l.Extract = append(l.Extract, x)
		}
	}
	return l
}

func (c *checker) extract(fx *fileExtract, level str) *Extraction {
	x := &Extraction{Fields: map[Field][]*Pattern{}, Optional: map[Field]bool{}}
	if c.need(fx.Object, "object", level.Line) {
		x.Object = ObjectKind(fx.Object.V)
		if !slices.Contains(objectKinds, x.Object) {
			c.errorf(fx.Object, "object %q: expected one of %s", fx.Object.V, joinKinds(objectKinds))
		}
	}
	if c.need(fx.Records, "records", fx.Object.Line) {
		x.Records = c.xpath(fx.Records)
	}
	if len(fx.Fields) == 0 {
		c.errorf(fx.Object, "extract %q: missing \"fields\"", fx.Object.V)
	}
	keys := make([]string, 0, len(fx.Fields))
	for k := range fx.Fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		alts := fx.Fields[k]
		at := fx.Object
		if len(alts) > 0 {
			at = alts[0]
		}
		if !slices.Contains(fields, Field(k)) {
			c.errorf(at, "field %q: expected one of %s", k, joinKinds(fields))
			continue
		}
		if len(alts) == 0 {
			c.errorf(at, "field %q has no XPath", k)
		}
		x.Fields[Field(k)] = c.xpaths(alts)
	}
	for _, o := range fx.Optional {
		if _, ok := fx.Fields[o.V]; !ok {
			c.errorf(o, "optional field %q is not among the fields", o.V)
		}
		x.Optional[Field(o.V)] = true
	}
	return x
}

func joinKinds[T ~string](list []T) string {
	s := make([]string, len(list))
	for i, v := range list {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}
