package http

import (
	"net/url"
	"strings"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
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

// refPayloadUserDTO is Gitea's PayloadUser.
type refPayloadUserDTO struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	UserName string `json:"username"`
}

// refVerificationDTO is Gitea's PayloadCommitVerification. Depot does not
// verify signatures yet, so every commit reads as unsigned, as Gitea says
// of a commit without a signature.
type refVerificationDTO struct {
	Verified  bool               `json:"verified"`
	Reason    string             `json:"reason"`
	Signature string             `json:"signature"`
	Signer    *refPayloadUserDTO `json:"signer"`
	Payload   string             `json:"payload"`
}

// refUnsigned is the verification of an unsigned commit or tag.
func refUnsigned() *refVerificationDTO {
	return &refVerificationDTO{Reason: "gpg.error.not_signed_commit"}
}

// refPayloadCommitDTO is Gitea's PayloadCommit, the head commit of a branch.
type refPayloadCommitDTO struct {
	ID           string              `json:"id"`
	Message      string              `json:"message"`
	URL          string              `json:"url"`
	Author       *refPayloadUserDTO  `json:"author"`
	Committer    *refPayloadUserDTO  `json:"committer"`
	Verification *refVerificationDTO `json:"verification"`
	Timestamp    time.Time           `json:"timestamp"`
	Added        []string            `json:"added"`
	Removed      []string            `json:"removed"`
	Modified     []string            `json:"modified"`
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

// refCommitMetaDTO is Gitea's CommitMeta.
type refCommitMetaDTO struct {
	URL     string    `json:"url"`
	SHA     string    `json:"sha"`
	Created time.Time `json:"created"`
}

// refTagDTO is Gitea's Tag.
type refTagDTO struct {
	Name       string            `json:"name"`
	Message    string            `json:"message"`
	ID         string            `json:"id"`
	Commit     *refCommitMetaDTO `json:"commit"`
	ZipballURL string            `json:"zipball_url"`
	TarballURL string            `json:"tarball_url"`
}

// refCommitUserDTO is Gitea's CommitUser.
type refCommitUserDTO struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"`
}

// refTagObjectDTO is Gitea's AnnotatedTagObject.
type refTagObjectDTO struct {
	Type string `json:"type"`
	URL  string `json:"url"`
	SHA  string `json:"sha"`
}

