package actions

import (
	"context"
	"encoding/json"
	"errors"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// maxWorkflowSize bounds the workflow files read (larger ones are refused
// as invalid).
const maxWorkflowSize = 1 << 20

// errWorkflowNotFound answers an unknown workflow id, as Gitea words it.
var errWorkflowNotFound = errs.NotFound("workflow not found")

// Workflows are the use cases of a repository's workflow files: listing
// them, disabling and enabling them, dispatching them.
type Workflows struct{ *Service }

// Workflows returns the workflow use cases.
func (s *Service) Workflows() Workflows { return Workflows{s} }

// WorkflowFile is one workflow file of a revision and its state.
type WorkflowFile struct {
	// ID is the file name; Path the path from the root.
	ID, Path string
	// Disabled says the repository disabled it.
	Disabled bool
	// BlobID is the file's blob; Created and Updated the committer times
	// of the last commit that changed it.
	BlobID           string
	Created, Updated time.Time
}

// State is the workflow's state as Gitea names it.
func (w WorkflowFile) State() string {
	if w.Disabled {
		return actions.WorkflowDisabledManually
	}
	return actions.WorkflowActive
}

func repoPath(r *repository.Repository) ports.RepoPath {
	return ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
}

// files lists the workflow files at ref ("" is the default branch), the
// first of a name winning when both folders have it. An empty repository
// has none.
func (s Workflows) files(ctx context.Context, r *repository.Repository, ref string, lastCommit bool) ([]WorkflowFile, error) {
	if r.Empty {
		return nil, nil
	}
	var out []WorkflowFile
	seen := map[string]bool{}
	for _, dir := range actions.WorkflowDirs {
		res, err := s.git.ReadPath(ctx, repoPath(r), ports.GitPathQuery{Ref: ref, Path: dir, List: true, LastCommit: lastCommit})
		if errors.Is(err, errs.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range res.Entries {
			if e.Type != ports.EntryFile || !actions.IsWorkflowFile(e.Name) || seen[e.Name] {
				continue
			}
			seen[e.Name] = true
			f := WorkflowFile{ID: e.Name, Path: path.Join(dir, e.Name), BlobID: e.ID}
			if e.LastCommit != nil {
				f.Created, f.Updated = e.LastCommit.Committer.When, e.LastCommit.Committer.When
			}
			out = append(out, f)
		}
	}
	return out, nil
}

// List lists the workflows of the repository's default branch with their
// states.
func (s Workflows) List(ctx context.Context, r *repository.Repository) ([]WorkflowFile, error) {
	list, err := s.files(ctx, r, "", true)
	if err != nil || len(list) == 0 {
		return list, err
	}
	disabled, err := s.disabledSet(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].Disabled = disabled[list[i].ID]
	}
	return list, nil
}

func (s Workflows) disabledSet(ctx context.Context, repoID int64) (map[string]bool, error) {
	ids, err := s.stores.ActionRuns.DisabledWorkflows(ctx, repoID)
	if err != nil {
		return nil, err
	}
	set := make(map[string]bool, len(ids))
	for _, id := range ids {
		set[id] = true
	}
	return set, nil
}

// Get finds the default branch's workflow with this id (its file name).
func (s Workflows) Get(ctx context.Context, r *repository.Repository, id string) (WorkflowFile, error) {
	list, err := s.List(ctx, r)
	if err != nil {
		return WorkflowFile{}, err
	}
	for _, w := range list {
		if w.ID == id {
			return w, nil
		}
	}
	return WorkflowFile{}, errWorkflowNotFound
}

// SetDisabled disables or enables the default branch's workflow with this
// id; 404 for an unknown one.
func (s Workflows) SetDisabled(ctx context.Context, r *repository.Repository, id string, disabled bool) error {
	if _, err := s.Get(ctx, r, id); err != nil {
		return err
	}
	return s.stores.ActionRuns.SetWorkflowDisabled(ctx, r.ID, id, disabled)
}

// Dispatch runs the workflow with this id at ref (a branch or tag) for
// userID with the given inputs, as a workflow_dispatch event: 422 without
// a ref, 404 for a ref or workflow that does not exist, 403 when the
// workflow is disabled, 422 for a workflow without the trigger, invalid
// YAML or inputs it does not declare, lacks or cannot read. The run and its
// jobs are queued for runners.
func (s Workflows) Dispatch(ctx context.Context, r *repository.Repository, userID int64, id, ref string,
	inputs map[string]string) (*actions.Run, error) {
	if strings.TrimSpace(ref) == "" {
		return nil, errs.Invalid("ref is required", "ref")
	}
	if r.Empty {
		return nil, errs.NotFound("ref does not exist")
	}
	p := repoPath(r)
	fullRef, short := ref, ref
	if b, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		short = b
	} else if t, ok := strings.CutPrefix(ref, "refs/tags/"); ok {
		short = t
	}
	rev, err := s.git.Resolve(ctx, p, short)
	if errors.Is(err, errs.ErrNotFound) || (err == nil && rev.Kind == ports.RevisionCommit) {
		return nil, errs.NotFound("ref does not exist")
	}
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(fullRef, "refs/") {
		if rev.Kind == ports.RevisionTag {
			fullRef = "refs/tags/" + short
		} else {
			fullRef = "refs/heads/" + short
		}
	}
	disabled, err := s.disabledSet(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	files, err := s.files(ctx, r, rev.CommitID, false)
	if err != nil {
		return nil, err
	}
	var file *WorkflowFile
	for i := range files {
		if files[i].ID == id {
			file = &files[i]
		}
	}
	if file == nil {
		return nil, errWorkflowNotFound
	}
	if disabled[id] {
		return nil, errs.Forbidden("workflow is disabled")
	}
	wf, err := s.parse(ctx, r, *file)
	if err != nil {
		return nil, err
	}
	values, err := wf.DispatchInputs(inputs)
	if err != nil {
		return nil, err
	}
	commit, err := s.git.Commit(ctx, p, rev.CommitID)
	if err != nil {
		return nil, err
	}
	payload, err := json.Marshal(map[string]any{"ref": fullRef, "inputs": values, "workflow": file.Path})
	if err != nil {
		return nil, err
	}
	run := s.newRun(r.ID, userID, file.ID, wf.Name, fullRef, rev.CommitID, "workflow_dispatch", string(payload), commitTitle(commit.Message))
	// A run created at the same moment (a push's) may take the number
	// first; the next attempt takes the one after.
	for attempt := 0; ; attempt++ {
		err = s.inTxTasksChanged(ctx, func(ctx context.Context, tx ports.Stores) error {
			return tx.ActionRuns.CreateRun(ctx, run, s.newJobs(wf))
		})
		if !errors.Is(err, errs.ErrConflict) || attempt == 2 {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return run, nil
}

// parse reads and parses one workflow file of r, or takes the outcome of
// an earlier parse of the same blob in r.
func (s Workflows) parse(ctx context.Context, r *repository.Repository, f WorkflowFile) (*actions.Workflow, error) {
	key := parsedWorkflowKey{repoID: r.ID, blobID: f.BlobID, fileID: f.ID}
	if e, ok := s.parsed.get(key); ok {
		return e.wf, e.err
	}
	wf, err := s.readWorkflow(ctx, repoPath(r), f)
	s.parsed.put(key, wf, err)
	return wf, err
}

// readWorkflow reads and parses one workflow file.
func (s Workflows) readWorkflow(ctx context.Context, p ports.RepoPath, f WorkflowFile) (*actions.Workflow, error) {
	blob, err := s.git.Blob(ctx, p, f.BlobID, maxWorkflowSize)
	if err != nil {
		return nil, err
	}
	if blob.Content == nil && blob.Size > 0 {
		return nil, errs.Invalid("workflow: file too large", "workflow")
	}
	return actions.ParseWorkflow(f.ID, blob.Content)
}

// newRun is a waiting run.
func (s *Service) newRun(repoID, userID int64, workflowID, workflowName, ref, sha, event, payload, title string) *actions.Run {
	now := s.clock.Now()
	return &actions.Run{RepoID: repoID, WorkflowID: workflowID, WorkflowName: workflowName, Title: title,
		TriggerUserID: userID, Ref: ref,
		CommitSHA: sha, Event: event, EventPayload: payload, Status: actions.StatusWaiting, Created: now, Updated: now}
}

// newJobs are a workflow's jobs: waiting for a runner, or blocked while
// they need others.
func (s *Service) newJobs(wf *actions.Workflow) []*actions.RunJob {
	now := s.clock.Now()
	out := make([]*actions.RunJob, 0, len(wf.Jobs))
	for _, j := range wf.Jobs {
		status := actions.StatusWaiting
		if len(j.Needs) > 0 {
			status = actions.StatusBlocked
		}
		// The workflow may be a shared parse (parsedWorkflows): its lists are copied.
		out = append(out, &actions.RunJob{JobID: j.ID, Name: j.Name, RunsOn: slices.Clone(j.RunsOn), Needs: slices.Clone(j.Needs),
			Status: status, Created: now, Updated: now})
	}
	return out
}

// commitTitle is a commit message's first line.
func commitTitle(msg string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return strings.TrimSpace(line)
}

// Tasks lists one page of the repository's tasks, newest first.
func (s *Service) Tasks(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*actions.Task, int64, error) {
	return s.stores.ActionRuns.ListTasks(ctx, repoID, opts)
}
