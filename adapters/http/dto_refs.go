package http

import (
	"net/url"
	"strings"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/ports"
)

// refCreateBranchBody is Gitea's CreateBranchRepoOption.
type refCreateBranchBody struct {
	BranchName    string `json:"new_branch_name"`
	OldBranchName string `json:"old_branch_name"`
	OldRefName    string `json:"old_ref_name"`
}

// refUpdateBranchBody is Gitea's UpdateBranchRepoOption.
type refUpdateBranchBody struct {
	Name string `json:"name"`
}

// refCreateTagBody is Gitea's CreateTagOption.
type refCreateTagBody struct {
	TagName string `json:"tag_name"`
	Message string `json:"message"`
	Target  string `json:"target"`
}

// refPayloadCommitDTO is Gitea's PayloadCommit, the head commit of a branch.
type refPayloadCommitDTO struct {
	ID           string           `json:"id"`
	Message      string           `json:"message"`
	URL          string           `json:"url"`
	Author       *payloadUserDTO  `json:"author"`
	Committer    *payloadUserDTO  `json:"committer"`
	Verification *verificationDTO `json:"verification"`
	Timestamp    time.Time        `json:"timestamp"`
	Added        []string         `json:"added"`
	Removed      []string         `json:"removed"`
	Modified     []string         `json:"modified"`
}

// refBranchDTO is Gitea's Branch. No branch is protected yet.
type refBranchDTO struct {
	Name                          string               `json:"name"`
	Commit                        *refPayloadCommitDTO `json:"commit"`
	Protected                     bool                 `json:"protected"`
	RequiredApprovals             int64                `json:"required_approvals"`
	EnableStatusCheck             bool                 `json:"enable_status_check"`
	StatusCheckContexts           []string             `json:"status_check_contexts"`
	UserCanPush                   bool                 `json:"user_can_push"`
	UserCanMerge                  bool                 `json:"user_can_merge"`
	EffectiveBranchProtectionName string               `json:"effective_branch_protection_name"`
}

// refTagDTO is Gitea's Tag.
type refTagDTO struct {
	Name       string         `json:"name"`
	Message    string         `json:"message"`
	ID         string         `json:"id"`
	Commit     *commitMetaDTO `json:"commit"`
	ZipballURL string         `json:"zipball_url"`
	TarballURL string         `json:"tarball_url"`
}

// refTagObjectDTO is Gitea's AnnotatedTagObject.
type refTagObjectDTO struct {
	Type string `json:"type"`
	URL  string `json:"url"`
	SHA  string `json:"sha"`
}

// refAnnotatedTagDTO is Gitea's AnnotatedTag.
type refAnnotatedTagDTO struct {
	Tag          string           `json:"tag"`
	SHA          string           `json:"sha"`
	URL          string           `json:"url"`
	Message      string           `json:"message"`
	Tagger       *commitUserDTO   `json:"tagger"`
	Object       *refTagObjectDTO `json:"object"`
	Verification *verificationDTO `json:"verification"`
}

// refGitObjectDTO is Gitea's GitObject.
type refGitObjectDTO struct {
	Type string `json:"type"`
	SHA  string `json:"sha"`
	URL  string `json:"url"`
}

// refReferenceDTO is Gitea's Reference.
type refReferenceDTO struct {
	Ref    string           `json:"ref"`
	URL    string           `json:"url"`
	Object *refGitObjectDTO `json:"object"`
}

// refNoteDTO is Gitea's Note.
type refNoteDTO struct {
	Message string         `json:"message"`
	Commit  *histCommitDTO `json:"commit"`
}

// toBranch renders a branch as Gitea's ToBranch does for an unprotected
// branch: whoever may write code may push to it and merge into it.
func (s *kernel) toBranch(a *repos.Access, b content.BranchView) refBranchDTO {
	c := b.Commit
	canWrite := a.Caller.Signed() && (a.Perm.CanWrite(permission.UnitCode) || a.Perm.IsAdmin())
	return refBranchDTO{
		Name: b.Name,
		Commit: &refPayloadCommitDTO{
			ID: c.ID, Message: c.Message, URL: s.repoHTMLURL(a) + "/commit/" + c.ID,
			Author: payloadUser(c.Author, b.Author), Committer: payloadUser(c.Committer, b.Committer),
			Verification: unsignedVerification(), Timestamp: c.Author.When,
		},
		StatusCheckContexts: []string{},
		UserCanPush:         canWrite,
		UserCanMerge:        canWrite,
	}
}

// toTag renders a tag as Gitea's ToTag does. The commit URL names the
// tagged commit (Gitea's names the tag object, which is no commit).
func (s *kernel) toTag(a *repos.Access, t ports.GitTag) refTagDTO {
	html := s.repoHTMLURL(a)
	sha := t.CommitID
	if sha == "" {
		sha = t.ObjectID
	}
	return refTagDTO{
		Name: t.Name, Message: strings.TrimSpace(t.Message), ID: t.ID,
		Commit:     &commitMetaDTO{URL: s.repoAPIURL(a) + "/git/commits/" + sha, SHA: sha, Created: t.Tagger.When},
		ZipballURL: html + "/archive/" + url.PathEscape(t.Name+".zip"),
		TarballURL: html + "/archive/" + url.PathEscape(t.Name+".tar.gz"),
	}
}

// toAnnotatedTag renders a tag object as Gitea's ToAnnotatedTag does.
func (s *kernel) toAnnotatedTag(a *repos.Access, t ports.GitTag) refAnnotatedTagDTO {
	api := s.repoAPIURL(a)
	return refAnnotatedTagDTO{
		Tag: t.Name, SHA: t.ID, URL: api + "/git/tags/" + t.ID, Message: t.Message,
		Tagger:       commitUser(t.Tagger),
		Object:       &refTagObjectDTO{Type: t.ObjectType, SHA: t.ObjectID, URL: api + "/git/" + t.ObjectType + "s/" + t.ObjectID},
		Verification: unsignedVerification(),
	}
}

// toReference renders a reference as Gitea's git refs routes do.
func (s *kernel) toReference(a *repos.Access, r ports.GitRef) refReferenceDTO {
	api := s.repoAPIURL(a)
	return refReferenceDTO{
		Ref: r.Name, URL: api + "/git/" + escapePath(r.Name),
		Object: &refGitObjectDTO{Type: r.ObjectType, SHA: r.ObjectID,
			URL: api + "/git/" + url.PathEscape(r.ObjectType) + "s/" + r.ObjectID},
	}
}

// toNote renders a note with its notes commit as Gitea's GetNote does:
// the commit as Gitea's ToCommit renders it, with its line stats always,
// and its verification (unsigned: Depot checks no signature) and changed
// files when asked for.
func (s *kernel) toNote(c auth.Caller, a *repos.Access, n content.NoteView, verification, files bool) refNoteDTO {
	v := content.CommitView{
		CommitDetail: ports.CommitDetail{
			GitCommitInfo: n.Commit,
			Stats:         &ports.CommitDiffStats{Additions: n.Additions, Deletions: n.Deletions},
		},
		AuthorUser: n.Author, CommitterUser: n.Committer,
	}
	if verification {
		v.Verification = &content.CommitVerification{Reason: commitReasonNotSigned}
	}
	if files {
		v.Files = make([]ports.CommitFileChange, len(n.Changes))
		for i, f := range n.Changes {
			v.Files[i] = ports.CommitFileChange{Path: f.Path, Status: ports.CommitFileStatus(f.Status)}
		}
	}
	commit := s.toHistCommit(c, a, v)
	return refNoteDTO{Message: n.Message, Commit: &commit}
}
