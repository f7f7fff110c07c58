package actions

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Refusals of the artifact protocol.
var (
	errArtifactNotFound = errs.NotFound("artifact not found")
	errArtifactExpired  = errs.NotFound("artifact has expired")
	errTaskNotRunning   = errs.Unauthenticated("task is not running")
	errBadSignature     = errs.Unauthenticated("invalid signature")
	errSignatureExpired = errs.Unauthenticated("signature expired")
	errForeignRun       = errs.Forbidden("the run is not the runtime token's")
)

// Artifacts are the use cases of the artifacts workflow runs upload: the
// v4 artifact protocol a task speaks with its runtime token and signed
// URLs, the API's listing, download and deletion, and the expiry.
type Artifacts struct{ *Service }

// Artifacts returns the artifact use cases.
func (s *Service) Artifacts() Artifacts { return Artifacts{s} }

// RuntimeTask is the running task a runtime token names; a bad token or a
// task no longer running is errs.ErrUnauthenticated.
func (s Artifacts) RuntimeTask(ctx context.Context, raw string) (*actions.Task, error) {
	c, err := s.signer.ParseRuntimeToken(raw, s.clock.Now())
	if err != nil {
		return nil, err
	}
	return s.runningTask(ctx, c.TaskID, c.RunID)
}

// runningTask finds a task of runID that still runs.
func (s Artifacts) runningTask(ctx context.Context, taskID, runID int64) (*actions.Task, error) {
	task, err := s.stores.ActionTasks.Get(ctx, taskID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errTaskNotRunning
	}
	if err != nil {
		return nil, err
	}
	if task.Status != actions.StatusRunning || (runID != 0 && task.Run.ID != runID) {
		return nil, errTaskNotRunning
	}
	return task, nil
}

// checkRun checks that the protocol's workflow_run_backend_id is the
// task's run.
func checkRun(task *actions.Task, runBackendID string) error {
	if id, err := strconv.ParseInt(runBackendID, 10, 64); err != nil || id != task.Run.ID {
		return errForeignRun
	}
	return nil
}

// signed signs u for endpoint, expiring an hour from now.
func (s Artifacts) signed(endpoint string, artifactID, taskID int64) actions.SignedArtifactURL {
	u := actions.SignedArtifactURL{ArtifactID: artifactID, TaskID: taskID,
		Expires: s.clock.Now().Add(actions.ArtifactURLLifetime).Truncate(time.Second)}
	u.Sig = s.signer.SignURL(u.Message(endpoint))
	return u
}

// verify checks u's signature for endpoint and its expiry.
func (s Artifacts) verify(endpoint string, u actions.SignedArtifactURL) error {
	if !s.signer.VerifyURL(u.Message(endpoint), u.Sig) {
		return errBadSignature
	}
	if !u.Expires.After(s.clock.Now()) {
		return errSignatureExpired
	}
	return nil
}

// Create starts (or starts again) the upload of the task's artifact name
// in its run, and returns it with the signed URL to upload its bytes to.
func (s Artifacts) Create(ctx context.Context, task *actions.Task, runBackendID, name string, expires time.Time) (*actions.Artifact, actions.SignedArtifactURL, error) {
	if err := checkRun(task, runBackendID); err != nil {
		return nil, actions.SignedArtifactURL{}, err
	}
	if err := actions.ValidateArtifactName(name); err != nil {
		return nil, actions.SignedArtifactURL{}, err
	}
	now := s.clock.Now()
	a := &actions.Artifact{RepoID: task.Run.RepoID, RunID: task.Run.ID, JobID: task.JobID, TaskID: task.ID, Name: name,
		Status: actions.ArtifactPending, Created: now, Updated: now, Expires: actions.ArtifactExpiry(now, expires)}
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.ActionArtifacts.Upsert(ctx, a)
	}); err != nil {
		return nil, actions.SignedArtifactURL{}, err
	}
	// An artifact uploaded again starts from nothing.
	if err := s.artifacts.Delete(ctx, a.ID); err != nil {
		return nil, actions.SignedArtifactURL{}, err
	}
	return a, s.signed(actions.ArtifactUploadEndpoint, a.ID, task.ID), nil
}

// Upload is one request to a signed upload URL: comp "block" (or
// "appendBlock") with a block id stores a block, without one appends a
// chunk, and "blocklist" sets the blocks' order from the XML body.
type Upload struct {
	URL     actions.SignedArtifactURL
	Comp    string
	BlockID string
	Body    io.Reader
}

// pendingOf checks a signed URL of endpoint and returns its artifact,
// which must belong to the run of its task, still running.
func (s Artifacts) pendingOf(ctx context.Context, endpoint string, u actions.SignedArtifactURL) (*actions.Artifact, error) {
	if err := s.verify(endpoint, u); err != nil {
		return nil, err
	}
	task, err := s.runningTask(ctx, u.TaskID, 0)
	if err != nil {
		return nil, err
	}
	a, err := s.stores.ActionArtifacts.Get(ctx, u.ArtifactID)
	if errors.Is(err, errs.ErrNotFound) || err == nil && a.RunID != task.Run.ID {
		return nil, errArtifactNotFound
	}
	return a, err
}

