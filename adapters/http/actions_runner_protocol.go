package http

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	pingv1 "code.gitea.io/actions-proto-go/ping/v1"
	"code.gitea.io/actions-proto-go/ping/v1/pingv1connect"
	runnerv1 "code.gitea.io/actions-proto-go/runner/v1"
	"code.gitea.io/actions-proto-go/runner/v1/runnerv1connect"
	"connectrpc.com/connect"
	appactions "github.com/depothq/depot/app/actions"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/gorilla/mux"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// runnerProtocolPrefix is where Gitea serves the runners' connect RPCs.
const runnerProtocolPrefix = "/api/actions"

// The headers a registered runner authenticates with.
const (
	runnerUUIDHeader  = "x-runner-uuid"
	runnerTokenHeader = "x-runner-token"
)

// runnerProtocol serves the connect RPCs Gitea's act_runner speaks
// (code.gitea.io/actions-proto-go): PingService, and RunnerService's
// Register (with a registration token), Declare, FetchTask, UpdateTask
// and UpdateLog (with the runner's uuid and token in headers).
type runnerProtocol struct {
	*kernel
	runnerv1connect.UnimplementedRunnerServiceHandler
}

// mountRunnerProtocol mounts the runner RPCs under /api/actions/.
func (s *kernel) mountRunnerProtocol(router *mux.Router) {
	h := &runnerProtocol{kernel: s}
	rpc := http.NewServeMux()
	rpc.Handle(runnerv1connect.NewRunnerServiceHandler(h, connect.WithCompressMinBytes(1024)))
	rpc.Handle(pingv1connect.NewPingServiceHandler(h))
	router.PathPrefix(runnerProtocolPrefix + "/").Handler(http.StripPrefix(runnerProtocolPrefix, rpc))
}

// Ping answers the runner's connectivity check as Gitea does.
func (s *runnerProtocol) Ping(_ context.Context, req *connect.Request[pingv1.PingRequest]) (*connect.Response[pingv1.PingResponse], error) {
	return connect.NewResponse(&pingv1.PingResponse{Data: "Hello, " + req.Msg.Data + "!"}), nil
}

// rpcError turns a use case's error into a connect error of its category;
// anything uncategorised is logged and answered as internal.
func (s *runnerProtocol) rpcError(ctx context.Context, err error) error {
	msg := errs.Message(err)
	switch {
	case errors.Is(err, errs.ErrUnauthenticated):
		return connect.NewError(connect.CodeUnauthenticated, errors.New(msg))
	case errors.Is(err, errs.ErrForbidden):
		return connect.NewError(connect.CodePermissionDenied, errors.New(msg))
	case errors.Is(err, errs.ErrNotFound):
		return connect.NewError(connect.CodeNotFound, errors.New(msg))
	case errors.Is(err, errs.ErrInvalid), errors.Is(err, errs.ErrBadRequest):
		return connect.NewError(connect.CodeInvalidArgument, errors.New(msg))
	}
	s.log.ErrorContext(ctx, "runner protocol", "error", err)
	return connect.NewError(connect.CodeInternal, errors.New("internal error"))
}

// runner authenticates the calling runner by its headers; active marks a
// report on a task.
func (s *runnerProtocol) runner(ctx context.Context, h http.Header, active bool) (*actions.Runner, error) {
	r, err := s.actions.Runners().Authenticate(ctx, h.Get(runnerUUIDHeader), h.Get(runnerTokenHeader), active)
	if err != nil {
		return nil, s.rpcError(ctx, err)
	}
	return r, nil
}

func toProtoRunner(r *actions.Runner, token string) *runnerv1.Runner {
	return &runnerv1.Runner{Id: r.ID, Uuid: r.UUID, Token: token, Name: r.Name, Version: r.Version,
		Labels: r.Labels, Ephemeral: r.Ephemeral}
}

// Register creates a runner in the scope of the registration token.
func (s *runnerProtocol) Register(ctx context.Context, req *connect.Request[runnerv1.RegisterRequest]) (*connect.Response[runnerv1.RegisterResponse], error) {
	labels := req.Msg.Labels
	if len(labels) == 0 && len(req.Msg.AgentLabels) > 0 { //nolint:staticcheck // old runners send agent_labels
		labels = req.Msg.AgentLabels //nolint:staticcheck
	}
	r, token, err := s.actions.Runners().Register(ctx, appactions.RegisterRequest{Token: req.Msg.Token, Name: req.Msg.Name,
		Version: req.Msg.Version, Labels: labels, Ephemeral: req.Msg.Ephemeral})
	if err != nil {
		return nil, s.rpcError(ctx, err)
	}
	return connect.NewResponse(&runnerv1.RegisterResponse{Runner: toProtoRunner(r, token)}), nil
}

