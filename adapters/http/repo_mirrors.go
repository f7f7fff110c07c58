package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/mirrors"
	"github.com/depothq/depot/ports"
)

// repoMirrors serves the mirrors of repositories: syncing a pull mirror, and
// push mirrors (catalogue 4.5). Migrations, which create pull mirrors, are
// repoMigrations.
type repoMirrors struct{ *kernel }

// repoMirrorRoutes are the rows of repoMirrors.
func (s *kernel) repoMirrorRoutes() []route {
	h := repoMirrors{s}
	return []route{
		{"POST", R + "/mirror-sync", scopes(catRepo), "T,RW(code),NA", h.syncMirror},
		{"POST", R + "/push_mirrors-sync", scopes(catRepo), "T,RA,NA", h.syncPushMirrors},
		{"GET", R + "/push_mirrors", scopes(catRepo), "T,RA", h.listPushMirrors},
		{"POST", R + "/push_mirrors", scopes(catRepo), "T,RA,NA", h.addPushMirror},
		{"GET", R + "/push_mirrors/{name}", scopes(catRepo), "T,RA", h.getPushMirror},
		{"DELETE", R + "/push_mirrors/{name}", scopes(catRepo), "T,RA,NA", h.deletePushMirror},
	}
}

// syncMirror answers POST R/mirror-sync with 202: a sync is queued. A
// repository that is no pull mirror is 404, as the spec has it.
func (s repoMirrors) syncMirror(q *request) error {
	if err := s.mirrors.PullMirrors().Sync(q.r.Context(), q.repo); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusAccepted)
	return nil
}

// syncPushMirrors answers POST R/push_mirrors-sync with Gitea's 200 and no
// body: a push to each push mirror is queued.
func (s repoMirrors) syncPushMirrors(q *request) error {
	if err := s.mirrors.PushMirrors().Sync(q.r.Context(), q.repo); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusOK)
	return nil
}

// listPushMirrors answers GET R/push_mirrors, one page.
func (s repoMirrors) listPushMirrors(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.mirrors.PushMirrors().List(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, toPushMirrors(q.repo.Repo.Name, list))
	return nil
}

// addPushMirror answers POST R/push_mirrors with Gitea's 200 and the push
// mirror.
func (s repoMirrors) addPushMirror(q *request) error {
	var b createPushMirrorBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	m, err := s.mirrors.PushMirrors().Create(q.r.Context(), q.repo, mirrors.PushMirrorInput{
		RemoteAddress: b.RemoteAddress, RemoteUsername: b.RemoteUsername, RemotePassword: b.RemotePassword,
		Interval: b.Interval, SyncOnCommit: b.SyncOnCommit,
	})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toPushMirror(q.repo.Repo.Name, m))
	return nil
}

// getPushMirror answers GET R/push_mirrors/{name}.
func (s repoMirrors) getPushMirror(q *request) error {
	m, err := s.mirrors.PushMirrors().Get(q.r.Context(), q.repo, q.var_("name"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toPushMirror(q.repo.Repo.Name, m))
	return nil
}

// deletePushMirror answers DELETE R/push_mirrors/{name} with 204.
func (s repoMirrors) deletePushMirror(q *request) error {
	return noContent(q, s.mirrors.PushMirrors().Delete(q.r.Context(), q.repo, q.var_("name")))
}

// createPushMirrorBody is Gitea's CreatePushMirrorOption.
type createPushMirrorBody struct {
	RemoteAddress  string `json:"remote_address"`
	RemoteUsername string `json:"remote_username"`
	RemotePassword string `json:"remote_password"`
	Interval       string `json:"interval"`
	SyncOnCommit   bool   `json:"sync_on_commit"`
}

// pushMirrorDTO is Gitea's PushMirror. The address never carries
// credentials; last_update is null before the first push.
type pushMirrorDTO struct {
	RepoName      string     `json:"repo_name"`
	RemoteName    string     `json:"remote_name"`
	RemoteAddress string     `json:"remote_address"`
	Created       time.Time  `json:"created"`
	LastUpdate    *time.Time `json:"last_update"`
	LastError     string     `json:"last_error"`
	Interval      string     `json:"interval"`
	SyncOnCommit  bool       `json:"sync_on_commit"`
}

func toPushMirror(repoName string, m *ports.PushMirror) *pushMirrorDTO {
	d := &pushMirrorDTO{
		RepoName: repoName, RemoteName: m.RemoteName, RemoteAddress: m.RemoteAddress, Created: m.Created.UTC(),
		LastError: m.LastError, Interval: m.Interval.String(), SyncOnCommit: m.SyncOnCommit,
	}
	if !m.LastUpdate.IsZero() {
		t := m.LastUpdate.UTC()
		d.LastUpdate = &t
	}
	return d
}

func toPushMirrors(repoName string, list []*ports.PushMirror) []*pushMirrorDTO {
	out := make([]*pushMirrorDTO, len(list))
	for i, m := range list {
		out[i] = toPushMirror(repoName, m)
	}
	return out
}
