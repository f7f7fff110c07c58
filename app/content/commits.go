package content

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Commits are the use cases of a repository's commits: listings, one
// commit, its diff or patch, and comparisons (compare.go).
type Commits struct{ *Service }

// Commits returns the commit use cases.
func (s *Service) Commits() Commits { return Commits{s} }

// The verification reasons Gitea reports for commits it cannot verify. A
// verified commit's reason is "<committer's name> / <key id>".
const (
	commitReasonNotSigned          = "gpg.error.not_signed_commit"
	commitReasonNoCommitterAccount = "gpg.error.no_committer_account"
	commitReasonNoKeyFound         = "gpg.error.no_gpg_keys_found"
)

// CommitFieldOptions says what to compute for each commit, as the stat,
// verification and files query parameters do.
type CommitFieldOptions struct {
	Stat, Verification, Files bool
}

func (o CommitFieldOptions) extras() ports.CommitExtras {
	return ports.CommitExtras{Stats: o.Stat, Files: o.Files, Signature: o.Verification}
}

// CommitListQuery is a commit listing's request.
type CommitListQuery struct {
	// Ref is where to start (a branch, tag or commit); "" is the default branch.
	Ref string
	// Not excludes the commits reachable from this ref.
	Not string
	// Path keeps the commits that changed it.
	Path         string
	Since, Until time.Time
	CommitFieldOptions
	Page ports.ListOptions
}

// CommitView is a commit with the accounts its e-mail addresses belong to.
type CommitView struct {
	ports.CommitDetail
	// AuthorUser and CommitterUser own the commit's author and committer
	// addresses (activated ones), or are nil.
	AuthorUser, CommitterUser *user.User
	// Verification is set when it was asked for.
	Verification *CommitVerification
}

// CommitVerification is what Gitea reports about a commit's signature.
type CommitVerification struct {
	Verified           bool
	Reason             string
	Signature, Payload string
	// Signer is the account whose key verified the commit, with the
	// committer address the key vouched for; nil unless Verified.
	Signer      *user.User
	SignerEmail string
}

// errEmptyRepository answers a listing of a repository without commits, as Gitea does.
func errEmptyRepository() error { return errs.Conflict("Git Repository is empty.") }

// CommitList is one page of a commit listing.
type CommitList struct {
	Commits []CommitView
	// Total counts every commit the listing selects, or is -1 while the
	// history of a path is still being counted in the background.
	Total int64
	// More reports whether later pages hold commits.
	More bool
}

// List lists one page of a's commits and counts them all.
func (s Commits) List(ctx context.Context, a *repos.Access, q CommitListQuery) (CommitList, error) {
	if a.Repo.Empty {
		return CommitList{}, errEmptyRepository()
	}
	path, err := cleanHistoryPath(q.Path)
	if err != nil {
		return CommitList{}, err
	}
	if !q.Since.IsZero() && !q.Until.IsZero() && q.Until.Before(q.Since) {
		return CommitList{}, errs.Invalid("must not be before since", "until")
	}
	for field, ref := range map[string]string{"sha": q.Ref, "not": q.Not} {
		if err := checkRefPattern(field, ref); err != nil {
			return CommitList{}, err
		}
	}
	list, total, err := s.git.ListCommits(ctx, pathOf(a.Repo), ports.CommitListQuery{
		Ref: q.Ref, Not: q.Not, Path: path, Since: q.Since, Until: q.Until, Extras: q.extras(),
		CountBudget: s.countBudget(),
	}, q.Page)
	if err != nil {
		return CommitList{}, err
	}
	if path != "" && (total == 0 || (total < 0 && len(list) == 0 && q.Page.Page <= 1)) {
		// Gitea answers a path no commit touched with 404.
		return CommitList{}, errs.NotFound("no commit changed " + path)
	}
	page := CommitList{Total: total}
	if total >= 0 {
		page.More = int64(q.Page.Offset()+len(list)) < total
	} else if len(list) > q.Page.Limit {
		list, page.More = list[:q.Page.Limit], true
	}
	page.Commits, err = s.withAccounts(ctx, list, q.Verification)
	return page, err
}

// Get returns the commit ref names (a branch, tag or commit id).
func (s Commits) Get(ctx context.Context, a *repos.Access, ref string, opts CommitFieldOptions) (CommitView, error) {
	if ref == "" {
		return CommitView{}, errs.NotFound("commit does not exist")
	}
	if err := checkRefPattern("sha", ref); err != nil {
		return CommitView{}, err
	}
	d, err := s.git.CommitDetail(ctx, pathOf(a.Repo), ref, opts.extras())
	if err != nil {
		return CommitView{}, err
	}
	out, err := s.withAccounts(ctx, []ports.CommitDetail{d}, opts.Verification)
	if err != nil {
		return CommitView{}, err
	}
	return out[0], nil
}

// ID resolves ref to its commit's full id.
func (s Commits) ID(ctx context.Context, a *repos.Access, ref string) (string, error) {
	if ref == "" {
		return "", errs.NotFound("commit does not exist")
	}
	if err := checkRefPattern("sha", ref); err != nil {
		return "", err
	}
	rev, err := s.git.Resolve(ctx, pathOf(a.Repo), ref)
	if err != nil {
		return "", err
	}
	return rev.CommitID, nil
}

