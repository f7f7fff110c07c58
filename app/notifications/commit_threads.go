package notifications

import (
	"strings"

	"context"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/notification"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// pushedCommitsMentioning is how many of a branch update's newest commits
// are read for mentions: Gitea reads the push's commits as its feed keeps
// them ([ui] FEED_MAX_COMMIT_NUM, 5 by default).
const pushedCommitsMentioning = 5

// commitThreads are a push's commit threads, as Gitea's PushCommits
// makes them: for each of the branch update's newest commits, one thread
// about the commit for each user its message mentions who is not blocked
// by the repository's owner and may read the code. The pusher is not left
// out (Gitea does not leave them out either).
func (f *Fanout) commitThreads(ctx context.Context, p fanoutJob, repo *repository.Repository) ([]notification.Thread, error) {
	c := p.Pushed
	if c == nil || !repo.HasUnit(permission.UnitCode) {
		return nil, nil
	}
	q := ports.CommitListQuery{Ref: c.NewID, SkipTotal: true}
	if !c.IsCreate() {
		q.Not = c.OldID
	}
	path := ports.RepoPath{Owner: repo.Owner.Name, Name: repo.Name}
	commits, _, err := f.git.ListCommits(ctx, path, q, ports.ListOptions{Page: 1, Limit: pushedCommitsMentioning})
	if err != nil {
		return nil, err
	}
	mentions := make([][]string, len(commits))
	var names []string
	for i, cm := range commits {
		mentions[i] = issue.FindReferences(cm.Message).Mentions
		names = append(names, mentions[i]...)
	}
	if len(names) == 0 {
		return nil, nil
	}
	list, err := f.stores.Users.GetByNames(ctx, names)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]*user.User, len(list))
	for _, u := range list {
		byName[u.LowerName] = u
	}
	// Whether each user may be told is decided once per push.
	allowed := map[int64]bool{}
	decide := func(u *user.User) (bool, error) {
		if ok, seen := allowed[u.ID]; seen {
			return ok, nil
		}
		ok := u.Kind == user.KindIndividual
		if ok {
			blocked, err := f.stores.Blocks.IsBlocked(ctx, repo.Owner.ID, u.ID)
			if err != nil {
				return false, err
			}
			if ok = !blocked; ok {
				if ok, err = f.mayRead(ctx, u, repo, permission.UnitCode); err != nil {
					return false, err
				}
			}
		}
		allowed[u.ID] = ok
		return ok, nil
	}
	var out []notification.Thread
	for i, cm := range commits {
		seen := map[int64]bool{}
		for _, name := range mentions[i] {
			u := byName[strings.ToLower(name)]
			if u == nil || seen[u.ID] {
				continue
			}
			seen[u.ID] = true
			if ok, err := decide(u); err != nil {
				return nil, err
			} else if !ok {
				continue
			}
			out = append(out, notification.Thread{UserID: u.ID, RepoID: repo.ID, Status: notification.StatusUnread,
				Subject: notification.SubjectCommit, CommitID: cm.ID, UpdatedBy: p.ActorID, Created: p.At, Updated: p.At})
		}
	}
	return out, nil
}