// Declare sets the runner's labels and version.
func (s *runnerProtocol) Declare(ctx context.Context, req *connect.Request[runnerv1.DeclareRequest]) (*connect.Response[runnerv1.DeclareResponse], error) {
	r, err := s.runner(ctx, req.Header(), false)
	if err != nil {
		return nil, err
	}
	if err := s.actions.Runners().Declare(ctx, r, req.Msg.Labels, req.Msg.Version); err != nil {
		return nil, s.rpcError(ctx, err)
	}
	return connect.NewResponse(&runnerv1.DeclareResponse{Runner: toProtoRunner(r, "")}), nil
}

// FetchTask hands the runner a waiting job it can run, if any.
func (s *runnerProtocol) FetchTask(ctx context.Context, req *connect.Request[runnerv1.FetchTaskRequest]) (*connect.Response[runnerv1.FetchTaskResponse], error) {
	r, err := s.runner(ctx, req.Header(), false)
	if err != nil {
		return nil, err
	}
	t, version, err := s.actions.RunnerTasks().Fetch(ctx, r, req.Msg.TasksVersion)
	if err != nil {
		return nil, s.rpcError(ctx, err)
	}
	res := &runnerv1.FetchTaskResponse{TasksVersion: version}
	if t != nil {
		if res.Task, err = s.toProtoTask(t); err != nil {
			return nil, s.rpcError(ctx, err)
		}
	}
	return connect.NewResponse(res), nil
}

// toProtoTask is the task as the runner gets it: the job's workflow, the
// github context Gitea builds, the secrets and variables.
func (s *runnerProtocol) toProtoTask(t *appactions.AssignedTask) (*runnerv1.Task, error) {
	run, repo := t.Task.Run, t.Repo
	var event map[string]any
	if run.EventPayload != "" {
		if err := json.Unmarshal([]byte(run.EventPayload), &event); err != nil {
			event = map[string]any{}
		}
	}
	refType, refName := "", run.Ref
	if b, ok := strings.CutPrefix(run.Ref, "refs/heads/"); ok {
		refType, refName = "branch", b
	} else if tag, ok := strings.CutPrefix(run.Ref, "refs/tags/"); ok {
		refType, refName = "tag", tag
	}
	ctx, err := structpb.NewStruct(map[string]any{
		"action": "", "action_path": "", "action_ref": "", "action_repository": "", "action_status": "",
		"actor":      t.Actor,
		"api_url":    s.baseURL + apiPrefix,
		"base_ref":   "",
		"env":        "",
		"event":      event,
		"event_name": run.Event,
		"event_path": "", "graphql_url": "", "head_ref": "",
		"job":              t.Task.Job.JobID,
		"ref":              run.Ref,
		"ref_name":         refName,
		"ref_protected":    false,
		"ref_type":         refType,
		"path":             "",
		"repository":       repo.Owner.Name + "/" + repo.Name,
		"repository_owner": repo.Owner.Name,
		"repositoryUrl":    s.repoWebURL(repo) + ".git",
		"retention_days":   strconv.Itoa(int(actions.ArtifactRetention / (24 * time.Hour))),
		"run_id":           itoa(run.ID),
		"run_number":       itoa(run.Index),
		"run_attempt":      "1",
		"secret_source":    "Actions",
		"server_url":       s.baseURL,
		"sha":              run.CommitSHA,
		"token":            t.Token,
		"gitea_token":      t.Token,
		// The artifact protocol's credential (ACTIONS_RUNTIME_TOKEN).
		"gitea_runtime_token": t.RuntimeToken,
		"workflow":            run.WorkflowID,
		"workspace":           "",
	})
	if err != nil {
		return nil, err
	}
	needs := make(map[string]*runnerv1.TaskNeed, len(t.Needs))
	for key, n := range t.Needs {
		needs[key] = &runnerv1.TaskNeed{Outputs: n.Outputs, Result: statusResult(n.Status)}
	}
	secrets := make(map[string]string, len(t.Secrets)+2)
	for k, v := range t.Secrets {
		secrets[k] = v
	}
	// As Gitea, the task's token is also the GITEA_TOKEN and GITHUB_TOKEN secrets.
	secrets["GITEA_TOKEN"], secrets["GITHUB_TOKEN"] = t.Token, t.Token
	return &runnerv1.Task{Id: t.Task.ID, WorkflowPayload: t.Workflow, Context: ctx, Secrets: secrets, Vars: t.Vars,
		Needs: needs}, nil
}

