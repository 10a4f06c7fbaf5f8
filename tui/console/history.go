package console

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// maxHistory is how many queries the history keeps; loading a longer
// file rewrites it with the newest ones.
const maxHistory = 500

// histEntry is one line of the history file (JSON lines, since queries
// span lines).
type histEntry struct {
	Query string `json:"query"`
}

// loadHistory reads the history file, oldest first; a missing file is an
// empty history.
func loadHistory(path string) ([]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		var e histEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return out, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		out = append(out, e.Query)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) > maxHistory {
		out = out[len(out)-maxHistory:]
		return out, rewriteHistory(path, out)
	}
	return out, nil
}

// appendHistory adds one query at the end of the file: a single write in
// append mode, so two TUIs on one data folder do not interleave lines.
func appendHistory(path, query string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	line, err := json.Marshal(histEntry{Query: query})
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// rewriteHistory replaces the file with queries, atomically.
func rewriteHistory(path string, queries []string) error {
	var b strings.Builder
	for _, q := range queries {
		line, err := json.Marshal(histEntry{Query: q})
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return writeAtomic(path, b.String())
}

// writeAtomic writes a file through a temporary one and a rename.
func writeAtomic(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(content)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
