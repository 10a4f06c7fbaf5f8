package robots

import (
	"fmt"
	"net/http"
)

// Kind classifies the outcome of fetching robots.txt (RFC 9309 §2.3.1).
type Kind int

const (
	// Available: a 2xx response; the file's rules apply.
	Available Kind = iota + 1
	// Unavailable: a 4xx response, or a redirect chain longer than
	// MaxRedirects; the crawler may fetch anything.
	Unavailable
	// Unreachable: a 5xx or 429 response, a network error or a timeout;
	// the crawler must fetch nothing from the site and retry later.
	Unreachable
)

func (k Kind) String() string {
	switch k {
	case Available:
		return "available"
	case Unavailable:
		return "unavailable"
	case Unreachable:
		return "unreachable"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// MaxRedirects is how many redirects a robots.txt fetch follows
// (RFC 9309 §2.3.1.2: at least five).
const MaxRedirects = 5

// CheckRedirect is an http.Client CheckRedirect function that follows at
// most MaxRedirects redirects and then hands back the last 3xx response,
// which FromResponse treats as unavailable.
func CheckRedirect(_ *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return http.ErrUseLastResponse
	}
	return nil
}

// Result is what a robots.txt fetch means for a site.
type Result struct {
	Kind   Kind
	Robots *Robots // the parsed file when Available, else nil
	Reason string  // the status or error behind Kind, for logs
}

// FromResponse applies the status policy of RFC 9309 §2.3.1 to a fetch of
// robots.txt: status is the final HTTP status (after redirects), body the
// first MaxBytes of the response body, fetchErr any error from connecting
// to reading the body. A 429 counts as unreachable, not unavailable: the
// server asks for less traffic, which "allow everything" would defeat.
func FromResponse(status int, body []byte, fetchErr error) Result {
	switch {
	case fetchErr != nil:
		return Result{Kind: Unreachable, Reason: fetchErr.Error()}
	case status >= 200 && status < 300:
		return Result{Kind: Available, Robots: Parse(body), Reason: fmt.Sprintf("status %d", status)}
	case status >= 300 && status < 400:
		return Result{Kind: Unavailable, Reason: fmt.Sprintf("status %d after %d redirects", status, MaxRedirects)}
	case status == http.StatusTooManyRequests:
		return Result{Kind: Unreachable, Reason: "status 429"}
	case status >= 400 && status < 500:
		return Result{Kind: Unavailable, Reason: fmt.Sprintf("status %d", status)}
	}
	return Result{Kind: Unreachable, Reason: fmt.Sprintf("status %d", status)}
}

// Agent returns the rules that apply to the crawler named token.
func (r Result) Agent(token string) *Agent {
	switch r.Kind {
	case Available:
		return r.Robots.Agent(token)
	case Unavailable:
		return AllowAll("robots.txt unavailable: " + r.Reason)
	}
	return DisallowAll("robots.txt unreachable: " + r.Reason)
}
