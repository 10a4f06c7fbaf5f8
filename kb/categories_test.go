package kb

import (
	"maps"
	"slices"
	"testing"
)

// TestTechnologyCategories checks that every technology the fingerprints
// name an application gets a type, its category's generic one, and that
// each technology the knowledge base files under a category of its own
// (techCategories) is one the fingerprints have: a slug they lack would
// silently name nothing.
func TestTechnologyCategories(t *testing.T) {
	fp := loadFingerprints(t)
	bySlug := map[string]bool{}
	perCategory := map[string]int{}
	for _, m := range fp.Technologies() {
		bySlug[m.Slug] = true
		c := TechCategory(&m)
		if c == "" {
			continue
		}
		perCategory[c]++
		if Generic(c) == nil {
			t.Errorf("%s (%s): category %q has no generic type", m.Name, m.Slug, c)
		}
	}
	for _, slug := range slices.Sorted(maps.Keys(techCategories)) {
		if !bySlug[slug] {
			t.Errorf("techCategories names %q, which no fingerprint technology is", slug)
		}
	}
	for _, c := range []string{"blog", "forum", "wiki", "cms"} {
		if perCategory[c] == 0 {
			t.Errorf("no technology of category %s", c)
		}
	}
	t.Logf("technologies naming an application, by category: %v", perCategory)
}
