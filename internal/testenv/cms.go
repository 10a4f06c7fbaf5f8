package testenv

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The real CMSs that ../shared/cms/setup-cms.sh serves on loopback.
const (
	WordPress = "http://127.0.0.1:8081"
	MediaWiki = "http://127.0.0.1:8082"
	DokuWiki  = "http://127.0.0.1:8083"
)

// Default themes: what setup-cms.sh installs and what every test that
// does not ask for another theme expects.
const (
	WordPressTheme = "twentytwentyone"
	MediaWikiSkin  = "vector"
)

// CMS makes the real CMS at base (WordPress, MediaWiki or DokuWiki) ready
// for the test with the given theme ("" for the default) and holds it
// until the test ends: tests of different packages run in parallel
// processes and a theme switch changes what every one of them sees, so
// each CMS test takes an exclusive file lock. A switched theme is put
// back to the default when the test ends. The test is skipped when the
// CMS does not answer.
func CMS(tb testing.TB, base, theme string) string {
	tb.Helper()
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(base + "/")
	if err != nil {
		tb.Skipf("%s does not answer (%v): run bash ../shared/cms/setup-cms.sh", base, err)
	}
	resp.Body.Close()
	unlock, err := lockFile(filepath.Join(os.TempDir(), "mneme-cms.lock"))
	if err != nil {
		tb.Fatalf("locking the shared CMSs: %v", err)
	}
	tb.Cleanup(unlock)
	if _, def := themed(base); theme != "" && theme != def {
		SwitchTheme(tb, base, theme)
	}
	return base
}

// themed returns switch-theme.sh's name for the CMS at base and its
// default theme; "" for a CMS without themes.
func themed(base string) (site, def string) {
	switch base {
	case WordPress:
		return "wp", WordPressTheme
	case MediaWiki:
		return "mw", MediaWikiSkin
	}
	return "", ""
}

// SwitchTheme changes the theme of a CMS that the test already holds
// through CMS (for a test that crawls before and after a template change).
// The default theme comes back when the test ends.
func SwitchTheme(tb testing.TB, base, theme string) {
	tb.Helper()
	site, def := themed(base)
	if site == "" {
		tb.Fatalf("%s has no themes to switch", base)
	}
	switchTheme(tb, site, theme)
	tb.Cleanup(func() { switchTheme(tb, site, def) })
}

func switchTheme(tb testing.TB, site, theme string) {
	tb.Helper()
	script := Path(tb, "cms", "switch-theme.sh")
	out, err := exec.Command("bash", script, site, theme).CombinedOutput()
	if err != nil {
		tb.Fatalf("switch-theme.sh %s %s: %v\n%s", site, theme, err, out)
	}
}

// lockFile takes an exclusive flock on path, waiting for other processes.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("flock %s: %w", path, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
