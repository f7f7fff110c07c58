package ports

import (
	"context"
	"io"
)

// MarkupRenderer turns what users write (markdown, plain text) into HTML
// that is safe to show: rendered, linked and sanitised.
type MarkupRenderer interface {
	// Render writes doc as HTML to w. An answer that would pass
	// doc.MaxOutput bytes is refused with errs.ErrTooLarge before anything
	// is written.
	Render(ctx context.Context, doc MarkupDocument, w io.Writer) error
}

// MarkupFormat is the language of a document.
type MarkupFormat int

const (
	// MarkupMarkdown is CommonMark with GitHub's extensions.
	MarkupMarkdown MarkupFormat = iota
	// MarkupPlainText is shown as written, in a <pre>.
	MarkupPlainText
)

// MarkupDocument is a document to render and how its links resolve.
type MarkupDocument struct {
	Format MarkupFormat
	Text   []byte

	// AppURL is the site's root URL, without a trailing slash.
	AppURL string
	// RepoURL is the repository's web address ("{AppURL}/{owner}/{repo}"),
	// or "" when the document belongs to none: relative links stay as written.
	RepoURL string
	// RefPath is where in the repository the document lives ("branch/main",
	// "commit/<id>", "tag/v1"); relative links of a file point at
	// {RepoURL}/src/{RefPath}/{TreePath}/…, images at {RepoURL}/media/….
	// Empty: relative links point under RepoURL itself.
	RefPath  string
	TreePath string
	// Wiki makes [[Page]] links and points relative links into the wiki.
	Wiki bool

	// Mentions links @name for the accounts Resolve says may be mentioned.
	Mentions bool
	// FullIssueRefs links owner/repo#N and owner/repo!N.
	FullIssueRefs bool
	// ShortIssueRefs links #N and !N to RepoURL's issues and pulls.
	ShortIssueRefs bool
	// CommitRefs links the commit ids Resolve finds in the repository.
	CommitRefs bool
	// Resolve answers which names and commit ids exist; nil links none.
	Resolve MarkupResolver

	// MaxOutput bounds the HTML written.
	MaxOutput int64
}

// MarkupResolver tells a renderer which references of a document exist,
// each asked once per document for all its candidates.
type MarkupResolver interface {
	// Mentionable returns, keyed by lower-case name, the account names
	// among names that the reader may see.
	Mentionable(ctx context.Context, names []string) (map[string]bool, error)
	// Commits returns, keyed by the id as given, the full ids of the
	// abbreviated or full commit ids found in the repository.
	Commits(ctx context.Context, ids []string) (map[string]string, error)
}
