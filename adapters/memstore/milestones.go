package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var _ ports.MilestoneStore = (*MilestoneStore)(nil)

// MilestoneStore is the in-memory ports.MilestoneStore. A milestone's
// issue counters are computed from its issues on read.
type MilestoneStore struct{ d *DB }

var errMilestoneNotFound = errs.NotFound("milestone does not exist")

func (s *state) milestoneOut(m issue.Milestone) *issue.Milestone {
	m.DueAt, m.ClosedAt = timePtr(m.DueAt), timePtr(m.ClosedAt)
	m.NumIssues, m.NumClosedIssues = 0, 0
	for _, i := range s.issues {
		if i.MilestoneID == m.ID {
			m.NumIssues++
			if i.IsClosed {
				m.NumClosedIssues++
			}
		}
	}
	return &m
}

func (s *MilestoneStore) Create(ctx context.Context, m *issue.Milestone) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.repos[m.RepoID]; !ok {
		return errRepoNotFound
	}
	row := *m
	row.DueAt, row.ClosedAt = dbTimePtr(row.DueAt), dbTimePtr(row.ClosedAt)
	row.CreatedAt, row.UpdatedAt = dbTime(row.CreatedAt), dbTime(row.UpdatedAt)
	row.ID = st.next("milestones")
	st.milestones[row.ID] = row
	m.ID = row.ID
	return nil
}

func (s *MilestoneStore) Get(ctx context.Context, repoID, id int64) (*issue.Milestone, error) {
	defer s.d.lock(ctx)()
	m, ok := s.d.s.milestones[id]
	if !ok || m.RepoID != repoID {
		return nil, errMilestoneNotFound
	}
	return s.d.s.milestoneOut(m), nil
}

func (s *MilestoneStore) GetByTitle(ctx context.Context, repoID int64, title string) (*issue.Milestone, error) {
	defer s.d.lock(ctx)()
	for _, id := range sortedKeys(s.d.s.milestones) {
		if m := s.d.s.milestones[id]; m.RepoID == repoID && m.Title == title {
			return s.d.s.milestoneOut(m), nil
		}
	}
	return nil, errMilestoneNotFound
}

func (s *MilestoneStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Milestone, error) {
	defer s.d.lock(ctx)()
	var out []*issue.Milestone
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		if m, ok := s.d.s.milestones[id]; ok {
			out = append(out, s.d.s.milestoneOut(m))
		}
	}
	return out, nil
}

func (s *MilestoneStore) List(ctx context.Context, q ports.MilestoneQuery) ([]*issue.Milestone, int64, error) {
	defer s.d.lock(ctx)()
	name := strings.ToLower(strings.TrimSpace(q.Name))
	var list []*issue.Milestone
	for _, m := range s.d.s.milestones {
		if m.RepoID != q.RepoID || q.State == "closed" && !m.IsClosed || q.State != "closed" && q.State != "all" && m.IsClosed {
			continue
		}
		if name != "" && !containsFold(m.Title, name) {
			continue
		}
		list = append(list, s.d.s.milestoneOut(m))
	}
	slices.SortFunc(list, func(a, b *issue.Milestone) int {
		switch {
		case a.DueAt == nil && b.DueAt != nil:
			return 1
		case a.DueAt != nil && b.DueAt == nil:
			return -1
		case a.DueAt != nil && b.DueAt != nil:
			if c := a.DueAt.Compare(*b.DueAt); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return page(list, q.ListOptions), int64(len(list)), nil
}

func (s *MilestoneStore) Update(ctx context.Context, m *issue.Milestone) error {
	defer s.d.lock(ctx)()
	row, ok := s.d.s.milestones[m.ID]
	if !ok || row.RepoID != m.RepoID {
		return errMilestoneNotFound
	}
	row.Title, row.Description, row.IsClosed = m.Title, m.Description, m.IsClosed
	row.DueAt, row.ClosedAt, row.UpdatedAt = dbTimePtr(m.DueAt), dbTimePtr(m.ClosedAt), dbTime(m.UpdatedAt)
	s.d.s.milestones[m.ID] = row
	return nil
}

func (s *MilestoneStore) Delete(ctx context.Context, repoID, id int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	m, ok := st.milestones[id]
	if !ok || m.RepoID != repoID {
		return errMilestoneNotFound
	}
	for k, i := range st.issues {
		if i.RepoID == repoID && i.MilestoneID == id {
			i.MilestoneID = 0
			st.issues[k] = i
		}
	}
	delete(st.milestones, id)
	return nil
}

func (s *MilestoneStore) Recount(ctx context.Context, ids []int64) error {
	return nil // counters are computed on read
}
