package content

import (
	"context"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// CommitComparison is what head has that base has not.
type CommitComparison struct {
	Commits []CommitView
	// TotalCommits counts every such commit; Commits holds at most the
	// first 250 of them.
	TotalCommits int
	Files        []ports.CommitFileChange
}

// Compare compares two refs given as "base...head" (files from their
// merge base) or "base..head" (files from base); a lone ref is compared
// with the default branch. Stats are always computed, as Gitea does.
func (s Commits) Compare(ctx context.Context, a *repos.Access, basehead string, opts CommitFieldOptions) (CommitComparison, error) {
	base, head, direct := splitBaseHead(basehead, a.Repo.DefaultBranch)
	if base == "" || head == "" {
		return CommitComparison{}, errs.NotFound("base or head does not exist")
	}
	for field, ref := range map[string]string{"base": base, "head": head} {
		if err := checkRefPattern(field, ref); err != nil {
			return CommitComparison{}, errs.NotFound(field + " " + ref + " does not exist")
		}
	}
	opts.Stat = true
	cmp, err := s.git.CompareCommits(ctx, pathOf(a.Repo), base, head, direct, opts.extras())
	if err != nil {
		return CommitComparison{}, err
	}
	commits, err := s.withAccounts(ctx, cmp.Commits, opts.Verification)
	if err != nil {
		return CommitComparison{}, err
	}
	out := CommitComparison{Commits: commits, TotalCommits: cmp.TotalCommits}
	if opts.Files {
		out.Files = cmp.Files
	}
	return out, nil
}

// splitBaseHead reads "base...head", "base..head" or a lone head.
func splitBaseHead(s, defaultBranch string) (base, head string, direct bool) {
	if b, h, ok := strings.Cut(s, "..."); ok {
		return b, h, false
	}
	if b, h, ok := strings.Cut(s, ".."); ok {
		return b, h, true
	}
	return defaultBranch, s, false
}
