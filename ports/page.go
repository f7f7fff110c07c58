// Package ports declares what the application needs from the outside world:
// stores per aggregate, a transaction runner, password hashing, secrets,
// one-time codes and the clock. Adapters implement these; the app consumes them.
package ports

// MaxPage is the highest page a request may name. Any page past a
// listing's end is as empty as another, and with it an offset (MaxPage
// pages of MaxLimit rows, 2^44) plus a page still fits a 64-bit int and a
// SQL BIGINT, so no store has to guard against overflow.
const MaxPage = 1 << 24

// MaxLimit is the largest page size a ListOptions may hold (sites cap
// theirs far lower).
const MaxLimit = 1 << 20

// ListOptions is a page request. Adapters turn it into LIMIT/OFFSET in SQL.
type ListOptions struct {
	Page  int // 1-based
	Limit int // > 0
}

// Clamped returns o with its page within [1, MaxPage] and its limit at most
// MaxLimit (a limit of 0 or less, "everything" to some stores, is kept).
func (o ListOptions) Clamped() ListOptions {
	o.Page = min(max(o.Page, 1), MaxPage)
	o.Limit = min(o.Limit, MaxLimit)
	return o
}

// Offset is the number of rows before the page. It is computed on the
// clamped page and limit, so that it never overflows.
func (o ListOptions) Offset() int {
	c := o.Clamped()
	if c.Limit <= 0 {
		return 0
	}
	return (c.Page - 1) * c.Limit
}
