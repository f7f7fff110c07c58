package http

import (
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/ports"
)

// histRepoCommitDTO is Gitea's RepoCommit.
type histRepoCommitDTO struct {
	URL          string           `json:"url"`
	Author       *commitUserDTO   `json:"author"`
	Committer    *commitUserDTO   `json:"committer"`
	Message      string           `json:"message"`
	Tree         *commitMetaDTO   `json:"tree"`
	Verification *verificationDTO `json:"verification"`
}

// histFileDTO is Gitea's CommitAffectedFiles.
type histFileDTO struct {
	Filename string `json:"filename"`
	Status   string `json:"status"`
}

// histStatsDTO is Gitea's CommitStats.
type histStatsDTO struct {
	Total     int `json:"total"`
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
}

// histCommitDTO is Gitea's Commit.
type histCommitDTO struct {
	URL        string             `json:"url"`
	SHA        string             `json:"sha"`
	Created    time.Time          `json:"created"`
	HTMLURL    string             `json:"html_url"`
	RepoCommit *histRepoCommitDTO `json:"commit"`
	Author     *userDTO           `json:"author"`
	Committer  *userDTO           `json:"committer"`
	Parents    []commitMetaDTO    `json:"parents"`
	Files      []histFileDTO      `json:"files"`
	Stats      *histStatsDTO      `json:"stats"`
}

// histCompareDTO is Gitea's Compare, with the changed files.
type histCompareDTO struct {
	TotalCommits int             `json:"total_commits"`
	Commits      []histCommitDTO `json:"commits"`
	Files        []histFileDTO   `json:"files"`
}

// histUser renders a signature as Gitea's Commit does: dated with the
// signature's own offset, where commitUser (Gitea's ToCommitUser) says UTC.
func histUser(sig ports.GitSignature) *commitUserDTO {
	return &commitUserDTO{Name: sig.Name, Email: sig.Email, Date: sig.When.Format(time.RFC3339)}
}

// histFiles renders changed files as Gitea's CommitAffectedFiles; nil
// (files not asked for) stays nil, so the JSON says null as Gitea's does.
func histFiles(files []ports.CommitFileChange) []histFileDTO {
	if files == nil {
		return nil
	}
	out := make([]histFileDTO, len(files))
	for i, f := range files {
		out[i] = histFileDTO{Filename: f.Path, Status: string(f.Status)}
	}
	return out
}

// toHistCommit renders a commit as Gitea's ToCommit does, for the commit
// routes and for a note's commit. The tree's sha is the tree's id (Gitea
// repeats the commit id there; both open the same tree through
// R/git/trees).
func (s *kernel) toHistCommit(c auth.Caller, a *repos.Access, v content.CommitView) histCommitDTO {
	api := s.repoAPIURL(a)
	d := histCommitDTO{
		URL:     api + "/git/commits/" + v.ID,
		SHA:     v.ID,
		Created: v.Committer.When,
		HTMLURL: s.repoHTMLURL(a) + "/commit/" + v.ID,
		RepoCommit: &histRepoCommitDTO{
			URL:       api + "/git/commits/" + v.ID,
			Author:    histUser(v.Author),
			Committer: histUser(v.Committer),
			Message:   v.Message,
			Tree:      &commitMetaDTO{URL: api + "/git/trees/" + v.TreeID, SHA: v.TreeID, Created: v.Committer.When},
		},
		Parents: make([]commitMetaDTO, len(v.ParentIDs)),
		Files:   histFiles(v.Files),
	}
	for i, p := range v.ParentIDs {
		d.Parents[i] = commitMetaDTO{URL: api + "/git/commits/" + p, SHA: p}
	}
	if v.Verification != nil {
		d.RepoCommit.Verification = &verificationDTO{
			Verified: v.Verification.Verified, Reason: v.Verification.Reason,
			Signature: v.Verification.Signature, Payload: v.Verification.Payload,
		}
	}
	if v.Stats != nil {
		d.Stats = &histStatsDTO{Total: v.Stats.Additions + v.Stats.Deletions, Additions: v.Stats.Additions, Deletions: v.Stats.Deletions}
	}
	if v.AuthorUser != nil {
		u := s.toUser(c, v.AuthorUser)
		d.Author = &u
	}
	if v.CommitterUser != nil {
		u := s.toUser(c, v.CommitterUser)
		d.Committer = &u
	}
	return d
}
