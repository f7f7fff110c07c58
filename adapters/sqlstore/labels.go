package sqlstore

// PLACEHOLDER: written by a helper; every method answers errTodo until then.

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var _ = time.Time{}
var _ issue.Issue

// LabelStore implements ports.LabelStore with bun.
type LabelStore struct{ c conn }

var _ ports.LabelStore = (*LabelStore)(nil)

func (st *LabelStore) Create(ctx context.Context, l *issue.Label) error {
	return errTodo
}

func (st *LabelStore) GetByID(ctx context.Context, id int64) (*issue.Label, error) {
	return nil, errTodo
}

func (st *LabelStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Label, error) {
	return nil, errTodo
}

func (st *LabelStore) ListByRepo(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*issue.Label, int64, error) {
	return nil, 0, errTodo
}

func (st *LabelStore) ListByOrg(ctx context.Context, orgID int64, opts ports.ListOptions) ([]*issue.Label, int64, error) {
	return nil, 0, errTodo
}

func (st *LabelStore) Update(ctx context.Context, l *issue.Label) error {
	return errTodo
}

func (st *LabelStore) Delete(ctx context.Context, id int64) error {
	return errTodo
}

func (st *LabelStore) OfIssues(ctx context.Context, issueIDs []int64) (map[int64][]*issue.Label, error) {
	return nil, errTodo
}

func (st *LabelStore) AddToIssue(ctx context.Context, issueID int64, labelIDs []int64) error {
	return errTodo
}

func (st *LabelStore) RemoveFromIssue(ctx context.Context, issueID int64, labelIDs []int64) error {
	return errTodo
}

func (st *LabelStore) Recount(ctx context.Context, labelIDs []int64) error {
	return errTodo
}

// MilestoneStore implements ports.MilestoneStore with bun.
type MilestoneStore struct{ c conn }

var _ ports.MilestoneStore = (*MilestoneStore)(nil)

func (st *MilestoneStore) Create(ctx context.Context, m *issue.Milestone) error {
	return errTodo
}

func (st *MilestoneStore) Get(ctx context.Context, repoID, id int64) (*issue.Milestone, error) {
	return nil, errTodo
}

func (st *MilestoneStore) GetByTitle(ctx context.Context, repoID int64, title string) (*issue.Milestone, error) {
	return nil, errTodo
}

func (st *MilestoneStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Milestone, error) {
	return nil, errTodo
}

func (st *MilestoneStore) List(ctx context.Context, q ports.MilestoneQuery) ([]*issue.Milestone, int64, error) {
	return nil, 0, errTodo
}

func (st *MilestoneStore) Update(ctx context.Context, m *issue.Milestone) error {
	return errTodo
}

func (st *MilestoneStore) Delete(ctx context.Context, repoID, id int64) error {
	return errTodo
}

func (st *MilestoneStore) Recount(ctx context.Context, ids []int64) error {
	return errTodo
}
