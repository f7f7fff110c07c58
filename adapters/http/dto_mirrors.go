package http

import (
	"time"

	"github.com/depothq/depot/ports"
)

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
