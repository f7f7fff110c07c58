package http

import (
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/repository"
)

// actionArtifacts serves the artifacts of a repository's workflow runs
// (catalogue 4.5): listing, reading, deleting, and the zip download by a
// signed URL valid for an hour (spec section 8).
type actionArtifacts struct{ *kernel }

// actionArtifactRoutes are the rows of actionArtifacts.
func (s *kernel) actionArtifactRoutes() []route {
	h := actionArtifacts{s}
	const a = R + "/actions/artifacts"
	return []route{
		{"GET", R + "/actions/runs/{run}/artifacts", scopes(catRepo), "RR(actions)", actionsUnit(h.listRun)},
		{"GET", a, scopes(catRepo), "RR(actions)", actionsUnit(h.list)},
		{"GET", a + "/{artifact_id}", scopes(catRepo), "RR(actions)", actionsUnit(h.get)},
		{"DELETE", a + "/{artifact_id}", scopes(catRepo), "RR(actions),RW(actions)", actionsUnit(h.delete)},
		{"GET", a + "/{artifact_id}/zip", scopes(catRepo), "RR(actions)", actionsUnit(h.zip)},
		// The signature is the credential: no repository is resolved for the caller.
		{"GET", a + "/{artifact_id}/zip/raw", scopes(catRepo), "SignedURL", h.raw},
	}
}

// actionArtifactRunDTO is the run an artifact names (Gitea's
// ActionWorkflowRun with the fields it fills there).
type actionArtifactRunDTO struct {
	ID           int64  `json:"id"`
	RepositoryID int64  `json:"repository_id"`
	HeadSHA      string `json:"head_sha"`
}

// actionArtifactDTO is Gitea's ActionArtifact.
type actionArtifactDTO struct {
	ID                 int64                 `json:"id"`
	Name               string                `json:"name"`
	SizeInBytes        int64                 `json:"size_in_bytes"`
	URL                string                `json:"url"`
	ArchiveDownloadURL string                `json:"archive_download_url"`
	Expired            bool                  `json:"expired"`
	WorkflowRun        *actionArtifactRunDTO `json:"workflow_run"`
	CreatedAt          time.Time             `json:"created_at"`
	UpdatedAt          time.Time             `json:"updated_at"`
	ExpiresAt          time.Time             `json:"expires_at"`
}

// actionArtifactsDTO is Gitea's ActionArtifactsResponse.
type actionArtifactsDTO struct {
	Artifacts  []actionArtifactDTO `json:"artifacts"`
	TotalCount int64               `json:"total_count"`
}

func (s actionArtifacts) toDTO(r *repository.Repository, a *actions.Artifact) actionArtifactDTO {
	u := s.baseURL + apiPrefix + "/repos/" + url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name) +
		"/actions/artifacts/" + itoa(a.ID)
	return actionArtifactDTO{ID: a.ID, Name: a.Name, SizeInBytes: a.Size, URL: u, ArchiveDownloadURL: u + "/zip",
		Expired: s.actions.Artifacts().Expired(a), WorkflowRun: &actionArtifactRunDTO{ID: a.RunID, RepositoryID: a.RepoID, HeadSHA: a.RunCommitSHA},
		CreatedAt: a.Created, UpdatedAt: a.Updated, ExpiresAt: a.Expires}
}

// list answers GET …/actions/artifacts, filtered by name.
func (s actionArtifacts) list(q *request) error { return s.listOf(q, 0) }

// listRun answers GET …/actions/runs/{run}/artifacts: the artifacts of the
// run of that id (not its number in the repository).
func (s actionArtifacts) listRun(q *request) error {
	run, err := pathID(q, "run")
	if err != nil {
		return err
	}
	return s.listOf(q, run)
}

func (s actionArtifacts) listOf(q *request, runID int64) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	r := q.repo.Repo
	list, total, err := s.actions.Artifacts().List(q.r.Context(), r.ID, runID, q.r.URL.Query().Get("name"), opts)
	if err != nil {
		return err
	}
	out := actionArtifactsDTO{Artifacts: make([]actionArtifactDTO, 0, len(list)), TotalCount: total}
	for _, a := range list {
		out.Artifacts = append(out.Artifacts, s.toDTO(r, a))
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// artifact is the repository's artifact the path names.
func (s actionArtifacts) artifact(q *request) (*actions.Artifact, error) {
	id, err := pathID(q, "artifact_id")
	if err != nil {
		return nil, err
	}
	return s.actions.Artifacts().Get(q.r.Context(), q.repo.Repo.ID, id)
}

// get answers GET …/actions/artifacts/{artifact_id}.
func (s actionArtifacts) get(q *request) error {
	a, err := s.artifact(q)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toDTO(q.repo.Repo, a))
	return nil
}

// delete answers DELETE …/actions/artifacts/{artifact_id} with 204.
func (s actionArtifacts) delete(q *request) error {
	id, err := pathID(q, "artifact_id")
	if err != nil {
		return err
	}
	if err := s.actions.Artifacts().Delete(q.r.Context(), q.repo.Repo.ID, id); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// zip answers GET …/zip with a 302 to the signed raw URL, valid an hour.
func (s actionArtifacts) zip(q *request) error {
	id, err := pathID(q, "artifact_id")
	if err != nil {
		return err
	}
	u, err := s.actions.Artifacts().RawURL(q.r.Context(), q.repo.Repo.ID, id)
	if err != nil {
		return err
	}
	r := q.repo.Repo
	loc := s.baseURL + apiPrefix + "/repos/" + url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name) +
		"/actions/artifacts/" + itoa(id) + "/zip/raw?sig=" + url.QueryEscape(u.Sig) +
		"&expires=" + strconv.FormatInt(u.Expires.Unix(), 10)
	http.Redirect(q.w, q.r, loc, http.StatusFound)
	return nil
}

// raw answers GET …/zip/raw?sig=…&expires=… with the artifact's zip; a
// forged or expired signature is 401.
func (s actionArtifacts) raw(q *request) error {
	id, err := pathID(q, "artifact_id")
	if err != nil {
		return err
	}
	u, err := actions.ParseSignedArtifactURL(q.r.URL.Query().Get, true)
	if err != nil {
		return err
	}
	u.ArtifactID = id
	a, f, err := s.actions.Artifacts().Raw(q.r.Context(), q.var_("owner"), q.var_("repo"), u)
	if err != nil {
		return err
	}
	defer f.Close()
	serveArtifact(q.w, q.r, a, f)
	return nil
}

// serveArtifact writes an artifact's zip, with ranges.
func serveArtifact(w http.ResponseWriter, r *http.Request, a *actions.Artifact, f interface {
	Read([]byte) (int, error)
	Seek(int64, int) (int64, error)
}) {
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": a.Name + ".zip"}))
	http.ServeContent(w, r, "", a.Updated, f)
}
