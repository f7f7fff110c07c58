package pulls

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/ports"
)

// KindOutdateComments is the job that marks the code comments of a pull
// request outdated whose line its moved head changed (Gitea's
// InvalidateCodeComments after a push to the head).
const KindOutdateComments = "pull.outdate_comments"

// maxOutdateComments bounds the code comments one job looks at.
const maxOutdateComments = 1000

// outdatePayload is an outdate job's input.
type outdatePayload struct {
	PullID int64 `json:"pull_id"`
}

func (s *Service) registerOutdateJobs(runner *jobs.Runner) {
	runner.Handle(KindOutdateComments, jobs.KindOptions{MaxAttempts: 5, Concurrency: 1, Lease: 10 * time.Minute},
		s.runOutdateComments)
}

// enqueueOutdate queues, inside tx, the re-anchoring of a pull request's
// code comments. It shares the pull request's queue with its checks, so it
// runs after the check that copies the new head into the base repository.
func enqueueOutdate(ctx context.Context, tx ports.Stores, pullID int64) error {
	b, err := json.Marshal(outdatePayload{PullID: pullID})
	if err != nil {
		return err
	}
	key := "pull:" + strconv.FormatInt(pullID, 10)
	_, err = tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: KindOutdateComments, Queue: key, Dedup: key, Payload: b})
	return err
}

// runOutdateComments compares, for each code comment of the pull request
// not outdated yet, the origin of its line at the commit it was written on
// with the origin of that line at the present head, and marks those whose
// line changed outdated.
func (s *Service) runOutdateComments(ctx context.Context, j *ports.Job) error {
	var in outdatePayload
	if err := json.Unmarshal(j.Payload, &in); err != nil || in.PullID <= 0 {
		return jobs.Permanent(errors.New("pulls: unreadable outdate payload"))
	}
	// A push while this runs queues the next run rather than being lost.
	if err := s.stores.Jobs.ReleaseDedup(ctx, j.ID); err != nil {
		return err
	}
	p, err := s.stores.Pulls.GetByID(ctx, in.PullID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil || p.HasMerged {
		return err
	}
	base, err := s.stores.Repos.GetByID(ctx, p.BaseRepoID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	comments, err := s.stores.PullReviews.ValidCodeComments(ctx, p.IssueID, maxOutdateComments)
	if err != nil || len(comments) == 0 {
		return err
	}
	// The base repository holds the comments' commits (under the pull
	// request's head ref); the new head is copied there first.
	head, err := s.SyncHead(ctx, base, p)
	if err != nil || head == "" {
		return err
	}
	origins := lineOrigins{s: s, path: pathOf(base), seen: map[lineAt]pull.LineOrigin{}}
	var outdated []int64
	for _, c := range comments {
		if c.CommitSHA == "" || c.CommitSHA == head || c.Line == 0 {
			continue
		}
		line := pull.UnsignedLine(c.Line)
		then, err := origins.of(ctx, c.CommitSHA, c.TreePath, line)
		if err != nil {
			return err
		}
		now, err := origins.of(ctx, head, c.TreePath, line)
		if err != nil {
			return err
		}
		if pull.IsOutdated(then, now) {
			outdated = append(outdated, c.ID)
		}
	}
	return s.stores.PullReviews.InvalidateComments(ctx, outdated)
}

// lineAt is one line of a file at one commit.
type lineAt struct {
	commit, path string
	line         int64
}

// lineOrigins blames lines of one repository, each once.
type lineOrigins struct {
	s    *Service
	path ports.RepoPath
	seen map[lineAt]pull.LineOrigin
}

func (o lineOrigins) of(ctx context.Context, commit, path string, line int64) (pull.LineOrigin, error) {
	k := lineAt{commit: commit, path: path, line: line}
	if got, ok := o.seen[k]; ok {
		return got, nil
	}
	id, err := o.s.pulls.LineBlame(ctx, o.path, commit, path, line)
	if errors.Is(err, errs.ErrNotFound) {
		err, id = nil, ""
	}
	if err != nil {
		return pull.LineOrigin{}, err
	}
	got := pull.LineOrigin{CommitID: id, Missing: id == ""}
	o.seen[k] = got
	return got, nil
}
