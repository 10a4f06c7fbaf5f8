package robots

import "testing"

// FuzzCheck checks that no robots.txt and path panic, and that a path
// matches the same way before and after normalisation.
func FuzzCheck(f *testing.F) {
	f.Add("User-agent: *\nDisallow: /a*b$\nAllow: /a%2Fb\n", "/a/x/b")
	f.Add("user-agent: x\ndisallow: ツ\n", "/%E3%83%84")
	f.Fuzz(func(t *testing.T, file, path string) {
		a := Parse([]byte(file)).Agent("x")
		d := a.Check(path)
		if path != "" && path != "/robots.txt" {
			if n := normalize(path, false); n != "/robots.txt" && a.Check(n) != d {
				t.Fatalf("Check(%q) = %v but Check(normalized %q) = %v", path, d, n, a.Check(n))
			}
		}
	})
}
