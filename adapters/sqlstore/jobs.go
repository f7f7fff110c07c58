package sqlstore

import "github.com/depothq/depot/ports"

var _ ports.JobStore = (*JobStore)(nil)

// JobStore is the SQL implementation of ports.JobStore.
type JobStore struct {
	c              conn
	ports.JobStore // placeholder until implemented: remove
}
