package http

import (
	"net/http"
	"net/url"
	"time"

	appactions "github.com/depothq/depot/app/actions"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
)

// actionWorkflows serves a repository's workflows (catalogue 4.5): the
// files under .gitea/workflows and .github/workflows of the default branch,
// their disabled state, their dispatch, and the tasks runners took.
type actionWorkflows struct{ *kernel }

// actionWorkflowRoutes are the rows of actionWorkflows.
func (s *kernel) actionWorkflowRoutes() []route {
	h := actionWorkflows{s}
	const wf = R + "/actions/workflows"
	return []route{
		{"GET", wf, scopes(catRepo), "RR(actions),T", actionsUnit(h.list)},
		{"GET", wf + "/{workflow_id}", scopes(catRepo), "RR(actions),T", actionsUnit(h.get)},
		{"PUT", wf + "/{workflow_id}/disable", scopes(catRepo), "RR(actions),RW(actions),T", actionsUnit(h.setDisabled(true))},
		{"PUT", wf + "/{workflow_id}/enable", scopes(catRepo), "RR(actions),RW(actions),T", actionsUnit(h.setDisabled(false))},
		{"POST", wf + "/{workflow_id}/dispatches", scopes(catRepo), "RR(actions),RW(actions),T", actionsUnit(h.dispatch)},
		{"GET", R + "/actions/tasks", scopes(catRepo), "RR(actions)", actionsUnit(h.tasks)},
	}
}

// errActionsDisabled answers a repository whose actions unit is off.
var errActionsDisabled = errs.NotFound("actions are disabled for this repository")

// actionsUnit refuses with 404 the repository whose actions unit is off,
// whoever asks (its owner and site administrators too).
func actionsUnit(h handler) handler {
	return func(q *request) error {
		if !q.repo.Repo.HasUnit(permission.UnitActions) {
			return errActionsDisabled
		}
		return h(q)
	}
}

// actionWorkflowDTO is Gitea's ActionWorkflow.
type actionWorkflowDTO struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Path      string    `json:"path"`
	State     string    `json:"state"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	URL       string    `json:"url"`
	HTMLURL   string    `json:"html_url"`
	BadgeURL  string    `json:"badge_url"`
}

// toActionWorkflow shapes a workflow file as Gitea does: its name is its
// file name.
func (s actionWorkflows) toActionWorkflow(r *repository.Repository, w appactions.WorkflowFile) actionWorkflowDTO {
	branch := url.PathEscape(r.DefaultBranch)
	return actionWorkflowDTO{ID: w.ID, Name: w.ID, Path: w.Path, State: w.State(),
		CreatedAt: w.Created, UpdatedAt: w.Updated,
		URL:      s.repoAPIURL(r) + "/actions/workflows/" + url.PathEscape(w.ID),
		HTMLURL:  s.repoWebURL(r) + "/src/branch/" + branch + "/" + escapePath(w.Path),
		BadgeURL: s.repoWebURL(r) + "/actions/workflows/" + url.PathEscape(w.ID) + "/badge.svg?branch=" + url.QueryEscape(r.DefaultBranch)}
}

// list answers GET …/actions/workflows with Gitea's ActionWorkflowResponse.
func (s actionWorkflows) list(q *request) error {
	r := q.repo.Repo
	list, err := s.actions.Workflows().List(q.r.Context(), r)
	if err != nil {
		return err
	}
	out := make([]actionWorkflowDTO, 0, len(list))
	for _, w := range list {
		out = append(out, s.toActionWorkflow(r, w))
	}
	q.json(http.StatusOK, map[string]any{"workflows": out, "total_count": len(out)})
	return nil
}

// get answers GET …/actions/workflows/{workflow_id}.
func (s actionWorkflows) get(q *request) error {
	w, err := s.actions.Workflows().Get(q.r.Context(), q.repo.Repo, q.var_("workflow_id"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toActionWorkflow(q.repo.Repo, w))
	return nil
}

// setDisabled answers PUT …/disable and …/enable with 204.
func (s actionWorkflows) setDisabled(disabled bool) handler {
	return func(q *request) error {
		return noContent(q, s.actions.Workflows().SetDisabled(q.r.Context(), q.repo.Repo, q.var_("workflow_id"), disabled))
	}
}

// dispatch answers POST …/dispatches (Gitea's
// CreateActionWorkflowDispatch) with 204, or with 200 and the run's
// RunDetails when return_run_details is true.
func (s actionWorkflows) dispatch(q *request) error {
	var b struct {
		Ref    string            `json:"ref"`
		Inputs map[string]string `json:"inputs"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	r := q.repo.Repo
	run, err := s.actions.Workflows().Dispatch(q.r.Context(), r, q.caller.UserID(), q.var_("workflow_id"), b.Ref, b.Inputs)
	if err != nil {
		return err
	}
	if q.r.URL.Query().Get("return_run_details") != "true" {
		q.w.WriteHeader(http.StatusNoContent)
		return nil
	}
	q.json(http.StatusOK, map[string]any{
		"workflow_run_id": run.ID,
		"run_url":         s.repoAPIURL(r) + "/actions/runs/" + itoa(run.ID),
		"html_url":        s.repoWebURL(r) + "/actions/runs/" + itoa(run.Index),
	})
	return nil
}

// actionTaskDTO is Gitea's ActionTask.
type actionTaskDTO struct {
	ID           int64     `json:"id"`
	Name         string    `json:"name"`
	HeadBranch   string    `json:"head_branch"`
	HeadSHA      string    `json:"head_sha"`
	RunNumber    int64     `json:"run_number"`
	Event        string    `json:"event"`
	DisplayTitle string    `json:"display_title"`
	Status       string    `json:"status"`
	WorkflowID   string    `json:"workflow_id"`
	URL          string    `json:"url"`
	CreatedAt    time.Time `json:"created_at"`
	UpdatedAt    time.Time `json:"updated_at"`
	RunStartedAt time.Time `json:"run_started_at"`
}

// tasks answers GET …/actions/tasks: one page of the tasks, newest first,
// as Gitea's ActionTaskResponse.
func (s actionWorkflows) tasks(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	r := q.repo.Repo
	list, total, err := s.actions.Tasks(q.r.Context(), r.ID, opts)
	if err != nil {
		return err
	}
	out := make([]actionTaskDTO, 0, len(list))
	for _, t := range list {
		out = append(out, toActionTask(s.repoWebURL(r), t))
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, map[string]any{"workflow_runs": out, "total_count": total})
	return nil
}

func toActionTask(webURL string, t *actions.Task) actionTaskDTO {
	return actionTaskDTO{ID: t.ID, Name: t.Job.Name, HeadBranch: t.Run.HeadBranch(), HeadSHA: t.Run.CommitSHA,
		RunNumber: t.Run.Index, Event: t.Run.Event, DisplayTitle: t.Run.Title, Status: t.Status,
		WorkflowID: t.Run.WorkflowID, URL: webURL + "/actions/runs/" + itoa(t.Run.Index),
		CreatedAt: t.Created, UpdatedAt: t.Updated, RunStartedAt: t.Run.Started}
}
