package httpkit

import (
	"context"
	"errors"
	"net/http"
)

// StatusClientClosedRequest is the status recorded for a request whose client
// left before the answer was ready (nginx's 499). Nobody reads the answer; the
// code is there so access logs and metrics tell a departed client from a
// server failure.
const StatusClientClosedRequest = 499

// ClientGone reports whether err is only the request's own context ending:
// the client disconnected or gave up. Such a failure is not the server's, so
// it is logged quietly instead of as an error (a load run's last requests
// were all logged as "request failed … context canceled", which read as a
// server fault).
func ClientGone(r *http.Request, err error) bool {
	ctxErr := r.Context().Err()
	if ctxErr == nil || err == nil {
		return false
	}
	return errors.Is(err, context.Canceled) && errors.Is(ctxErr, context.Canceled)
}