// Upload stores what one upload request sends.
func (s Artifacts) Upload(ctx context.Context, up Upload) error {
	a, err := s.pendingOf(ctx, actions.ArtifactUploadEndpoint, up.URL)
	if err != nil {
		return err
	}
	if a.Status != actions.ArtifactPending {
		return errs.Conflict("artifact is already finalized")
	}
	switch strings.ToLower(up.Comp) {
	case "block", "appendblock", "":
		if up.BlockID == "" {
			_, err = s.artifacts.Append(ctx, a.ID, up.Body, actions.MaxArtifactSize)
			return err
		}
		if err := actions.ValidateBlockID(up.BlockID); err != nil {
			return err
		}
		_, err = s.artifacts.PutBlock(ctx, a.ID, up.BlockID, up.Body, actions.MaxArtifactSize)
		return err
	case "blocklist":
		doc, err := io.ReadAll(io.LimitReader(up.Body, int64(actions.MaxBlockListSize)+1))
		if err != nil {
			return err
		}
		ids, err := actions.ParseBlockList(doc)
		if err != nil {
			return err
		}
		return s.artifacts.SetBlockList(ctx, a.ID, ids)
	}
	return errs.BadRequest("unknown comp " + strconv.Quote(up.Comp))
}

// runArtifact finds the artifact name of the task's run, whatever its
// status, after checking that the request names the task's run.
func (s Artifacts) runArtifact(ctx context.Context, task *actions.Task, runBackendID, name string) (*actions.Artifact, error) {
	if err := checkRun(task, runBackendID); err != nil {
		return nil, err
	}
	a, err := s.stores.ActionArtifacts.ByName(ctx, task.Run.ID, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errArtifactNotFound
	}
	return a, err
}

// Finalize makes what the task uploaded its artifact's content: the size,
// when given, and the "sha256:<hex>" digest, when given, must match.
func (s Artifacts) Finalize(ctx context.Context, task *actions.Task, runBackendID, name string, size int64, hash string) (*actions.Artifact, error) {
	a, err := s.runArtifact(ctx, task, runBackendID, name)
	if err != nil {
		return nil, err
	}
	if a.Status != actions.ArtifactPending {
		return nil, errs.Conflict("artifact is already finalized")
	}
	n, sum, err := s.artifacts.Commit(ctx, a.ID, actions.MaxArtifactSize)
	if err != nil {
		return nil, err
	}
	if size > 0 && n != size {
		_ = s.artifacts.Delete(ctx, a.ID)
		return nil, errs.BadRequest("artifact size " + strconv.FormatInt(n, 10) + " is not the size given")
	}
	if want, ok := strings.CutPrefix(hash, "sha256:"); ok && !strings.EqualFold(want, sum) {
		_ = s.artifacts.Delete(ctx, a.ID)
		return nil, errs.BadRequest("artifact digest mismatch")
	}
	now := s.clock.Now()
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.ActionArtifacts.Confirm(ctx, a.ID, n, sum, now)
	}); err != nil {
		return nil, err
	}
	a.Size, a.SHA256, a.Status, a.Updated = n, sum, actions.ArtifactConfirmed, now
	return a, nil
}

// ListRun lists the finalized, unexpired artifacts of the task's run,
// filtered by name and id when given.
func (s Artifacts) ListRun(ctx context.Context, task *actions.Task, runBackendID string, name *string, id *int64) ([]*actions.Artifact, error) {
	if err := checkRun(task, runBackendID); err != nil {
		return nil, err
	}
	all, err := s.stores.ActionArtifacts.ListRun(ctx, task.Run.ID)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	out := make([]*actions.Artifact, 0, len(all))
	for _, a := range all {
		if a.Expired(now) || name != nil && a.Name != *name || id != nil && a.ID != *id {
			continue
		}
		out = append(out, a)
	}
	return out, nil
}

// confirmedByName is the run's finalized, unexpired artifact name.
func (s Artifacts) confirmedByName(ctx context.Context, runID int64, name string) (*actions.Artifact, error) {
	a, err := s.stores.ActionArtifacts.ByName(ctx, runID, name)
	if errors.Is(err, errs.ErrNotFound) || err == nil && a.Status != actions.ArtifactConfirmed {
		return nil, errArtifactNotFound
	}
	if err == nil && a.Expired(s.clock.Now()) {
		return nil, errArtifactExpired
	}
	return a, err
}

// SignedDownload returns the signed URL the task downloads its run's
// artifact name from.
func (s Artifacts) SignedDownload(ctx context.Context, task *actions.Task, runBackendID, name string) (actions.SignedArtifactURL, error) {
	if err := checkRun(task, runBackendID); err != nil {
		return actions.SignedArtifactURL{}, err
	}
	a, err := s.confirmedByName(ctx, task.Run.ID, name)
	if err != nil {
		return actions.SignedArtifactURL{}, err
	}
	return s.signed(actions.ArtifactDownloadEndpoint, a.ID, task.ID), nil
}

