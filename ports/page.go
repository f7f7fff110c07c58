// Package ports declares what the application needs from the outside world:
// stores per aggregate, a transaction runner, password hashing, secrets,
// one-time codes and the clock. Adapters implement these; the app consumes them.
package ports

// ListOptions is a page request. Adapters turn it into LIMIT/OFFSET in SQL.
type ListOptions struct {
	Page  int // 1-based
	Limit int // > 0
}

// maxOffset bounds Offset: no listing holds that many rows, and a page's
// limit added to it stays far from overflowing, so a client's far page
// (page=9223372036854775807) is an empty page, not a negative offset.
const maxOffset = 1 << 40

// Offset is the number of rows before the page.
func (o ListOptions) Offset() int {
	if o.Page < 1 {
		return 0
	}
	if o.Limit > 0 && o.Page-1 > maxOffset/o.Limit {
		return maxOffset
	}
	return (o.Page - 1) * o.Limit
}
