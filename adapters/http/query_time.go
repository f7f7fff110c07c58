package http

import (
	"time"

	"github.com/depothq/depot/domain/errs"
)

// queryTime reads an optional RFC 3339 time; anything else is a 400, as on
// every list route with a time parameter.
func queryTime(q *request, name string) (time.Time, error) {
	v := q.r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, errs.BadRequest(name + ": must be an RFC 3339 date and time")
	}
	return t, nil
}
