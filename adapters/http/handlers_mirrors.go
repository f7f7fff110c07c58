package http

import (
	"net/http"

	"github.com/depothq/depot/app/mirrors"
)

// mirrorRoutes are the migration, pull and push mirror routes.
func (s *kernel) mirrorRoutes() []route {
	return []route{
		// 4.1 Repositories (core) / 4.5 top level
		{"POST", "/repos/migrate", scopes(catRepo), "T", s.migrateRepo},
		// 4.5 Repositories: collaborators, teams, keys, hooks, mirrors, topics
		{"POST", R + "/mirror-sync", scopes(catRepo), "T,RW(code),NA", s.syncMirror},
		{"POST", R + "/push_mirrors-sync", scopes(catRepo), "T,RA,NA", s.syncPushMirrors},
		{"GET", R + "/push_mirrors", scopes(catRepo), "T,RA", s.listPushMirrors},
		{"POST", R + "/push_mirrors", scopes(catRepo), "T,RA,NA", s.addPushMirror},
		{"GET", R + "/push_mirrors/{name}", scopes(catRepo), "T,RA", s.getPushMirror},
		{"DELETE", R + "/push_mirrors/{name}", scopes(catRepo), "T,RA,NA", s.deletePushMirror},
	}
}

// migrateRepo answers POST /repos/migrate with 201 and the new repository.
func (s *kernel) migrateRepo(q *request) error {
	var b migrateBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	ctx := q.r.Context()
	r, err := s.mirrors.Migrate(ctx, q.caller, mirrors.MigrateInput{
		CloneAddr: b.CloneAddr, AuthUsername: b.AuthUsername, AuthPassword: b.AuthPassword, AuthToken: b.AuthToken,
		RepoOwner: b.RepoOwner, RepoOwnerID: b.RepoOwnerID, RepoName: b.RepoName, Description: b.Description,
		Private: b.Private, Mirror: b.Mirror, MirrorInterval: b.MirrorInterval,
		Extras: mirrors.MigrateExtras{Service: b.Service, Wiki: b.Wiki, Milestones: b.Milestones, Labels: b.Labels,
			Issues: b.Issues, PullRequests: b.PullRequests, Releases: b.Releases, LFS: b.LFS},
	})
	if err != nil {
		return err
	}
	a, err := s.repos.OpenByID(ctx, q.caller, r.ID)
	if err != nil {
		return err
	}
	d, err := s.renderRepo(ctx, a) // with mirror_updated for a mirror
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, d)
	return nil
}

// syncMirror answers POST R/mirror-sync with 202: a sync is queued. A
// repository that is no pull mirror is 404, as the spec has it.
func (s *kernel) syncMirror(q *request) error {
	if err := s.mirrors.SyncMirror(q.r.Context(), q.repo); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusAccepted)
	return nil
}

// syncPushMirrors answers POST R/push_mirrors-sync with Gitea's 200 and no
// body: a push to each push mirror is queued.
func (s *kernel) syncPushMirrors(q *request) error {
	if err := s.mirrors.SyncPushMirrors(q.r.Context(), q.repo); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusOK)
	return nil
}

// listPushMirrors answers GET R/push_mirrors, one page.
func (s *kernel) listPushMirrors(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.mirrors.ListPushMirrors(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, toPushMirrors(q.repo.Repo.Name, list))
	return nil
}

// addPushMirror answers POST R/push_mirrors with Gitea's 200 and the push
// mirror.
func (s *kernel) addPushMirror(q *request) error {
	var b createPushMirrorBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	m, err := s.mirrors.CreatePushMirror(q.r.Context(), q.repo, mirrors.PushMirrorInput{
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
func (s *kernel) getPushMirror(q *request) error {
	m, err := s.mirrors.GetPushMirror(q.r.Context(), q.repo, q.var_("name"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toPushMirror(q.repo.Repo.Name, m))
	return nil
}

// deletePushMirror answers DELETE R/push_mirrors/{name} with 204.
func (s *kernel) deletePushMirror(q *request) error {
	return noContent(q, s.mirrors.DeletePushMirror(q.r.Context(), q.repo, q.var_("name")))
}