// WriteDiff writes the commit ref names as a unified diff or an mbox
// patch. Nothing is written when it fails before the first byte.
func (s Commits) WriteDiff(ctx context.Context, a *repos.Access, ref string, format ports.CommitDiffFormat, w io.Writer) error {
	if ref == "" {
		return errs.NotFound("commit does not exist")
	}
	if err := checkRefPattern("sha", ref); err != nil {
		return err
	}
	return s.git.WriteCommitDiff(ctx, pathOf(a.Repo), ref, format, w)
}

// verified is list, commits of a's repository, with their accounts and
// what Gitea says of their signatures (read together from Git).
func (s Commits) verified(ctx context.Context, a *repos.Access, list []ports.GitCommitInfo) ([]CommitView, error) {
	ids := make([]string, len(list))
	for i, c := range list {
		ids[i] = c.ID
	}
	sigs, err := s.git.CommitSignatures(ctx, pathOf(a.Repo), ids)
	if err != nil {
		return nil, err
	}
	details := make([]ports.CommitDetail, len(list))
	for i, c := range list {
		details[i] = ports.CommitDetail{GitCommitInfo: c, Signature: sigs[c.ID]}
	}
	return s.withAccounts(ctx, details, true)
}

// withAccounts finds the accounts of the commits' addresses in one query
// and, when asked, what Gitea would say of their signatures.
func (s Commits) withAccounts(ctx context.Context, list []ports.CommitDetail, verification bool) ([]CommitView, error) {
	addrs := make([]string, 0, 2*len(list))
	for _, c := range list {
		addrs = append(addrs, c.Author.Email, c.Committer.Email)
	}
	accounts, err := s.usersByEmails(ctx, addrs)
	if err != nil {
		return nil, err
	}
	out := make([]CommitView, len(list))
	keys := map[int64]*users.CommitKeys{} // each committer's keys, read once
	var serverKey []byte
	if verification {
		serverKey = s.serverKey()
	}
	for i, c := range list {
		out[i] = CommitView{
			CommitDetail:  c,
			AuthorUser:    accounts[strings.ToLower(c.Author.Email)],
			CommitterUser: accounts[strings.ToLower(c.Committer.Email)],
		}
		if verification {
			v, err := s.verify(ctx, c, out[i].CommitterUser, keys, serverKey)
			if err != nil {
				return nil, err
			}
			out[i].Verification = &v
		}
	}
	return out, nil
}

// verify says what Gitea says of a commit's signature: an unsigned commit
// is not signed; a signature one of the committer's keys made, a key that
// may vouch for the committer address, verifies it; so does one made by
// serverKey, the key Depot signs its own commits with (nil when it signs
// none), in the name Depot signs as (site.Settings.SigningIdentity).
// Otherwise the committer has no account or no key was found.
// keys caches the committers' keys, read once per listing.
func (s Commits) verify(ctx context.Context, c ports.CommitDetail, committer *user.User, keys map[int64]*users.CommitKeys,
	serverKey []byte) (CommitVerification, error) {
	sig := c.Signature
	if sig == nil {
		return CommitVerification{Reason: commitReasonNotSigned}, nil
	}
	v := CommitVerification{Reason: commitReasonNoKeyFound, Signature: sig.Signature, Payload: sig.Payload}
	if committer == nil {
		v.Reason = commitReasonNoCommitterAccount
	}
	if s.users == nil {
		return v, nil
	}
	if committer != nil {
		ck := keys[committer.ID]
		if ck == nil {
			var err error
			if ck, err = s.users.GPGKeys().CommitKeys(ctx, committer.ID); err != nil {
				return v, err
			}
			keys[committer.ID] = ck
		}
		if keyID := ck.Signer(c.Committer.Email, sig.Signature, sig.Payload); keyID != "" {
			v.Verified, v.Reason = true, committer.Name+" / "+keyID
			v.Signer, v.SignerEmail = committer, c.Committer.Email
			return v, nil
		}
	}
	if keyID := s.users.GPGKeys().ServerSigner(serverKey, sig.Signature, sig.Payload); keyID != "" {
		name, email := s.settings.SigningIdentity()
		v.Verified, v.Reason = true, name+" / "+keyID
		v.Signer, v.SignerEmail = &user.User{Name: name}, email
	}
	return v, nil
}

// serverKey is the public key Depot signs its own commits with, nil when
// it signs none.
func (s Commits) serverKey() []byte {
	if s.signingKey == nil {
		return nil
	}
	return s.signingKey()
}

// cleanHistoryPath checks a path filter: surrounding slashes are dropped,
// and "." or ".." segments, empty segments and NUL are refused.
func cleanHistoryPath(p string) (string, error) {
	p = strings.Trim(p, "/")
	if p == "" {
		return "", nil
	}
	if strings.ContainsRune(p, 0) {
		return "", errs.Invalid("must not contain NUL", "path")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", errs.Invalid("must be a clean relative path", "path")
		}
	}
	return p, nil
}

// checkRefPattern refuses what cannot name a ref or a commit, as Gitea's
// IsValidRefPattern does (422), and names over 255 bytes; anything else is
// looked up, and may be absent (a ".lock" component inside the name, which
// the notes route refuses, is looked up here: refFaults).
func checkRefPattern(field, ref string) error {
	if ref == "" {
		return nil
	}
	if refPatternFaults(ref)&(refMalformed|refTooLong) != 0 {
		return errs.Invalid("no valid ref or sha", field)
	}
	return nil
}

// countBudget is how long a listing filtered by a path waits for its count
// once it has its page (site.Settings.CommitCountBudget).
func (s Commits) countBudget() time.Duration {
	if s.settings.CommitCountBudget > 0 {
		return s.settings.CommitCountBudget
	}
	return site.Defaults().CommitCountBudget
}
