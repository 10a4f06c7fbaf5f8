package crawllog

import "testing"

// FuzzParse checks that any line either fails to parse or reads back the same
// after being written again.
func FuzzParse(f *testing.F) {
	f.Add(sample().String())
	f.Add("2025-01-01T00:00:00.000Z -9998          - http://example.com/private - - no-type #123 - - - -")
	f.Fuzz(func(t *testing.T, line string) {
		e, err := Parse(line)
		if err != nil {
			return
		}
		again, err := Parse(e.String())
		if err != nil {
			t.Fatalf("%q reads, but its rewrite %q does not: %v", line, e.String(), err)
		}
		if again.String() != e.String() {
			t.Fatalf("rewrite differs:\n%s\n%s", e.String(), again.String())
		}
	})
}