// resultStatuses pairs the protocol's final results with Depot's statuses,
// read both ways.
var resultStatuses = []struct {
	result runnerv1.Result
	status string
}{
	{runnerv1.Result_RESULT_SUCCESS, actions.StatusSuccess},
	{runnerv1.Result_RESULT_FAILURE, actions.StatusFailure},
	{runnerv1.Result_RESULT_CANCELLED, actions.StatusCancelled},
	{runnerv1.Result_RESULT_SKIPPED, actions.StatusSkipped},
}

// resultStatus is the status a reported result sets; "" while running.
func resultStatus(r runnerv1.Result) string {
	for _, p := range resultStatuses {
		if p.result == r {
			return p.status
		}
	}
	return ""
}

// statusResult is the result a status reports; unspecified while running.
func statusResult(status string) runnerv1.Result {
	for _, p := range resultStatuses {
		if p.status == status {
			return p.result
		}
	}
	return runnerv1.Result_RESULT_UNSPECIFIED
}

// protoTime is a timestamp's time, zero when absent.
func protoTime(t *timestamppb.Timestamp) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.AsTime()
}

// UpdateTask records the runner's report on its task.
func (s *runnerProtocol) UpdateTask(ctx context.Context, req *connect.Request[runnerv1.UpdateTaskRequest]) (*connect.Response[runnerv1.UpdateTaskResponse], error) {
	r, err := s.runner(ctx, req.Header(), true)
	if err != nil {
		return nil, err
	}
	st := req.Msg.State
	if st == nil || st.Id <= 0 {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("missing task state"))
	}
	rep := appactions.TaskReport{TaskID: st.Id, Result: resultStatus(st.Result), Outputs: req.Msg.Outputs}
	for i, step := range st.Steps {
		if step == nil {
			continue
		}
		status := resultStatus(step.Result)
		if status == "" {
			status = actions.StatusWaiting
			if step.StartedAt != nil {
				status = actions.StatusRunning
			}
		}
		idx := step.Id
		if idx == 0 {
			idx = int64(i)
		}
		rep.Steps = append(rep.Steps, actions.TaskStep{Index: idx, Status: status, LogIndex: step.LogIndex,
			LogLength: step.LogLength, Started: protoTime(step.StartedAt), Stopped: protoTime(step.StoppedAt)})
	}
	status, sent, err := s.actions.RunnerTasks().Update(ctx, r, rep)
	if err != nil {
		return nil, s.rpcError(ctx, err)
	}
	return connect.NewResponse(&runnerv1.UpdateTaskResponse{
		State:       &runnerv1.TaskState{Id: st.Id, Result: statusResult(status)},
		SentOutputs: sent,
	}), nil
}

// UpdateLog appends the rows the runner sends to its task's log.
func (s *runnerProtocol) UpdateLog(ctx context.Context, req *connect.Request[runnerv1.UpdateLogRequest]) (*connect.Response[runnerv1.UpdateLogResponse], error) {
	r, err := s.runner(ctx, req.Header(), true)
	if err != nil {
		return nil, err
	}
	if req.Msg.Index < 0 {
		return nil, connect.NewError(connect.CodeInvalidArgument, errors.New("negative log index"))
	}
	rows := make([]actions.LogRow, 0, len(req.Msg.Rows))
	for _, row := range req.Msg.Rows {
		if row == nil {
			row = &runnerv1.LogRow{}
		}
		rows = append(rows, actions.LogRow{Time: protoTime(row.Time), Content: row.Content})
	}
	ack, err := s.actions.RunnerTasks().AppendLog(ctx, r, req.Msg.TaskId, req.Msg.Index, rows)
	if err != nil {
		return nil, s.rpcError(ctx, err)
	}
	return connect.NewResponse(&runnerv1.UpdateLogResponse{AckIndex: ack}), nil
}
