package githttp

import (
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"strings"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
)

// The hooks' endpoint: outside /api/v1, answered only to callers on this
// host that present the per-start secret.
const (
	internalPrefix = "/api/internal/"
	hookPath       = "/api/internal/hook"
)

// maxHookBody bounds a hook call's body (a push of many thousands of refs fits).
const maxHookBody = 64 << 20

// hookRequest is what `depot hook` posts.
type hookRequest struct {
	RepoID   int64        `json:"repo_id"`
	PusherID int64        `json:"pusher_id"`
	Changes  []hookChange `json:"changes"`
	// DeployKeyID is set for a push over SSH with a deploy key.
	DeployKeyID int64 `json:"deploy_key_id,omitempty"`
	// TaskID is set for a push made with a workflow task's token.
	TaskID int64 `json:"task_id,omitempty"`
	// Quarantine names the push's incoming object directory (pre-receive).
	Quarantine string `json:"quarantine,omitempty"`
}

// hookChange is one line of the hook's input.
type hookChange struct {
	Old string `json:"old"`
	New string `json:"new"`
	Ref string `json:"ref"`
}

// hookResponse carries the message the pusher is shown.
type hookResponse struct {
	Message string `json:"message"`
}

// serveHook answers POST /api/internal/hook/{pre-receive,post-receive}.
func (h *Handler) serveHook(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, hookPath+"/")
	if !ok || r.Method != http.MethodPost || !sameHost(r) || !h.validSecret(r) {
		// Not routed for anyone else: the endpoint does not exist for them.
		plain(w, http.StatusNotFound, "not found")
		return
	}
	var req hookRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxHookBody))
	if err := dec.Decode(&req); err != nil {
		hookAnswer(w, http.StatusBadRequest, "malformed hook request")
		return
	}
	in := transport.HookInput{RepoID: req.RepoID, PusherID: req.PusherID, DeployKeyID: req.DeployKeyID,
		TaskID:     req.TaskID,
		Quarantine: req.Quarantine,
		Changes:    make([]repository.RefChange, 0, len(req.Changes))}
	for _, c := range req.Changes {
		rc, err := repository.ParseRefChange(c.Old + " " + c.New + " " + c.Ref)
		if err != nil {
			hookAnswer(w, http.StatusBadRequest, errs.Message(err))
			return
		}
		in.Changes = append(in.Changes, rc)
	}
	var err error
	switch name {
	case "pre-receive":
		err = h.svc.PreReceive(r.Context(), in)
	case "post-receive":
		err = h.svc.PostReceive(r.Context(), in)
	default:
		plain(w, http.StatusNotFound, "not found")
		return
	}
	if err != nil {
		if status, _, ok := httpkit.StatusOf(err); ok {
			hookAnswer(w, status, errs.Message(err))
			return
		}
		h.log.Error("push hook failed", "hook", name, "repo_id", req.RepoID, "err", err)
		hookAnswer(w, http.StatusInternalServerError, "internal server error")
		return
	}
	hookAnswer(w, http.StatusOK, "")
}

func hookAnswer(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(hookResponse{Message: msg})
}

// validSecret compares the presented secret in constant time.
func (h *Handler) validSecret(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(h.runner.secret)) == 1
}

// sameHost reports whether the caller is on this machine: a loopback peer,
// or a peer whose address is the one it connected to.
func sameHost(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	if ip.IsLoopback() {
		return true
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	lhost, _, err := net.SplitHostPort(local.String())
	return err == nil && net.ParseIP(lhost).Equal(ip)
}
