package memstore

import (
	"context"
	"slices"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/ports"
)

var _ ports.PullStore = (*PullStore)(nil)

// PullStore is the in-memory ports.PullStore.
type PullStore struct{ d *DB }

var (
	errPullNotFound      = errs.NotFound("pull request does not exist")
	errPullTaken         = errs.Conflict("pull request already exists")
	errAutoMergeNotFound = errs.NotFound("no scheduled auto merge")
	errAutoMergeTaken    = errs.Conflict("pull request is already scheduled to auto merge when checks succeed")
)

// pullIn copies p as the store keeps it; pullOut hands out a copy, so
// callers never share a slice or a pointer with the store.
func pullIn(p *pull.PullRequest) pull.PullRequest {
	c := *p
	c.ConflictedFiles = slices.Clone(p.ConflictedFiles)
	if len(c.ConflictedFiles) == 0 {
		c.ConflictedFiles = nil
	}
	c.MergedAt = dbTimePtr(p.MergedAt)
	return c
}

func pullOut(p pull.PullRequest) *pull.PullRequest {
	p.ConflictedFiles = slices.Clone(p.ConflictedFiles)
	p.MergedAt = timePtr(p.MergedAt)
	return &p
}

// Create inserts p; its issue must exist and have no pull request yet.
func (s *PullStore) Create(ctx context.Context, p *pull.PullRequest) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.issues[p.IssueID]; !ok {
		return errs.NotFound("issue does not exist")
	}
	for _, o := range st.pulls {
		if o.IssueID == p.IssueID || o.BaseRepoID == p.BaseRepoID && o.Index == p.Index {
			return errPullTaken
		}
	}
	row := pullIn(p)
	if row.Status == "" {
		row.Status = pull.StatusChecking
	}
	row.ID = st.next("pulls")
	st.pulls[row.ID] = row
	p.ID, p.Status = row.ID, row.Status
	return nil
}

// find returns the first pull request, by id, that keep accepts.
func (s *state) findPull(keep func(p pull.PullRequest) bool) (*pull.PullRequest, error) {
	for _, id := range sortedKeys(s.pulls) {
		if p := s.pulls[id]; keep(p) {
			return pullOut(p), nil
		}
	}
	return nil, errPullNotFound
}

func (s *PullStore) GetByID(ctx context.Context, id int64) (*pull.PullRequest, error) {
	defer s.d.lock(ctx)()
	p, ok := s.d.s.pulls[id]
	if !ok {
		return nil, errPullNotFound
	}
	return pullOut(p), nil
}

func (s *PullStore) GetByIssueID(ctx context.Context, issueID int64) (*pull.PullRequest, error) {
	defer s.d.lock(ctx)()
	return s.d.s.findPull(func(p pull.PullRequest) bool { return p.IssueID == issueID })
}

func (s *PullStore) GetByIndex(ctx context.Context, repoID, index int64) (*pull.PullRequest, error) {
	defer s.d.lock(ctx)()
	return s.d.s.findPull(func(p pull.PullRequest) bool { return p.BaseRepoID == repoID && p.Index == index })
}

func (s *PullStore) ByIssueIDs(ctx context.Context, issueIDs []int64) (map[int64]*pull.PullRequest, error) {
	defer s.d.lock(ctx)()
	out := map[int64]*pull.PullRequest{}
	for _, p := range s.d.s.pulls {
		if slices.Contains(issueIDs, p.IssueID) {
			out[p.IssueID] = pullOut(p)
		}
	}
	return out, nil
}

// Update writes every mutable column: not the id, issue, base repository
// or index.
func (s *PullStore) Update(ctx context.Context, p *pull.PullRequest) error {
	defer s.d.lock(ctx)()
	old, ok := s.d.s.pulls[p.ID]
	if !ok {
		return errPullNotFound
	}
	row := pullIn(p)
	row.IssueID, row.BaseRepoID, row.Index = old.IssueID, old.BaseRepoID, old.Index
	s.d.s.pulls[p.ID] = row
	return nil
}

func (s *PullStore) SetHead(ctx context.Context, id int64, headCommitID string) error {
	defer s.d.lock(ctx)()
	p, ok := s.d.s.pulls[id]
	if !ok || p.HasMerged {
		return nil
	}
	p.HeadCommitID, p.Status = headCommitID, pull.StatusChecking
	s.d.s.pulls[id] = p
	return nil
}

func (s *PullStore) SetCheck(ctx context.Context, id int64, headCommitID string, c pull.Check) (bool, error) {
	defer s.d.lock(ctx)()
	p, ok := s.d.s.pulls[id]
	if !ok || p.HasMerged || p.HeadCommitID != headCommitID {
		return false, nil
	}
	c.ConflictedFiles = slices.Clone(c.ConflictedFiles)
	if len(c.ConflictedFiles) == 0 {
		c.ConflictedFiles = nil
	}
	p.Check = c
	s.d.s.pulls[id] = p
	return true, nil
}

