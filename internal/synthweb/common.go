package synthweb

import (
	"bytes"
	"html/template"
	"net/http"
	"strconv"
	"time"
)

// renderTemplate executes template name into a buffer first, so that a
// response is complete with its Content-Length or an error status.
func renderTemplate(w http.ResponseWriter, t *template.Template, name string, data any, status int) {
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, name, data); err != nil {
		http.Error(w, "template "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

func writeText(w http.ResponseWriter, contentType, body string) {
	writeStatus(w, http.StatusOK, contentType, body)
}

func writeStatus(w http.ResponseWriter, status int, contentType, body string) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write([]byte(body))
}

// readOnly answers 405 to anything but GET and HEAD, as the sites are
// read by crawlers only; it reports whether to go on.
func readOnly(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	return false
}

// iso is the ISO 8601 form WordPress and MediaWiki write in datetime attributes.
func iso(t time.Time) string { return t.Format("2006-01-02T15:04:05+00:00") }
