// Package ports declares what the application needs from the outside world:
// stores per aggregate, a transaction runner, password hashing, secrets,
// one-time codes and the clock. Adapters implement these; the app consumes them.
package ports

// ListOptions is a page request. Adapters turn it into LIMIT/OFFSET in SQL.
type ListOptions struct {
	Page  int // 1-based
	Limit int // > 0
}

// Offset is the number of rows before the page.
func (o ListOptions) Offset() int {
	if o.Page < 1 {
		return 0
	}
	return (o.Page - 1) * o.Limit
}
