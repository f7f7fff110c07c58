package sqlstore

import (
	"github.com/depothq/depot/ports"
)

// IssueRelationStore implements ports.IssueRelationStore with bun: the
// dependencies between issues (issue_dependencies.go), subscriptions
// (issue_subscriptions.go) and pins (issue_pins.go).
type IssueRelationStore struct{ c conn }

var _ ports.IssueRelationStore = (*IssueRelationStore)(nil)
