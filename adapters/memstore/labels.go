package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var _ ports.LabelStore = (*LabelStore)(nil)

// LabelStore is the in-memory ports.LabelStore. A label's issue counters
// are computed from the issues carrying it on read.
type LabelStore struct{ d *DB }

var errLabelNotFound = errs.NotFound("label does not exist")

func (s *state) labelOut(l issue.Label) *issue.Label {
	l.ArchivedAt = timePtr(l.ArchivedAt)
	l.NumIssues, l.NumClosedIssues = 0, 0
	for k := range s.issueLabels {
		if k.b != l.ID {
			continue
		}
		l.NumIssues++
		if s.issues[k.a].IsClosed {
			l.NumClosedIssues++
		}
	}
	return &l
}

// byName orders labels by name, then id.
func byName(a, b *issue.Label) int {
	return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
}

// labelsWhere returns the labels f keeps, by name.
func (s *state) labelsWhere(f func(issue.Label) bool) []*issue.Label {
	var out []*issue.Label
	for _, l := range s.labels {
		if f(l) {
			out = append(out, s.labelOut(l))
		}
	}
	slices.SortFunc(out, byName)
	return out
}

func (s *state) labelsOf(issueID int64) []*issue.Label {
	return s.labelsWhere(func(l issue.Label) bool { return s.issueLabels[pair{issueID, l.ID}] })
}

func ownedBy(l issue.Label, repoID, orgID int64) bool {
	return repoID != 0 && l.RepoID == repoID || orgID != 0 && l.OrgID == orgID
}

func (s *state) deleteLabel(id int64) {
	delete(s.labels, id)
	for k := range s.issueLabels {
		if k.b == id {
			delete(s.issueLabels, k)
		}
	}
}

func (s *LabelStore) Create(ctx context.Context, l *issue.Label) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	_, okR := st.repos[l.RepoID]
	_, okO := st.users[l.OrgID]
	if l.RepoID != 0 && !okR || l.OrgID != 0 && !okO {
		return errs.NotFound("repository or organization does not exist")
	}
	row := *l
	row.ArchivedAt = dbTimePtr(row.ArchivedAt)
	row.CreatedAt, row.UpdatedAt = dbTime(row.CreatedAt), dbTime(row.UpdatedAt)
	row.ID = st.next("labels")
	st.labels[row.ID] = row
	l.ID = row.ID
	return nil
}

func (s *LabelStore) GetByID(ctx context.Context, id int64) (*issue.Label, error) {
	defer s.d.lock(ctx)()
	l, ok := s.d.s.labels[id]
	if !ok {
		return nil, errLabelNotFound
	}
	return s.d.s.labelOut(l), nil
}

func (s *LabelStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Label, error) {
	defer s.d.lock(ctx)()
	return s.d.s.labelsWhere(func(l issue.Label) bool { return slices.Contains(ids, l.ID) }), nil
}

func (s *LabelStore) GetByName(ctx context.Context, repoID, orgID int64, name string) (*issue.Label, error) {
	defer s.d.lock(ctx)()
	var found *issue.Label
	for _, l := range s.d.s.labels {
		if ownedBy(l, repoID, orgID) && l.Name == name && (found == nil || l.ID < found.ID) {
			found = s.d.s.labelOut(l)
		}
	}
	if found == nil {
		return nil, errLabelNotFound
	}
	return found, nil
}

func (s *LabelStore) ListByNames(ctx context.Context, repoID, orgID int64, names []string) ([]*issue.Label, error) {
	defer s.d.lock(ctx)()
	return s.d.s.labelsWhere(func(l issue.Label) bool { return ownedBy(l, repoID, orgID) && slices.Contains(names, l.Name) }), nil
}

func (s *LabelStore) ListByRepo(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*issue.Label, int64, error) {
	defer s.d.lock(ctx)()
	list := s.d.s.labelsWhere(func(l issue.Label) bool { return l.RepoID == repoID })
	return page(list, opts), int64(len(list)), nil
}

func (s *LabelStore) ListByOrg(ctx context.Context, orgID int64, opts ports.ListOptions) ([]*issue.Label, int64, error) {
	defer s.d.lock(ctx)()
	list := s.d.s.labelsWhere(func(l issue.Label) bool { return l.OrgID == orgID })
	return page(list, opts), int64(len(list)), nil
}

func (s *LabelStore) Update(ctx context.Context, l *issue.Label) error {
	defer s.d.lock(ctx)()
	old, ok := s.d.s.labels[l.ID]
	if !ok {
		return errLabelNotFound
	}
	row := *l
	row.RepoID, row.OrgID, row.CreatedAt = old.RepoID, old.OrgID, old.CreatedAt
	row.ArchivedAt, row.UpdatedAt = dbTimePtr(row.ArchivedAt), dbTime(row.UpdatedAt)
	s.d.s.labels[l.ID] = row
	return nil
}

func (s *LabelStore) Delete(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.labels[id]; !ok {
		return errLabelNotFound
	}
	s.d.s.deleteLabel(id)
	return nil
}

func (s *LabelStore) OfIssues(ctx context.Context, issueIDs []int64) (map[int64][]*issue.Label, error) {
	defer s.d.lock(ctx)()
	out := map[int64][]*issue.Label{}
	for _, id := range issueIDs {
		if ls := s.d.s.labelsOf(id); len(ls) > 0 {
			out[id] = ls
		}
	}
	return out, nil
}

func (s *LabelStore) AddToIssue(ctx context.Context, issueID int64, labelIDs []int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.issues[issueID]; !ok && len(labelIDs) > 0 {
		return errs.NotFound("issue or label does not exist")
	}
	for _, id := range labelIDs {
		if _, ok := st.labels[id]; !ok {
			return errs.NotFound("issue or label does not exist")
		}
	}
	for _, id := range labelIDs {
		st.issueLabels[pair{issueID, id}] = true
	}
	return nil
}

func (s *LabelStore) RemoveFromIssue(ctx context.Context, issueID int64, labelIDs []int64) error {
	defer s.d.lock(ctx)()
	for _, id := range labelIDs {
		delete(s.d.s.issueLabels, pair{issueID, id})
	}
	return nil
}

func (s *LabelStore) Recount(ctx context.Context, labelIDs []int64) error {
	return nil // counters are computed on read
}

func (s *LabelStore) CopyRepoLabels(ctx context.Context, fromRepoID, toRepoID int64, now time.Time) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	at := dbTime(now)
	for _, id := range sortedKeys(st.labels) {
		l := st.labels[id]
		if l.RepoID != fromRepoID {
			continue
		}
		c := issue.Label{RepoID: toRepoID, Name: l.Name, Color: l.Color, Description: l.Description,
			Exclusive: l.Exclusive, ArchivedAt: l.ArchivedAt, CreatedAt: at, UpdatedAt: at}
		c.ID = st.next("labels")
		st.labels[c.ID] = c
	}
	return nil
}
