// Package notifications creates users' notification threads and answers
// the notification routes: a fan-out job, queued in the transaction of each
// event that notifies (an issue or pull request opened, commented, closed,
// reopened or merged, an assignment, a review request, a release
// published, an issue's body or a comment edited to mention new users, a
// branch pushed whose newest commits' messages mention users), upserts one
// thread per recipient; the use cases list, count
// and mark them.
package notifications

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/notification"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// FanoutKind is the job kind of a notification fan-out.
const FanoutKind = "notification.fanout"

// fanoutBatch is how many threads one upsert statement writes (eleven
// columns each: well within SQLite's and Postgres's bound parameters).
const fanoutBatch = 1000

var _ ports.Events = (*Fanout)(nil)

// fanoutJob is a fan-out job's payload: what changed, by whom and when.
// The job reads the rest (the issue, the comment's text, the watchers)
// when it runs.
type fanoutJob struct {
	RepoID  int64                    `json:"repo_id"`
	Subject notification.SubjectType `json:"subject"`
	IssueID int64                    `json:"issue_id,omitempty"`
	// CommentID is the comment that notifies, 0 for none.
	CommentID int64 `json:"comment_id,omitempty"`
	ActorID   int64 `json:"actor_id"`
	// ScanIssue: the issue's body mentions users (it was just opened);
	// a comment's body always is scanned.
	ScanIssue bool `json:"scan_issue,omitempty"`
	// Mentioned are users the change names directly (an assignee, a
	// reviewer asked).
	Mentioned []int64 `json:"mentioned,omitempty"`
	// NewlyMentioned are the names an edit of the comment or the issue's
	// body mentions that it did not before: only they are told.
	NewlyMentioned []string `json:"newly_mentioned,omitempty"`
	// Pushed is the branch update whose commits' messages mention users
	// (subject Commit).
	Pushed *repository.RefChange `json:"pushed,omitempty"`
	At     time.Time             `json:"at"`
}

// Fanout is the event port in front of next: for each event that notifies
// it queues a fan-out job in the event's transaction, then hands the event
// on, so a request never waits for the threads to be written and the job
// runs if and only if the change commits.
type Fanout struct {
	next   ports.Events
	stores ports.Stores
	tx     ports.Transactor
	jobs   *jobs.Runner
	clock  ports.Clock
	unread *UnreadCache
	git    ports.GitHistory
}

// NewFanout wraps next and registers the fan-out's handler with runner;
// each fan-out drops its recipients' unread counts from unread.
func NewFanout(next ports.Events, stores ports.Stores, tx ports.Transactor, runner *jobs.Runner, clock ports.Clock,
	unread *UnreadCache, git ports.GitHistory) *Fanout {
	f := &Fanout{next: next, stores: stores, tx: tx, jobs: runner, clock: clock, unread: unread, git: git}
	runner.Handle(FanoutKind, jobs.KindOptions{MaxAttempts: 5}, f.run)
	return f
}

// Notify wakes the job workers (the fan-outs and next's) once the
// transaction that queued work has committed.
func (f *Fanout) Notify() {
	f.jobs.Notify()
	if n, ok := f.next.(interface{ Notify() }); ok {
		n.Notify()
	}
}

func (f *Fanout) enqueue(ctx context.Context, tx ports.Stores, p fanoutJob) error {
	if p.RepoID == 0 || p.ActorID <= 0 {
		return nil
	}
	if p.At.IsZero() {
		p.At = f.clock.Now()
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	_, err = tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: FanoutKind, Payload: b})
	return err
}

// Pushed queues, for each branch the push created or moved, the fan-out of
// the mentions in its newest commits' messages (Gitea's commit threads).
func (f *Fanout) Pushed(ctx context.Context, tx ports.Stores, e ports.PushEvent) error {
	for _, c := range e.Changes {
		if !c.IsBranch() || c.IsDelete() {
			continue
		}
		if err := f.enqueue(ctx, tx, fanoutJob{RepoID: e.RepoID, Subject: notification.SubjectCommit,
			ActorID: e.PusherID, Pushed: &c, At: e.When}); err != nil {
			return err
		}
	}
	return f.next.Pushed(ctx, tx, e)
}

// RepositoryCreated hands the event on.
func (f *Fanout) RepositoryCreated(ctx context.Context, tx ports.Stores, e ports.RepoEvent) error {
	return f.next.RepositoryCreated(ctx, tx, e)
}

// RepositoryDeleted hands the event on: the threads go with the repository.
func (f *Fanout) RepositoryDeleted(ctx context.Context, tx ports.Stores, e ports.RepoEvent) error {
	return f.next.RepositoryDeleted(ctx, tx, e)
}

// WikiChanged hands the event on.
func (f *Fanout) WikiChanged(ctx context.Context, tx ports.Stores, e ports.WikiEvent) error {
	return f.next.WikiChanged(ctx, tx, e)
}

// RepositoryMoved notifies nobody.
func (f *Fanout) RepositoryMoved(ctx context.Context, tx ports.Stores, e ports.RepoMoveEvent) error {
	return f.next.RepositoryMoved(ctx, tx, e)
}

