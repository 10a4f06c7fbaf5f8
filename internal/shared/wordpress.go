package shared

import (
	"os/exec"
	"strings"
	"testing"
)

// WPQuery runs SQL on the database of the WordPress at WordPress (the
// ground truth for its posts and comments) with the mysql client and
// returns the rows, tab-separated fields unescaped. The test skips when
// there is no mysql client.
func WPQuery(tb testing.TB, sql string) [][]string {
	tb.Helper()
	if _, err := exec.LookPath("mysql"); err != nil {
		tb.Skip("no mysql client to read the WordPress database: run bash ../shared/cms/setup-cms.sh")
	}
	out, err := exec.Command("mysql", "-h", "127.0.0.1", "-u", "wordpress", "-paah-wp-db-pass", "wordpress",
		"-N", "-B", "-e", sql).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		tb.Fatalf("mysql: %v %s", err, msg)
	}
	var rows [][]string
	unescape := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`, `\0`, "\x00")
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		for i := range fields {
			fields[i] = unescape.Replace(fields[i])
		}
		rows = append(rows, fields)
	}
	return rows
}
