package http

import (
	"strings"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// DTOs of Gitea's Git shapes that several routes share, and the query
// parameters they share: branches, tags, notes, commits, comparisons and
// contents writes all describe commits and signatures with these.

// payloadUserDTO is Gitea's PayloadUser: a Git identity with the name of
// the account it belongs to (a branch head's author, a signature's signer).
type payloadUserDTO struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	UserName string `json:"username"`
}

// verificationDTO is Gitea's PayloadCommitVerification.
type verificationDTO struct {
	Verified  bool            `json:"verified"`
	Reason    string          `json:"reason"`
	Signature string          `json:"signature"`
	Signer    *payloadUserDTO `json:"signer"`
	Payload   string          `json:"payload"`
}

// commitReasonNotSigned is Gitea's verification reason for a commit or tag
// without a signature.
const commitReasonNotSigned = "gpg.error.not_signed_commit"

// unsignedVerification is Gitea's verification of a commit or tag without
// a signature (Depot does not check tags' signatures).
func unsignedVerification() *verificationDTO {
	return &verificationDTO{Reason: commitReasonNotSigned}
}

// toVerification renders what the use cases found of a commit's
// signature (nil: unsigned); the signer is named as Gitea's ToVerification
// does: account name, display name, and the address the key vouched for.
func toVerification(v *content.CommitVerification) *verificationDTO {
	if v == nil {
		return unsignedVerification()
	}
	d := &verificationDTO{Verified: v.Verified, Reason: v.Reason, Signature: v.Signature, Payload: v.Payload}
	if v.Signer != nil {
		name := v.Signer.FullName
		if name == "" {
			name = v.Signer.Name
		}
		d.Signer = &payloadUserDTO{Name: name, Email: v.SignerEmail, UserName: v.Signer.Name}
	}
	return d
}

// commitMetaDTO is Gitea's CommitMeta.
type commitMetaDTO struct {
	URL     string    `json:"url"`
	SHA     string    `json:"sha"`
	Created time.Time `json:"created"`
}

// commitUserDTO is Gitea's CommitUser: a signature with its date in RFC 3339.
type commitUserDTO struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Date  string `json:"date"`
}

// commitUser renders a signature as Gitea's ToCommitUser does, dated in
// UTC (taggers, and the commits of contents writes). Gitea's Commit keeps
// the signature's own offset instead: see toHistCommit.
func commitUser(sig ports.GitSignature) *commitUserDTO {
	return &commitUserDTO{Name: sig.Name, Email: sig.Email, Date: sig.When.UTC().Format(time.RFC3339)}
}

// payloadUser renders a commit identity with the account it belongs to
// (nil when no account owns the address).
func payloadUser(sig ports.GitSignature, u *user.User) *payloadUserDTO {
	d := &payloadUserDTO{Name: sig.Name, Email: sig.Email}
	if u != nil {
		d.UserName = u.Name
	}
	return d
}

// commitFields reads the stat, verification and files flags; each is true
// unless given as false, as in Gitea.
func commitFields(q *request) (content.CommitFieldOptions, error) {
	opts := content.CommitFieldOptions{Stat: true, Verification: true, Files: true}
	for name, dst := range map[string]*bool{"stat": &opts.Stat, "verification": &opts.Verification, "files": &opts.Files} {
		b, err := queryBool(q, name)
		if err != nil {
			return opts, err
		}
		if b != nil {
			*dst = *b
		}
	}
	return opts, nil
}

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
	api := s.repoAPIURL(a.Repo)
	d := histCommitDTO{
		URL:     api + "/git/commits/" + v.ID,
		SHA:     v.ID,
		Created: v.Committer.When,
		HTMLURL: s.repoWebURL(a.Repo) + "/commit/" + v.ID,
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
		d.RepoCommit.Verification = toVerification(v.Verification)
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

// refParam is the ref query parameter, trimmed as Gitea trims it.
func refParam(q *request) string {
	if q.r.URL.RawQuery == "" {
		return ""
	}
	return strings.TrimSpace(q.r.URL.Query().Get("ref"))
}
