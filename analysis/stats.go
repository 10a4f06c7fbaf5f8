package analysis

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// A mention with a compound score beyond ±neutral carries an opinion
// (VADER's own threshold for a positive or negative sentence); from
// ±strong a clear one.
const (
	neutral = 0.05
	strong  = 0.5
)

// parseTermCounts reads a mneme:termCounts literal.
func parseTermCounts(v string) map[string]int {
	m := map[string]int{}
	for _, f := range strings.Fields(v) {
		i := strings.LastIndexByte(f, ':')
		if i <= 0 {
			continue
		}
		n, err := strconv.Atoi(f[i+1:])
		if err != nil {
			continue
		}
		m[f[:i]] = n
	}
	return m
}

// entityKey returns the key (nlp.Key) an entity IRI was made from.
func entityKey(iri string) string {
	k, ok := strings.CutPrefix(iri, "urn:mneme:entity:")
	if !ok {
		return ""
	}
	if u, err := url.PathUnescape(k); err == nil {
		k = u
	}
	return strings.ReplaceAll(k, "_", " ")
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