// MirrorSynced notifies nobody.
func (f *Fanout) MirrorSynced(ctx context.Context, tx ports.Stores, e ports.MirrorSyncEvent) error {
	return f.next.MirrorSynced(ctx, tx, e)
}

// IssueChanged queues the fan-out of an issue or pull request opened,
// closed (merged), reopened, commented on, assigned or asked for review.
func (f *Fanout) IssueChanged(ctx context.Context, tx ports.Stores, e ports.IssueEvent) error {
	if p, ok := issueFanout(e); ok {
		if err := f.enqueue(ctx, tx, p); err != nil {
			return err
		}
	}
	return f.next.IssueChanged(ctx, tx, e)
}

// issueFanout is the job of an issue event, if it notifies.
func issueFanout(e ports.IssueEvent) (fanoutJob, bool) {
	if e.Issue == nil || e.Repo == nil {
		return fanoutJob{}, false
	}
	subject := notification.SubjectIssue
	if e.Issue.IsPull {
		subject = notification.SubjectPull
	}
	p := fanoutJob{RepoID: e.Repo.ID, Subject: subject, IssueID: e.Issue.ID, ActorID: e.SenderID}
	switch {
	case e.Kind == ports.IssueEventIssues && e.Action == "opened":
		p.ScanIssue = true
	case e.Kind == ports.IssueEventIssues && (e.Action == "closed" || e.Action == "reopened"):
	case e.Kind == ports.IssueEventComment && e.Action == "created" && e.Comment != nil:
		p.CommentID = e.Comment.ID
	case e.Kind == ports.IssueEventComment && e.Action == "edited" && e.Comment != nil && e.FromBody != nil:
		p.CommentID = e.Comment.ID
		if p.NewlyMentioned = issue.AddedMentions(*e.FromBody, e.Comment.Body); len(p.NewlyMentioned) == 0 {
			return fanoutJob{}, false
		}
	case e.Kind == ports.IssueEventIssues && e.Action == "edited" && e.FromBody != nil:
		if p.NewlyMentioned = issue.AddedMentions(*e.FromBody, e.Issue.Body); len(p.NewlyMentioned) == 0 {
			return fanoutJob{}, false
		}
	case e.Kind == ports.IssueEventAssign && e.Action == "assigned" && e.AssigneeID > 0:
		p.Mentioned = []int64{e.AssigneeID}
	case e.Kind == ports.IssueEventPullReviewRequest && e.Action == "review_requested" && e.ReviewerID > 0:
		p.Mentioned = []int64{e.ReviewerID}
	default:
		return fanoutJob{}, false
	}
	return p, true
}

// ReleaseChanged queues, for a published release, a repository thread for
// the repository's watchers.
func (f *Fanout) ReleaseChanged(ctx context.Context, tx ports.Stores, e ports.ReleaseEvent) error {
	if e.Action == "published" && e.Repo != nil && e.Release != nil {
		if err := f.enqueue(ctx, tx, fanoutJob{RepoID: e.Repo.ID, Subject: notification.SubjectRepository,
			ActorID: e.SenderID}); err != nil {
			return err
		}
	}
	return f.next.ReleaseChanged(ctx, tx, e)
}

// run is the fan-out job: it gathers the audience, keeps the recipients
// who may read the subject, and upserts their threads in batches in one
// transaction. Running it twice writes the same threads.
func (f *Fanout) run(ctx context.Context, j *ports.Job) error {
	var p fanoutJob
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return jobs.Permanent(fmt.Errorf("notification fan-out payload: %w", err))
	}
	threads, err := f.threads(ctx, p)
	if errors.Is(err, errs.ErrNotFound) {
		return nil // the repository, issue or comment is gone: nobody to tell
	}
	if err != nil || len(threads) == 0 {
		return err
	}
	users := make([]int64, len(threads))
	for i, t := range threads {
		users[i] = t.UserID
	}
	defer f.unread.drop(users...)
	return f.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		for len(threads) > 0 {
			n := min(len(threads), fanoutBatch)
			if err := tx.Notifications.Notify(ctx, threads[:n]); err != nil {
				return err
			}
			threads = threads[n:]
		}
		return nil
	})
}

