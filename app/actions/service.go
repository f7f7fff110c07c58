// Package actions holds the workflow automation use cases: the variables
// of accounts, organisations and repositories (variables.go). Who may reach
// a scope is the route's access codes' business (T with RO, OO, or the
// caller's own account); the use cases take the scope the route resolved.
package actions

import "github.com/depothq/depot/ports"

// Service runs the workflow automation use cases.
type Service struct {
	stores ports.Stores
	tx     ports.Transactor
	clock  ports.Clock
}

// NewService builds the workflow automation use cases.
func NewService(stores ports.Stores, tx ports.Transactor, clock ports.Clock) *Service {
	return &Service{stores: stores, tx: tx, clock: clock}
}