// refAnnotatedTagDTO is Gitea's AnnotatedTag.
type refAnnotatedTagDTO struct {
	Tag          string              `json:"tag"`
	SHA          string              `json:"sha"`
	URL          string              `json:"url"`
	Message      string              `json:"message"`
	Tagger       *refCommitUserDTO   `json:"tagger"`
	Object       *refTagObjectDTO    `json:"object"`
	Verification *refVerificationDTO `json:"verification"`
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

// refRepoCommitDTO is Gitea's RepoCommit.
type refRepoCommitDTO struct {
	URL          string              `json:"url"`
	Author       *refCommitUserDTO   `json:"author"`
	Committer    *refCommitUserDTO   `json:"committer"`
	Message      string              `json:"message"`
	Tree         *refCommitMetaDTO   `json:"tree"`
	Verification *refVerificationDTO `json:"verification,omitempty"`
}

// refCommitFileDTO is Gitea's CommitAffectedFiles.
type refCommitFileDTO struct {
	Filename string `json:"filename"`
	Status   string `json:"status"`
}

// refCommitStatsDTO is Gitea's CommitStats.
type refCommitStatsDTO struct {
	Total     int `json:"total"`
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
}

// refCommitDTO is Gitea's Commit, as a note shows the notes commit.
type refCommitDTO struct {
	refCommitMetaDTO
	HTMLURL    string              `json:"html_url"`
	RepoCommit *refRepoCommitDTO   `json:"commit"`
	Author     *userDTO            `json:"author"`
	Committer  *userDTO            `json:"committer"`
	Parents    []*refCommitMetaDTO `json:"parents"`
	Files      []*refCommitFileDTO `json:"files,omitempty"`
	Stats      *refCommitStatsDTO  `json:"stats,omitempty"`
}

// refNoteDTO is Gitea's Note.
type refNoteDTO struct {
	Message string        `json:"message"`
	Commit  *refCommitDTO `json:"commit"`
}

// refPayloadUser renders a commit identity with the account it belongs to.
func refPayloadUser(sig ports.GitSignature, u *user.User) *refPayloadUserDTO {
	d := &refPayloadUserDTO{Name: sig.Name, Email: sig.Email}
	if u != nil {
		d.UserName = u.Name
	}
	return d
}

// toBranch renders a branch as Gitea's ToBranch does for an unprotected
// branch: whoever may write code may push to it and merge into it.
func (s *Server) toBranch(a *repos.Access, b content.BranchView) refBranchDTO {
	c := b.Commit
	canWrite := a.Caller.Signed() && (a.Perm.CanWrite(permission.UnitCode) || a.Perm.IsAdmin())
	return refBranchDTO{
		Name: b.Name,
		Commit: &refPayloadCommitDTO{
			ID: c.ID, Message: c.Message, URL: s.repoHTMLURL(a) + "/commit/" + c.ID,
			Author: refPayloadUser(c.Author, b.Author), Committer: refPayloadUser(c.Committer, b.Committer),
			Verification: refUnsigned(), Timestamp: c.Author.When,
		},
		StatusCheckContexts: []string{},
		UserCanPush:         canWrite,
		UserCanMerge:        canWrite,
	}
}

// toTag renders a tag as Gitea's ToTag does. The commit URL names the
// tagged commit (Gitea's names the tag object, which is no commit).
func (s *Server) toTag(a *repos.Access, t ports.GitTag) refTagDTO {
	html := s.repoHTMLURL(a)
	sha := t.CommitID
	if sha == "" {
		sha = t.ObjectID
	}
	return refTagDTO{
		Name: t.Name, Message: strings.TrimSpace(t.Message), ID: t.ID,
		Commit:     &refCommitMetaDTO{URL: s.repoAPIURL(a) + "/git/commits/" + sha, SHA: sha, Created: t.Tagger.When},
		ZipballURL: html + "/archive/" + url.PathEscape(t.Name+".zip"),
		TarballURL: html + "/archive/" + url.PathEscape(t.Name+".tar.gz"),
	}
}

// refCommitUser renders a signature with its date as Gitea does (RFC 3339, UTC).
func refCommitUser(sig ports.GitSignature) *refCommitUserDTO {
	return &refCommitUserDTO{Name: sig.Name, Email: sig.Email, Date: sig.When.UTC().Format(time.RFC3339)}
}

// toAnnotatedTag renders a tag object as Gitea's ToAnnotatedTag does.
func (s *Server) toAnnotatedTag(a *repos.Access, t ports.GitTag) refAnnotatedTagDTO {
	api := s.repoAPIURL(a)
	return refAnnotatedTagDTO{
		Tag: t.Name, SHA: t.ID, URL: api + "/git/tags/" + t.ID, Message: t.Message,
		Tagger:       refCommitUser(t.Tagger),
		Object:       &refTagObjectDTO{Type: t.ObjectType, SHA: t.ObjectID, URL: api + "/git/" + t.ObjectType + "s/" + t.ObjectID},
		Verification: refUnsigned(),
	}
}

// toReference renders a reference as Gitea's git refs routes do.
func (s *Server) toReference(a *repos.Access, r ports.GitRef) refReferenceDTO {
	api := s.repoAPIURL(a)
	return refReferenceDTO{
		Ref: r.Name, URL: api + "/git/" + escapePath(r.Name),
		Object: &refGitObjectDTO{Type: r.ObjectType, SHA: r.ObjectID,
			URL: api + "/git/" + url.PathEscape(r.ObjectType) + "s/" + r.ObjectID},
	}
}

// toNote renders a note with its notes commit as Gitea's ToCommit does;
// verification and files are left out when not asked for.
func (s *Server) toNote(c auth.Caller, a *repos.Access, n content.NoteView, verification, files bool) refNoteDTO {
	api, html := s.repoAPIURL(a), s.repoHTMLURL(a)
	ci := n.Commit
	commit := &refCommitDTO{
		refCommitMetaDTO: refCommitMetaDTO{URL: api + "/git/commits/" + ci.ID, SHA: ci.ID, Created: ci.Committer.When},
		HTMLURL:          html + "/commit/" + ci.ID,
		RepoCommit: &refRepoCommitDTO{
			URL: api + "/git/commits/" + ci.ID, Author: refCommitUser(ci.Author), Committer: refCommitUser(ci.Committer),
			Message: ci.Message,
			Tree:    &refCommitMetaDTO{URL: api + "/git/trees/" + ci.TreeID, SHA: ci.TreeID, Created: ci.Committer.When},
		},
		Parents: make([]*refCommitMetaDTO, 0, len(ci.ParentIDs)),
		Stats:   &refCommitStatsDTO{Total: n.Additions + n.Deletions, Additions: n.Additions, Deletions: n.Deletions},
	}
	if n.Author != nil {
		u := s.toUser(c, n.Author)
		commit.Author = &u
	}
	if n.Committer != nil {
		u := s.toUser(c, n.Committer)
		commit.Committer = &u
	}
	for _, id := range ci.ParentIDs {
		commit.Parents = append(commit.Parents, &refCommitMetaDTO{URL: api + "/git/commits/" + id, SHA: id})
	}
	if verification {
		commit.RepoCommit.Verification = refUnsigned()
	}
	if files {
		commit.Files = make([]*refCommitFileDTO, 0, len(n.Changes))
		for _, f := range n.Changes {
			commit.Files = append(commit.Files, &refCommitFileDTO{Filename: f.Path, Status: f.Status})
		}
	}
	return refNoteDTO{Message: n.Message, Commit: commit}
}
