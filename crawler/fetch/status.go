package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"syscall"
)

// Heritrix 3 fetch status codes (org.archive.modules.fetcher.FetchStatusCodes)
// for outcomes without an HTTP status. The fetcher produces the first group;
// the others are listed for the crawl loop, which decides robots, scope,
// retries and prerequisites, so that crawl.log speaks one vocabulary.
const (
	StatusUnattempted       = 0     // fetch never tried
	StatusDomainUnresolved  = -1    // DNS lookup failed
	StatusConnectFailed     = -2    // connection (or TLS handshake) failed
	StatusConnectLost       = -3    // connection broken before a response
	StatusTimeout           = -4    // timed out before a meaningful response
	StatusRuntimeException  = -5    // unexpected failure, e.g. an unparsable response
	StatusDomainPrereq      = -6    // DNS prerequisite failed
	StatusUnfetchable       = -7    // unsupported scheme or illegal URI
	StatusTooManyRetries    = -8    // every retry failed
	StatusDeferred          = -50   // waiting for a prerequisite (should not be logged)
	StatusUnqueueable       = -60   // could not be queued
	StatusRobotsPrereq      = -61   // robots.txt prerequisite could not be fetched
	StatusOtherPrereq       = -62   // another prerequisite failed
	StatusPrereqUnscheduled = -63   // a prerequisite could not be scheduled
	StatusSeriousError      = -3000 // severe internal error
	StatusDeemedChaff       = -4000 // trap or content of negligible value
	StatusTooManyLinkHops   = -4001 // beyond the link hop limit
	StatusTooManyEmbedHops  = -4002 // beyond the embed hop limit
	StatusOutOfScope        = -5000 // out of scope on re-examination
	StatusBlockedByUser     = -5001 // blocked by an operator rule
	StatusBlockedCustom     = -5002 // blocked by a custom pre-fetch rule
	StatusBlockedByQuota    = -5003 // a quota is exhausted
	StatusBlockedByRuntime  = -5004 // the crawl's time limit was reached
	StatusDeletedByUser     = -6000 // removed from the frontier by an operator
	StatusThreadKilled      = -7000 // processing was stopped (here: the caller cancelled)
	StatusRobotsPrecluded   = -9998 // robots.txt forbids the fetch
)

// Errors that say why a fetch context ended, told apart with context.Cause.
var (
	errTotalTimeout = errors.New("fetch: total time limit reached")
	errReadIdle     = errors.New("fetch: no data within the read-idle timeout")
	errTooSlow      = errors.New("fetch: body arriving slower than the minimum rate")
)

// tlsError marks a failed TLS handshake, which Heritrix counts as a failed connect.
type tlsError struct{ err error }

func (e *tlsError) Error() string { return "fetch: TLS handshake: " + e.err.Error() }
func (e *tlsError) Unwrap() error { return e.err }

// classify maps a failure before the response head to a Heritrix status code.
// cause is the fetch context's cause, which tells our own timeouts and a
// caller's cancellation apart from network errors.
func classify(err, cause error) int {
	var (
		dnsErr  *net.DNSError
		opErr   *net.OpError
		tlsErr  *tlsError
		certErr *x509.CertificateInvalidError
		netErr  net.Error
	)
	switch {
	case errors.Is(cause, errTotalTimeout) || errors.Is(cause, errReadIdle) || errors.Is(cause, errTooSlow):
		return StatusTimeout
	case errors.Is(cause, context.Canceled):
		return StatusThreadKilled
	case errors.As(err, &dnsErr):
		return StatusDomainUnresolved
	case errors.As(err, &tlsErr), errors.As(err, &certErr):
		return StatusConnectFailed
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return StatusConnectFailed
	case errors.As(err, &netErr) && netErr.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return StatusTimeout
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed):
		return StatusConnectLost
	}
	var rhe tls.RecordHeaderError
	if errors.As(err, &rhe) {
		return StatusConnectFailed
	}
	return StatusRuntimeException
}
