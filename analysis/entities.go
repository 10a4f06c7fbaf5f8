package analysis

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mneme-archive/mneme/analysis/nlp"
)

// entitiesFile is the YAML form of known entities:
//
//	entities:
//	  - name: Northwind Trading
//	    type: organization            # person, place, organization or thing
//	    aliases: [Northwind]
//	    same-as: [https://www.wikidata.org/entity/Q123]
type entitiesFile struct {
	Entities []struct {
		Name    string   `yaml:"name"`
		Type    string   `yaml:"type"`
		Aliases []string `yaml:"aliases"`
		SameAs  []string `yaml:"same-as"`
	} `yaml:"entities"`
}

// LoadEntities reads known entities from a YAML file; errors name the
// file and line.
func LoadEntities(path string) ([]nlp.Known, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseEntities(b, path)
}

// ParseEntities reads known entities from YAML; name is the file's name
// in errors.
func ParseEntities(b []byte, name string) ([]nlp.Known, error) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var f entitiesFile
	if err := yaml.Unmarshal(b, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	lines := entityLines(&root)
	var out []nlp.Known
	for i, e := range f.Entities {
		at := name
		if i < len(lines) {
			at = fmt.Sprintf("%s:%d", name, lines[i])
		}
		if strings.TrimSpace(e.Name) == "" {
			return nil, fmt.Errorf("%s: an entity needs a name", at)
		}
		typ := strings.ToLower(strings.TrimSpace(e.Type))
		switch typ {
		case "", nlp.Thing:
			typ = nlp.Thing
		case nlp.Person, nlp.Place, nlp.Organization:
		case "organisation":
			typ = nlp.Organization
		default:
			return nil, fmt.Errorf("%s: entity %q: type %q: want person, place, organization or thing", at, e.Name, e.Type)
		}
		for _, s := range e.SameAs {
			if !strings.Contains(s, ":") || strings.ContainsAny(s, " <>\"{}|\\^`") {
				return nil, fmt.Errorf("%s: entity %q: same-as %q is not an IRI", at, e.Name, s)
			}
		}
		out = append(out, nlp.Known{Name: e.Name, Type: typ, Aliases: e.Aliases, SameAs: e.SameAs})
	}
	return out, nil
}

// entityLines returns the line of each item of the entities list.
func entityLines(root *yaml.Node) []int {
	if len(root.Content) == 0 {
		return nil
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "entities" {
			var out []int
			for _, it := range m.Content[i+1].Content {
				out = append(out, it.Line)
			}
			return out
		}
	}
	return nil
}
