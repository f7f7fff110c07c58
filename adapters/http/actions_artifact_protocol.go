package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/adapters/httpkit"
	appactions "github.com/depothq/depot/app/actions"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/gorilla/mux"
)

// artifactServicePrefix is where the v4 artifact protocol of
// actions/upload-artifact@v4 and download-artifact@v4 is served: the
// twirp service github.actions.results.api.v1.ArtifactService, with JSON
// bodies, under the server's root (the runner's ACTIONS_RESULTS_URL).
const artifactServicePrefix = "/twirp/github.actions.results.api.v1.ArtifactService/"

// maxTwirpBody bounds one twirp request's JSON.
const maxTwirpBody = 64 << 10

// artifactProtocol serves the artifact protocol: its RPCs authenticated by
// the task's runtime token (Authorization: Bearer), and the upload and
// download of the bytes through URLs signed for an hour.
type artifactProtocol struct{ *kernel }

// mountArtifactProtocol mounts the artifact service.
func (s *kernel) mountArtifactProtocol(router *mux.Router) {
	h := artifactProtocol{s}
	for name, fn := range map[string]func(w http.ResponseWriter, r *http.Request) error{
		"CreateArtifact":       h.create,
		"FinalizeArtifact":     h.finalize,
		"ListArtifacts":        h.list,
		"GetSignedArtifactURL": h.signedURL,
		"DeleteArtifact":       h.delete,
	} {
		router.Path(artifactServicePrefix + name).Methods(http.MethodPost).HandlerFunc(h.rpc(fn))
	}
	router.Path(artifactServicePrefix + "UploadArtifact").Methods(http.MethodPut).HandlerFunc(h.upload)
	router.Path(artifactServicePrefix+"DownloadArtifact").Methods(http.MethodGet, http.MethodHead).HandlerFunc(h.download)
}

// twirpCodes are the twirp error codes of the error categories.
var twirpCodes = []struct {
	kind error
	code string
}{
	{errs.ErrUnauthenticated, "unauthenticated"},
	{errs.ErrForbidden, "permission_denied"},
	{errs.ErrNotFound, "not_found"},
	{errs.ErrInvalid, "invalid_argument"},
	{errs.ErrBadRequest, "malformed"},
	{errs.ErrConflict, "already_exists"},
	{errs.ErrTooLarge, "out_of_range"},
}

// twirpError writes err as a twirp error: {"code", "msg"} with the status
// of its category; an uncategorised one is logged and internal.
func (s artifactProtocol) twirpError(w http.ResponseWriter, r *http.Request, err error) {
	status, msg, ok := httpkit.StatusOf(err)
	code := "internal"
	if !ok {
		s.log.ErrorContext(r.Context(), "artifact protocol", "error", err, "path", r.URL.Path)
		status, msg = http.StatusInternalServerError, "internal error"
	} else {
		for _, c := range twirpCodes {
			if errors.Is(err, c.kind) {
				code = c.code
				break
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"code": code, "msg": msg})
}

// rpc runs one RPC and answers its error as twirp does.
func (s artifactProtocol) rpc(fn func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := fn(w, r); err != nil {
			s.twirpError(w, r, err)
		}
	}
}

// twirpJSON answers v as the protocol's JSON.
func twirpJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(v)
}

// artifactRequest is what the protocol's requests carry, read from JSON
// with proto field names or their lowerCamelCase JSON names, 64-bit
// integers as strings or numbers and wrapper values as plain values.
type artifactRequest struct {
	RunBackendID, JobBackendID string
	Name                       string
	NameFilter                 *string
	IDFilter                   *int64
	Size                       int64
	Hash                       string
	ExpiresAt                  time.Time
}

// parseArtifactRequest reads a twirp JSON body.
func parseArtifactRequest(body []byte) (artifactRequest, error) {
	var out artifactRequest
	var raw map[string]json.RawMessage
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&raw); err != nil {
		return out, errs.BadRequest("malformed request body")
	}
	fields := make(map[string]json.RawMessage, len(raw))
	for k, v := range raw {
		fields[strings.ToLower(strings.ReplaceAll(k, "_", ""))] = v
	}
	str := func(key string) (*string, error) {
		v, ok := fields[key]
		if !ok || string(v) == "null" {
			return nil, nil
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			var w struct {
				Value *string `json:"value"`
			}
			if json.Unmarshal(v, &w) != nil || w.Value == nil {
				return nil, errs.BadRequest(key + ": must be a string")
			}
			s = *w.Value
		}
		return &s, nil
	}
	num := func(key string) (*int64, error) {
		v, ok := fields[key]
		if !ok || string(v) == "null" {
			return nil, nil
		}
		var w struct {
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal(v, &w) == nil && w.Value != nil {
			v = w.Value
		}
		t := strings.Trim(string(v), `"`)
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return nil, errs.BadRequest(key + ": must be an integer")
		}
		return &n, nil
	}
	var err error
	read := func(key string, dst *string) {
		if err != nil {
			return
		}
		var p *string
		if p, err = str(key); p != nil {
			*dst = *p
		}
	}
	read("workflowrunbackendid", &out.RunBackendID)
	read("workflowjobrunbackendid", &out.JobBackendID)
	read("name", &out.Name)
	read("hash", &out.Hash)
	var exp string
	read("expiresat", &exp)
	if err != nil {
		return out, err
	}
	if exp != "" {
		if out.ExpiresAt, err = time.Parse(time.RFC3339Nano, exp); err != nil {
			return out, errs.BadRequest("expires_at: must be an RFC 3339 time")
		}
	}
	if out.NameFilter, err = str("namefilter"); err != nil {
		return out, err
	}
	if out.IDFilter, err = num("idfilter"); err != nil {
		return out, err
	}
	size, err := num("size")
	if err != nil {
		return out, err
	}
	if size != nil {
		out.Size = *size
	}
	return out, nil
}

