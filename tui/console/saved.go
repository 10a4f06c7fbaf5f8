package console

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Saved queries are files NAME.rq in one folder, so they can be edited,
// copied and run with other tools too.
const savedExt = ".rq"

// savedPath checks a name and returns its file.
func savedPath(dir, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("query name %q: use letters, digits, spaces, - and _ (no slashes, no leading dot)", name)
	}
	return filepath.Join(dir, strings.TrimSuffix(name, savedExt)+savedExt), nil
}

func saveQuery(dir, name, query string) (string, error) {
	p, err := savedPath(dir, name)
	if err != nil {
		return "", err
	}
	return p, writeAtomic(p, query)
}

// savedQuery is a saved query's name and text.
type savedQuery struct{ name, query string }

// listSaved reads every saved query, by name.
func listSaved(dir string) ([]savedQuery, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []savedQuery
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), savedExt)
		if !ok || e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, savedQuery{name, string(b)})
	}
	slices.SortFunc(out, func(a, b savedQuery) int { return strings.Compare(a.name, b.name) })
	return out, nil
}
