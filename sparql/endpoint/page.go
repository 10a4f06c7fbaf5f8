package endpoint

import (
	_ "embed"
	"html/template"
	"net/http"
)

//go:embed page.html
var pageHTML string

var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// Page returns a handler for a plain HTML page with a query box that
// sends its queries to the endpoint at path and shows the answers.
func Page(path string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := pageTemplate.Execute(w, path); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
}