// call authenticates the runtime token and reads the request.
func (s artifactProtocol) call(r *http.Request) (*actions.Task, artifactRequest, error) {
	raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || raw == "" {
		return nil, artifactRequest{}, errs.Unauthenticated("runtime token required")
	}
	task, err := s.actions.Artifacts().RuntimeTask(r.Context(), raw)
	if err != nil {
		return nil, artifactRequest{}, err
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxTwirpBody+1))
	if err != nil {
		return nil, artifactRequest{}, errs.BadRequest("unreadable request body")
	}
	if len(body) > maxTwirpBody {
		return nil, artifactRequest{}, errs.TooLarge("request body too large")
	}
	req, err := parseArtifactRequest(body)
	return task, req, err
}

// signedURL answers GetSignedArtifactURL with the signed download URL.
func (s artifactProtocol) signedURL(w http.ResponseWriter, r *http.Request) error {
	task, req, err := s.call(r)
	if err != nil {
		return err
	}
	u, err := s.actions.Artifacts().SignedDownload(r.Context(), task, req.RunBackendID, req.Name)
	if err != nil {
		return err
	}
	twirpJSON(w, map[string]string{"signedUrl": s.artifactURL(actions.ArtifactDownloadEndpoint, u)})
	return nil
}

// artifactURL is the protocol URL of endpoint carrying u.
func (s artifactProtocol) artifactURL(endpoint string, u actions.SignedArtifactURL) string {
	v := url.Values{}
	v.Set("sig", u.Sig)
	v.Set("expires", strconv.FormatInt(u.Expires.Unix(), 10))
	v.Set("artifactID", strconv.FormatInt(u.ArtifactID, 10))
	v.Set("taskID", strconv.FormatInt(u.TaskID, 10))
	return s.baseURL + artifactServicePrefix + endpoint + "?" + v.Encode()
}

// create answers CreateArtifact with the signed upload URL.
func (s artifactProtocol) create(w http.ResponseWriter, r *http.Request) error {
	task, req, err := s.call(r)
	if err != nil {
		return err
	}
	_, u, err := s.actions.Artifacts().Create(r.Context(), task, req.RunBackendID, req.Name, req.ExpiresAt)
	if err != nil {
		return err
	}
	twirpJSON(w, map[string]any{"ok": true, "signedUploadUrl": s.artifactURL(actions.ArtifactUploadEndpoint, u)})
	return nil
}

// finalize answers FinalizeArtifact with the artifact's id.
func (s artifactProtocol) finalize(w http.ResponseWriter, r *http.Request) error {
	task, req, err := s.call(r)
	if err != nil {
		return err
	}
	a, err := s.actions.Artifacts().Finalize(r.Context(), task, req.RunBackendID, req.Name, req.Size, req.Hash)
	if err != nil {
		return err
	}
	twirpJSON(w, map[string]any{"ok": true, "artifactId": strconv.FormatInt(a.ID, 10)})
	return nil
}

// list answers ListArtifacts with the run's finalized artifacts.
func (s artifactProtocol) list(w http.ResponseWriter, r *http.Request) error {
	task, req, err := s.call(r)
	if err != nil {
		return err
	}
	list, err := s.actions.Artifacts().ListRun(r.Context(), task, req.RunBackendID, req.NameFilter, req.IDFilter)
	if err != nil {
		return err
	}
	out := make([]map[string]string, 0, len(list))
	for _, a := range list {
		out = append(out, map[string]string{
			"workflowRunBackendId": req.RunBackendID, "workflowJobRunBackendId": req.JobBackendID,
			"databaseId": strconv.FormatInt(a.ID, 10), "name": a.Name, "size": strconv.FormatInt(a.Size, 10),
			"createdAt": a.Created.UTC().Format(time.RFC3339Nano),
		})
	}
	twirpJSON(w, map[string]any{"artifacts": out})
	return nil
}

// delete answers DeleteArtifact.
func (s artifactProtocol) delete(w http.ResponseWriter, r *http.Request) error {
	task, req, err := s.call(r)
	if err != nil {
		return err
	}
	a, err := s.actions.Artifacts().DeleteByName(r.Context(), task, req.RunBackendID, req.Name)
	if err != nil {
		return err
	}
	twirpJSON(w, map[string]any{"ok": true, "artifactId": strconv.FormatInt(a.ID, 10)})
	return nil
}

// upload answers PUT UploadArtifact: a block (comp=block&blockid=…), an
// appended chunk (comp=appendBlock, or comp=block without an id, or no
// comp) or the block list (comp=blocklist), streamed to the blob store.
func (s artifactProtocol) upload(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	u, err := actions.ParseSignedArtifactURL(q.Get, false)
	if err == nil {
		err = s.actions.Artifacts().Upload(r.Context(), uploadRequest(u, q, r.Body))
	}
	if err != nil {
		s.twirpError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// download answers GET DownloadArtifact with the artifact's zip.
func (s artifactProtocol) download(w http.ResponseWriter, r *http.Request) {
	u, err := actions.ParseSignedArtifactURL(r.URL.Query().Get, false)
	if err != nil {
		s.twirpError(w, r, err)
		return
	}
	a, f, err := s.actions.Artifacts().Download(r.Context(), u)
	if err != nil {
		s.twirpError(w, r, err)
		return
	}
	defer f.Close()
	serveArtifact(w, r, a, f)
}

// uploadRequest is the upload use case's request of one PUT.
func uploadRequest(u actions.SignedArtifactURL, q url.Values, body io.Reader) appactions.Upload {
	return appactions.Upload{URL: u, Comp: q.Get("comp"), BlockID: q.Get("blockid"), Body: body}
}
