package spec

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// fieldError is a problem with one field of a specification file, at its
// line, in the words of the file (field paths as written, kinds of value
// rather than Go types).
type fieldError struct {
	line  int
	field string // e.g. "politeness.hosts[0].valence"
	msg   string
}

func (e fieldError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("line %d: %s: %s", e.line, e.field, e.msg)
	}
	return e.field + ": " + e.msg
}

var (
	durationType  = reflect.TypeFor[Duration]()
	unmarshalType = reflect.TypeFor[yaml.Unmarshaler]()
)

// checkFields walks the document against the Spec's fields before it is
// decoded: every unknown key and every value of the wrong kind is
// reported with its line and field, and lines records the line of each
// field set, for Check's errors.
func checkFields(n *yaml.Node, t reflect.Type, field string, lines map[string]int, errs *[]error) {
	if n.Kind == yaml.DocumentNode {
		for _, c := range n.Content {
			checkFields(c, t, field, lines, errs)
		}
		return
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if field != "" {
		lines[field] = n.Line
	}
	bad := func(format string, args ...any) {
		*errs = append(*errs, fieldError{line: n.Line, field: field, msg: fmt.Sprintf(format, args...)})
	}
	if n.Tag == "!!null" {
		return // an empty value keeps the default
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == durationType {
		if n.Kind != yaml.ScalarNode {
			bad("want a duration such as \"3s\", \"500ms\" or a number of seconds")
		}
		return // Duration reads its own value and says what is wrong with it
	}
	if reflect.PointerTo(t).Implements(unmarshalType) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			bad("want a section of \"key: value\" lines, got %s", describeNode(n))
			return
		}
		known := yamlFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			sub := join(field, k.Value)
			ft, ok := known[k.Value]
			if !ok {
				names := slices.Sorted(func(yield func(string) bool) {
					for name := range known {
						if !yield(name) {
							return
						}
					}
				})
				msg := "unknown field"
				if near := nearest(k.Value, names); near != "" {
					msg += fmt.Sprintf(" (did you mean %s?)", near)
				}
				where := "the top level"
				if field != "" {
					where = field
				}
				*errs = append(*errs, fieldError{line: k.Line, field: sub,
					msg: msg + "; the fields of " + where + " are " + strings.Join(names, ", ")})
				continue
			}
			checkFields(v, ft, sub, lines, errs)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			bad("want a list ([a, b] or \"- a\" lines), got %s", describeNode(n))
			return
		}
		for i, c := range n.Content {
			checkFields(c, t.Elem(), field+"["+strconv.Itoa(i)+"]", lines, errs)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			bad("want a section of \"key: value\" lines, got %s", describeNode(n))
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			checkFields(n.Content[i+1], t.Elem(), join(field, n.Content[i].Value), lines, errs)
		}
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			bad("want true or false, got %s", describeNode(n))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			bad("want a whole number, got %s", describeNode(n))
		} else if t.Kind() >= reflect.Uint && strings.HasPrefix(n.Value, "-") {
			bad("want a whole number of at least 0, got %s", n.Value)
		}
	case reflect.Float32, reflect.Float64:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" && n.Tag != "!!float" {
			bad("want a number, got %s", describeNode(n))
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			bad("want a text, got %s", describeNode(n))
		}
	}
}

// yamlFields maps the YAML keys of a struct to their types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f.Type
	}
	return out
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

// describeNode says what a YAML value is, for errors.
func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a section"
	case yaml.SequenceNode:
		return "a list"
	}
	if n.Tag == "!!str" {
		return strconv.Quote(n.Value)
	}
	return n.Value
}

// nearest returns the name closest to key within two edits, or "".
func nearest(key string, names []string) string {
	best, dist := "", 3
	for _, n := range names {
		if d := editDistance(key, n); d < dist {
			best, dist = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
