// Package actions holds the use cases of workflow automation: the secrets
// (Secrets, secrets.go) and variables of users, organisations and
// repositories. Who may call which is the route table's business.
package actions

import "github.com/depothq/depot/ports"

// Service is what the workflow automation use cases share.
type Service struct {
	stores ports.Stores
	tx     ports.Transactor
	box    ports.SecretBox
	clock  ports.Clock
}

// NewService builds the workflow automation use cases; box seals secrets at rest.
func NewService(stores ports.Stores, tx ports.Transactor, box ports.SecretBox, clock ports.Clock) *Service {
	return &Service{stores: stores, tx: tx, box: box, clock: clock}
}
