package http

import (
	"net/http"

	"github.com/depothq/depot/app/mirrors"
)

// repoMigrations serves migrations: importing a repository from another server
// (catalogue 4.5, top level).
type repoMigrations struct{ *kernel }

// repoMigrationRoutes are the rows of repoMigrations.
func (s *kernel) repoMigrationRoutes() []route {
	h := repoMigrations{s}
	return []route{
		{"POST", "/repos/migrate", scopes(catRepo), "T", h.migrateRepo},
	}
}

// migrateRepo answers POST /repos/migrate with 201 and the new repository.
func (s repoMigrations) migrateRepo(q *request) error {
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

// migrateBody is Gitea's MigrateRepoOptions. The extras (labels, issues,
// wiki, …) go to the use case, which copies or refuses each.
type migrateBody struct {
	CloneAddr      string `json:"clone_addr"`
	AuthUsername   string `json:"auth_username"`
	AuthPassword   string `json:"auth_password"`
	AuthToken      string `json:"auth_token"`
	RepoOwner      string `json:"repo_owner"`
	RepoOwnerID    int64  `json:"uid"`
	RepoName       string `json:"repo_name"`
	Description    string `json:"description"`
	Private        bool   `json:"private"`
	Mirror         bool   `json:"mirror"`
	MirrorInterval string `json:"mirror_interval"`
	Service        string `json:"service"`
	Wiki           bool   `json:"wiki"`
	Milestones     bool   `json:"milestones"`
	Labels         bool   `json:"labels"`
	Issues         bool   `json:"issues"`
	PullRequests   bool   `json:"pull_requests"`
	Releases       bool   `json:"releases"`
	LFS            bool   `json:"lfs"`
	LFSEndpoint    string `json:"lfs_endpoint"`
}