// Download opens the artifact a signed download URL names.
func (s Artifacts) Download(ctx context.Context, u actions.SignedArtifactURL) (*actions.Artifact, io.ReadSeekCloser, error) {
	a, err := s.pendingOf(ctx, actions.ArtifactDownloadEndpoint, u)
	if err != nil {
		return nil, nil, err
	}
	return s.open(ctx, a)
}

// open reads a finalized, unexpired artifact.
func (s Artifacts) open(ctx context.Context, a *actions.Artifact) (*actions.Artifact, io.ReadSeekCloser, error) {
	if a.Status != actions.ArtifactConfirmed {
		return nil, nil, errArtifactNotFound
	}
	if a.Expired(s.clock.Now()) {
		return nil, nil, errArtifactExpired
	}
	f, err := s.artifacts.Open(ctx, a.ID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errArtifactNotFound
	}
	return a, f, err
}

// DeleteByName deletes the task's run's artifact name.
func (s Artifacts) DeleteByName(ctx context.Context, task *actions.Task, runBackendID, name string) (*actions.Artifact, error) {
	a, err := s.runArtifact(ctx, task, runBackendID, name)
	if err != nil {
		return nil, err
	}
	return a, s.remove(ctx, a)
}

// remove deletes an artifact's row, then its bytes.
func (s Artifacts) remove(ctx context.Context, a *actions.Artifact) error {
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.ActionArtifacts.Delete(ctx, a.ID)
	}); err != nil {
		return err
	}
	return s.artifacts.Delete(ctx, a.ID)
}

// List returns one page of the repository's finalized artifacts, newest
// first, of one run (when runID is not 0; a run of another repository is
// errs.ErrNotFound) and of one name (when not "").
func (s Artifacts) List(ctx context.Context, repoID, runID int64, name string, opts ports.ListOptions) ([]*actions.Artifact, int64, error) {
	if runID != 0 {
		if _, err := s.stores.ActionRuns.Run(ctx, repoID, runID); err != nil {
			return nil, 0, err
		}
	}
	return s.stores.ActionArtifacts.List(ctx, repoID, runID, name, opts)
}

// Expired says whether a is past its expiry now.
func (s Artifacts) Expired(a *actions.Artifact) bool { return a.Expired(s.clock.Now()) }

// Get finds the repository's finalized artifact id.
func (s Artifacts) Get(ctx context.Context, repoID, id int64) (*actions.Artifact, error) {
	a, err := s.stores.ActionArtifacts.Get(ctx, id)
	if errors.Is(err, errs.ErrNotFound) || err == nil && (a.RepoID != repoID || a.Status != actions.ArtifactConfirmed) {
		return nil, errArtifactNotFound
	}
	return a, err
}

// Delete deletes the repository's artifact id with its bytes.
func (s Artifacts) Delete(ctx context.Context, repoID, id int64) error {
	a, err := s.Get(ctx, repoID, id)
	if err != nil {
		return err
	}
	return s.remove(ctx, a)
}

// RawURL signs the API's raw download of the repository's artifact id,
// for an hour; an expired artifact is errs.ErrNotFound.
func (s Artifacts) RawURL(ctx context.Context, repoID, id int64) (actions.SignedArtifactURL, error) {
	a, err := s.Get(ctx, repoID, id)
	if err != nil {
		return actions.SignedArtifactURL{}, err
	}
	if a.Expired(s.clock.Now()) {
		return actions.SignedArtifactURL{}, errArtifactExpired
	}
	return s.signed(actions.ArtifactRawEndpoint, a.ID, 0), nil
}

// Raw opens the artifact a signed raw URL of repository owner/name names:
// the signature is the credential, so the repository is found without
// asking who calls.
func (s Artifacts) Raw(ctx context.Context, owner, name string, u actions.SignedArtifactURL) (*actions.Artifact, io.ReadSeekCloser, error) {
	if err := s.verify(actions.ArtifactRawEndpoint, u); err != nil {
		return nil, nil, err
	}
	repo, err := s.stores.Repos.GetByFullName(ctx, owner, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errArtifactNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	a, err := s.Get(ctx, repo.ID, u.ArtifactID)
	if err != nil {
		return nil, nil, err
	}
	return s.open(ctx, a)
}

// expiredBatch is how many expired artifacts one step of the cleanup takes.
const expiredBatch = 100

// CleanupExpired deletes the artifacts expired at now, rows and bytes,
// and returns how many went.
func (s Artifacts) CleanupExpired(ctx context.Context, now time.Time) (int, error) {
	n := 0
	for {
		list, err := s.stores.ActionArtifacts.Expired(ctx, now, expiredBatch)
		if err != nil || len(list) == 0 {
			return n, err
		}
		for _, a := range list {
			if err := s.remove(ctx, a); err != nil && !errors.Is(err, errs.ErrNotFound) {
				return n, err
			}
			n++
		}
		if len(list) < expiredBatch {
			return n, nil
		}
	}
}
