package http

import (
	"time"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// DTOs of Gitea's Git shapes that several routes share: branches, tags,
// notes, commits and contents writes all describe commits and signatures
// with these.

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
// a signature: Depot neither signs what it writes nor checks tags'
// signatures.
func unsignedVerification() *verificationDTO {
	return &verificationDTO{Reason: commitReasonNotSigned}
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
