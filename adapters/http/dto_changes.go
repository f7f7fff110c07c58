package http

import (
	"encoding/base64"
	"net/url"
	"strings"
	"time"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// changeIdentityBody is Gitea's Identity: an author or committer.
type changeIdentityBody struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// changeDatesBody is Gitea's CommitDateOptions, RFC 3339 dates; empty or the
// zero time means now.
type changeDatesBody struct {
	Author    string `json:"author"`
	Committer string `json:"committer"`
}

// FileOptionsBody is Gitea's FileOptions, the fields every contents write
// shares. It is exported only so that the request bodies embedding it are
// walked by decodeJSON's NUL check.
type FileOptionsBody struct {
	Message   string             `json:"message"`
	Branch    string             `json:"branch"`
	NewBranch string             `json:"new_branch"`
	Author    changeIdentityBody `json:"author"`
	Committer changeIdentityBody `json:"committer"`
	Dates     changeDatesBody    `json:"dates"`
	Signoff   bool               `json:"signoff"`
}

// createFileBody is Gitea's CreateFileOptions.
type createFileBody struct {
	FileOptionsBody
	Content string `json:"content"`
}

// updateFileBody is Gitea's UpdateFileOptions.
type updateFileBody struct {
	FileOptionsBody
	SHA      string `json:"sha"`
	Content  string `json:"content"`
	FromPath string `json:"from_path"`
}

// deleteFileBody is Gitea's DeleteFileOptions.
type deleteFileBody struct {
	FileOptionsBody
	SHA string `json:"sha"`
}

// changeFileOperationBody is Gitea's ChangeFileOperation.
type changeFileOperationBody struct {
	Operation string `json:"operation"`
	Path      string `json:"path"`
	Content   string `json:"content"`
	FromPath  string `json:"from_path"`
	SHA       string `json:"sha"`
}

// changeFilesBody is Gitea's ChangeFilesOptions.
type changeFilesBody struct {
	FileOptionsBody
	Files []changeFileOperationBody `json:"files"`
}

// diffPatchBody is Gitea's ApplyDiffPatchFileOptions; content is the diff
// text itself, not base64.
type diffPatchBody struct {
	FileOptionsBody
	Content string `json:"content"`
}

// commitOptions turns the shared fields into the use case's options.
func (b FileOptionsBody) commitOptions() (content.ChangeOptions, error) {
	opts := content.ChangeOptions{
		Branch: b.Branch, NewBranch: b.NewBranch, Message: b.Message, Signoff: b.Signoff,
		Author:    repository.Identity{Name: b.Author.Name, Email: b.Author.Email},
		Committer: repository.Identity{Name: b.Committer.Name, Email: b.Committer.Email},
	}
	var err error
	if opts.AuthorDate, err = parseChangeDate(b.Dates.Author); err != nil {
		return opts, err
	}
	if opts.CommitterDate, err = parseChangeDate(b.Dates.Committer); err != nil {
		return opts, err
	}
	return opts, nil
}

// parseChangeDate reads an RFC 3339 date; "" is the zero time.
func parseChangeDate(s string) (time.Time, error) {
	if strings.TrimSpace(s) == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, errs.Invalid("must be an RFC 3339 date", "Dates")
	}
	return t, nil
}

// decodeChangeContent decodes a file's base64 content (line breaks allowed, as
// Go's decoder skips them).
func decodeChangeContent(s string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, errs.Invalid(err.Error(), "Content")
	}
	return b, nil
}

// fileCommitDTO is Gitea's FileCommitResponse: the commit a contents write made.
type fileCommitDTO struct {
	commitMetaDTO
	HTMLURL   string          `json:"html_url"`
	Author    *commitUserDTO  `json:"author"`
	Committer *commitUserDTO  `json:"committer"`
	Parents   []commitMetaDTO `json:"parents"`
	Message   string          `json:"message"`
	Tree      *commitMetaDTO  `json:"tree"`
}

// fileResponseDTO is Gitea's FileResponse.
type fileResponseDTO struct {
	Content      *contentsDTO     `json:"content"`
	Commit       *fileCommitDTO   `json:"commit"`
	Verification *verificationDTO `json:"verification"`
}

// filesResponseDTO is Gitea's FilesResponse: one entry per change, null for
// a deletion. The commit is told once, in commit: no entry repeats its
// message (see toFilesResponse), so the answer grows with the files and
// their content, never with files times message.
type filesResponseDTO struct {
	Files        []*contentsDTO   `json:"files"`
	Commit       *fileCommitDTO   `json:"commit"`
	Verification *verificationDTO `json:"verification"`
}

// fileDeleteResponseDTO is Gitea's FileDeleteResponse: content is always null.
type fileDeleteResponseDTO struct {
	Content      *contentsDTO     `json:"content"`
	Commit       *fileCommitDTO   `json:"commit"`
	Verification *verificationDTO `json:"verification"`
}

// toFileCommit renders the commit a write made as Gitea does.
func (s *kernel) toFileCommit(a *repos.Access, c ports.GitCommitInfo) *fileCommitDTO {
	api := s.repoAPIURL(a)
	meta := func(kind, sha string) commitMetaDTO {
		return commitMetaDTO{URL: api + "/git/" + kind + "/" + url.PathEscape(sha), SHA: sha}
	}
	d := &fileCommitDTO{
		commitMetaDTO: meta("commits", c.ID),
		HTMLURL:       s.repoHTMLURL(a) + "/commit/" + url.PathEscape(c.ID),
		Author:        commitUser(c.Author),
		Committer:     commitUser(c.Committer),
		Parents:       make([]commitMetaDTO, 0, len(c.ParentIDs)),
		Message:       c.Message,
	}
	d.Created = c.Committer.When.UTC()
	tree := meta("trees", c.TreeID)
	d.Tree = &tree
	for _, p := range c.ParentIDs {
		d.Parents = append(d.Parents, meta("commits", p))
	}
	return d
}

// toFileResponse renders a write of one file.
func (s *kernel) toFileResponse(a *repos.Access, res *content.ChangeResult) fileResponseDTO {
	d := fileResponseDTO{Commit: s.toFileCommit(a, res.Commit), Verification: unsignedVerification()}
	if len(res.Entries) > 0 && res.Entries[0] != nil {
		c := s.toContents(a, res.Revision, *res.Entries[0], true)
		d.Content = &c
	}
	return d
}

// toFilesResponse renders a write of several files.
func (s *kernel) toFilesResponse(a *repos.Access, res *content.ChangeResult) filesResponseDTO {
	d := filesResponseDTO{
		Files:  make([]*contentsDTO, len(res.Entries)),
		Commit: s.toFileCommit(a, res.Commit), Verification: unsignedVerification(),
	}
	for i, e := range res.Entries {
		if e != nil {
			c := s.toContents(a, res.Revision, *e, true)
			// The entry's last commit is this write's, whose message is
			// commit.message; Gitea's field is optional (omitempty). Its sha
			// and dates stay: they are of fixed size.
			c.LastCommitMessage = nil
			d.Files[i] = &c
		}
	}
	return d
}