// openUnmerged reports whether p is unmerged and its issue open.
func (s *state) openUnmerged(p pull.PullRequest) bool {
	i, ok := s.issues[p.IssueID]
	return ok && !i.IsClosed && !p.HasMerged
}

func (s *PullStore) FindUnmerged(ctx context.Context, baseRepoID int64, baseBranch string, headRepoID int64, headBranch string) (*pull.PullRequest, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	return st.findPull(func(p pull.PullRequest) bool {
		return st.openUnmerged(p) && p.BaseRepoID == baseRepoID && p.BaseBranch == baseBranch &&
			p.HeadRepoID == headRepoID && p.HeadBranch == headBranch
	})
}

func (s *PullStore) OpenOnBranch(ctx context.Context, repoID int64, branch string, limit int) ([]*pull.PullRequest, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	out := []*pull.PullRequest{}
	for _, id := range sortedKeys(st.pulls) {
		if len(out) >= limit {
			break
		}
		p := st.pulls[id]
		onBranch := p.HeadRepoID == repoID && p.HeadBranch == branch || p.BaseRepoID == repoID && p.BaseBranch == branch
		if onBranch && st.openUnmerged(p) {
			out = append(out, pullOut(p))
		}
	}
	return out, nil
}

func (s *PullStore) HasOpenFromHead(ctx context.Context, headRepoID int64, headBranch string, exceptID int64) (bool, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	_, err := st.findPull(func(p pull.PullRequest) bool {
		return p.ID != exceptID && p.HeadRepoID == headRepoID && p.HeadBranch == headBranch && st.openUnmerged(p)
	})
	return err == nil, nil
}

func (s *PullStore) ByMergeCommit(ctx context.Context, repoID int64, sha string) (*pull.PullRequest, error) {
	defer s.d.lock(ctx)()
	return s.d.s.findPull(func(p pull.PullRequest) bool {
		return p.BaseRepoID == repoID && p.HasMerged && p.MergeCommitID == sha
	})
}

func (s *PullStore) ForgetHeadRepo(ctx context.Context, repoID int64) error {
	defer s.d.lock(ctx)()
	s.d.s.forgetHeadRepo(repoID)
	return nil
}

// forgetHeadRepo zeroes the head repository of the pull requests of other
// repositories whose head lived in repoID.
func (s *state) forgetHeadRepo(repoID int64) {
	for id, p := range s.pulls {
		if p.HeadRepoID == repoID && p.BaseRepoID != repoID {
			p.HeadRepoID = 0
			s.pulls[id] = p
		}
	}
}

func (s *PullStore) ScheduleAutoMerge(ctx context.Context, m *pull.AutoMerge) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.pulls[m.PullID]; !ok {
		return errPullNotFound
	}
	if _, ok := st.autoMerges[m.PullID]; ok {
		return errAutoMergeTaken
	}
	row := *m
	row.Created = dbTime(m.Created)
	st.autoMerges[m.PullID] = row
	return nil
}

func (s *PullStore) AutoMerge(ctx context.Context, pullID int64) (*pull.AutoMerge, error) {
	defer s.d.lock(ctx)()
	m, ok := s.d.s.autoMerges[pullID]
	if !ok {
		return nil, errAutoMergeNotFound
	}
	return &m, nil
}

func (s *PullStore) ScheduledForHead(ctx context.Context, repoID int64, sha string) ([]int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	var out []int64
	for _, id := range sortedKeys(st.autoMerges) {
		if m := st.autoMerges[id]; m.HeadCommitID == sha && st.pulls[id].BaseRepoID == repoID {
			out = append(out, id)
		}
	}
	return out, nil
}

func (s *PullStore) DeleteAutoMerge(ctx context.Context, pullID int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.autoMerges[pullID]; !ok {
		return errAutoMergeNotFound
	}
	delete(s.d.s.autoMerges, pullID)
	return nil
}

// deletePullsOfIssue removes the pull request of an issue being deleted
// and the merge scheduled for it.
func (s *state) deletePullsOfIssue(issueID int64) {
	for id, p := range s.pulls {
		if p.IssueID == issueID {
			delete(s.pulls, id)
			delete(s.autoMerges, id)
		}
	}
}

// pullIntoBranch reports whether an issue is a pull request into branch.
func (s *state) pullIntoBranch(issueID int64, branch string) bool {
	_, err := s.findPull(func(p pull.PullRequest) bool { return p.IssueID == issueID && p.BaseBranch == branch })
	return err == nil
}
