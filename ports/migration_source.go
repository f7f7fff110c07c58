package ports

import (
	"context"
	"time"
)

// MigrationSource reads, a page at a time, the issue tracker of a
// repository on another server that speaks Gitea's API (Gitea, Forgejo,
// Gogs, Depot), for a migration. Requests go through the outbound guard.
//
// Errors: errs.Invalid naming "CloneAddr" when the source answers that the
// repository or the resource does not exist, refuses the credentials, or
// answers something that is not its API; a dial-time refusal satisfies
// errors.Is(err, netpolicy.ErrRefused). Credentials never appear in errors.
type MigrationSource interface {
	Labels(ctx context.Context, r SourceRepo, page, limit int) ([]SourceLabel, error)
	// Milestones lists open and closed milestones.
	Milestones(ctx context.Context, r SourceRepo, page, limit int) ([]SourceMilestone, error)
	// Issues lists open and closed issues (no pull requests), oldest first.
	Issues(ctx context.Context, r SourceRepo, page, limit int) ([]SourceIssue, error)
	// Comments lists the plain comments of the issue with this index, oldest first.
	Comments(ctx context.Context, r SourceRepo, index int64, page, limit int) ([]SourceComment, error)
}

// SourceRepo is the repository a migration reads: the server's base URL
// (scheme, host and any sub-path, without /api/v1), owner and name, and
// the credentials given for it (a token, else a user name and password).
type SourceRepo struct {
	BaseURL, Owner, Name string
	Token                string
	Username, Password   string
}

// SourceLabel is a source repository's label; Color is six hex digits.
type SourceLabel struct {
	Name, Color, Description string
	Exclusive                bool
}

// SourceMilestone is a source repository's milestone.
type SourceMilestone struct {
	Title, Description string
	Closed             bool
	Deadline, ClosedAt *time.Time
	Created, Updated   time.Time
}

// SourceIssue is a source repository's issue; people are by user name,
// the poster also by their id on the source.
type SourceIssue struct {
	Index            int64
	Title, Body      string
	Poster           string
	PosterID         int64
	Closed           bool
	Labels           []string
	Milestone        string
	Assignees        []string
	Created, Updated time.Time
	ClosedAt         *time.Time
	Comments         int
}

// SourceComment is a plain comment of a source issue.
type SourceComment struct {
	Poster           string
	PosterID         int64
	Body             string
	Created, Updated time.Time
}