// threads computes the job's threads.
func (f *Fanout) threads(ctx context.Context, p fanoutJob) ([]notification.Thread, error) {
	repo, err := f.stores.Repos.GetByID(ctx, p.RepoID)
	if err != nil {
		return nil, err
	}
	known := map[int64]*user.User{}
	aud := notification.Audience{ActorID: p.ActorID, Mentioned: p.Mentioned}
	unit := permission.UnitReleases
	switch {
	case p.Subject == notification.SubjectCommit:
		return f.commitThreads(ctx, p, repo)
	case len(p.NewlyMentioned) > 0:
		// An edit tells only whom it newly mentions.
		if unit, err = f.mentionAudience(ctx, p, &aud, known); err != nil {
			return nil, err
		}
	case p.Subject == notification.SubjectIssue || p.Subject == notification.SubjectPull:
		if err := f.watchAudience(ctx, repo.ID, &aud, known); err != nil {
			return nil, err
		}
		if unit, err = f.issueAudience(ctx, p, &aud, known); err != nil {
			return nil, err
		}
	default:
		if err := f.watchAudience(ctx, repo.ID, &aud, known); err != nil {
			return nil, err
		}
	}
	ids := notification.Recipients(aud)
	var missing []int64
	for _, id := range ids {
		if known[id] == nil {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		more, err := f.stores.Users.GetByIDs(ctx, missing)
		if err != nil {
			return nil, err
		}
		for _, u := range more {
			known[u.ID] = u
		}
	}
	out := make([]notification.Thread, 0, len(ids))
	for _, id := range ids {
		u := known[id]
		if u == nil || u.Kind != user.KindIndividual {
			continue
		}
		if ok, err := f.mayRead(ctx, u, repo, unit); err != nil {
			return nil, err
		} else if !ok {
			continue
		}
		out = append(out, notification.Thread{UserID: id, RepoID: repo.ID, Status: notification.StatusUnread,
			Subject: p.Subject, IssueID: p.IssueID, CommentID: p.CommentID, UpdatedBy: p.ActorID,
			Created: p.At, Updated: p.At})
	}
	return out, nil
}

// watchAudience adds the repository's watchers to aud.
func (f *Fanout) watchAudience(ctx context.Context, repoID int64, aud *notification.Audience, known map[int64]*user.User) error {
	watchers, _, err := f.stores.Watches.Watchers(ctx, repoID, ports.ListOptions{})
	if err != nil {
		return err
	}
	for _, u := range watchers {
		known[u.ID] = u
		aud.Watchers = append(aud.Watchers, u.ID)
	}
	return nil
}

// mentionAudience adds the users an edit newly mentions to aud, and
// returns the unit they must read.
func (f *Fanout) mentionAudience(ctx context.Context, p fanoutJob, aud *notification.Audience, known map[int64]*user.User) (permission.Unit, error) {
	i, err := f.stores.Issues.GetByID(ctx, p.IssueID)
	if err != nil {
		return "", err
	}
	if err := f.addMentions(ctx, p.NewlyMentioned, aud, known); err != nil {
		return "", err
	}
	if i.IsPull {
		return permission.UnitPulls, nil
	}
	return permission.UnitIssues, nil
}

// addMentions adds the users of names (unknown names are skipped) to aud's
// mentioned.
func (f *Fanout) addMentions(ctx context.Context, names []string, aud *notification.Audience, known map[int64]*user.User) error {
	if len(names) == 0 {
		return nil
	}
	list, err := f.stores.Users.GetByNames(ctx, names)
	if err != nil {
		return err
	}
	for _, u := range list {
		known[u.ID] = u
		aud.Mentioned = append(aud.Mentioned, u.ID)
	}
	return nil
}

// issueAudience adds an issue's participants, muters and mentions to aud,
// and returns the unit a recipient must read.
func (f *Fanout) issueAudience(ctx context.Context, p fanoutJob, aud *notification.Audience, known map[int64]*user.User) (permission.Unit, error) {
	i, err := f.stores.Issues.GetByID(ctx, p.IssueID)
	if err != nil {
		return "", err
	}
	unit := permission.UnitIssues
	if i.IsPull {
		unit = permission.UnitPulls
	}
	if aud.Participants, _, err = f.stores.IssueRelations.Subscribers(ctx, i.ID, ports.ListOptions{}); err != nil {
		return "", err
	}
	if aud.Unsubscribed, err = f.stores.IssueRelations.Ignorers(ctx, i.ID); err != nil {
		return "", err
	}
	text := ""
	switch {
	case p.CommentID != 0:
		c, err := f.stores.Comments.GetByID(ctx, p.CommentID)
		if err != nil {
			return "", err
		}
		text = c.Body
	case p.ScanIssue:
		text = i.Body
	}
	if err := f.addMentions(ctx, issue.FindReferences(text).Mentions, aud, known); err != nil {
		return "", err
	}
	return unit, nil
}

// mayRead reports whether u reads unit of repo. Most recipients read a
// public repository without relations; only the others cost a query.
func (f *Fanout) mayRead(ctx context.Context, u *user.User, repo *repository.Repository, unit permission.Unit) (bool, error) {
	if !repo.HasUnit(unit) {
		return false, nil
	}
	if u.IsAdmin {
		return true, nil
	}
	actor := auth.Caller{User: u}.Actor()
	facts := repo.Facts()
	perm := permission.Compute(actor, facts, permission.Relations{})
	if perm.CanRead(unit) {
		return true, nil
	}
	if u.ID == repo.Owner.ID {
		return false, nil
	}
	rel, err := f.stores.Repos.Relations(ctx, facts, u.ID)
	if err != nil {
		return false, err
	}
	return permission.Compute(actor, facts, rel).CanRead(unit), nil
}
