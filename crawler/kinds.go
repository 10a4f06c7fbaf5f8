package crawler

import (
	"net/url"
	"strconv"

	"github.com/mneme-archive/mneme/crawler/fetch"
)

// statusNames name Heritrix's negative fetch codes in Status.Errors.
var statusNames = map[int]string{
	fetch.StatusDomainUnresolved: "domain unresolved",
	fetch.StatusConnectFailed:    "connect failed",
	fetch.StatusConnectLost:      "connection lost",
	fetch.StatusTimeout:          "timeout",
	fetch.StatusRuntimeException: "runtime exception",
	fetch.StatusUnfetchable:      "unfetchable",
	fetch.StatusTooManyRetries:   "too many retries",
	fetch.StatusRobotsPrereq:     "robots.txt unreachable",
	fetch.StatusRobotsPrecluded:  "robots.txt disallows",
	fetch.StatusOutOfScope:       "out of scope",
	fetch.StatusBlockedByUser:    "blacklisted",
}

// fetchErrorKind is errorKind for a fetch of rawURL: a robots.txt
// answered with a 4xx status is no error but a site without rules (RFC
// 9309 §2.3.1.3: robots.txt unavailable, crawling allowed).
func fetchErrorKind(rawURL string, status int) string {
	if status >= 400 && status < 500 {
		if u, err := url.Parse(rawURL); err == nil && u.Path == "/robots.txt" {
			return ""
		}
	}
	return errorKind(status)
}

// errorKind classifies a status for Status.Errors; "" is no error.
func errorKind(status int) string {
	switch {
	case status >= 400:
		return "http " + strconv.Itoa(status)
	case status > 0:
		return ""
	}
	if n, ok := statusNames[status]; ok {
		return n + " (" + strconv.Itoa(status) + ")"
	}
	return "status " + strconv.Itoa(status)
}

// retriable reports whether a fetch that ended with status is tried again
// later: connection-level failures as in Heritrix, and servers asking for
// less traffic (429, 503).
func retriable(status int) bool {
	switch status {
	case fetch.StatusDomainUnresolved, fetch.StatusConnectFailed, fetch.StatusConnectLost, fetch.StatusTimeout,
		429, 503:
		return true
	}
	return false
}

// statusError is a negative fetch status as an error.
type statusError int

func (e statusError) Error() string { return errorKind(int(e)) }
