package http

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// repoChanges serves the writes of a repository's files, each made as one
// commit: the contents write routes and the diff patch route (catalogue 4.5).
type repoChanges struct{ *kernel }

// changeRoutes are the rows of repoChanges. The paths are the contents
// read routes' own, so that a wrong method on them answers 405 with every
// method allowed there.
func (s *kernel) changeRoutes() []route {
	h := repoChanges{s}
	return []route{
		{"POST", R + "/contents", scopes(catRepo), "T,RR(code),BW,NA", h.changeFiles},
		{"POST", R + "/contents/{filepath:.*}", scopes(catRepo), "T,RR(code),BW,NA", h.createFile},
		{"PUT", R + "/contents/{filepath:.*}", scopes(catRepo), "T,RR(code),BW,NA", h.updateFile},
		{"DELETE", R + "/contents/{filepath:.*}", scopes(catRepo), "T,RR(code),BW,NA", h.deleteFile},
		{"POST", R + "/diffpatch", scopes(catRepo), "T,RW(code),NA", h.applyDiffPatch},
	}
}

// decodeChange reads a contents write body and turns its shared fields
// into the use case's options.
func decodeChange[B interface {
	commitOptions() (content.ChangeOptions, error)
}](q *request, body B) (content.ChangeOptions, error) {
	if err := decodeJSON(q.r, body); err != nil {
		return content.ChangeOptions{}, err
	}
	return body.commitOptions()
}

// createFile answers POST R/contents/{filepath}: 201 FileResponse.
func (s repoChanges) createFile(q *request) error {
	var body createFileBody
	opts, err := decodeChange(q, &body)
	if err != nil {
		return err
	}
	data, err := decodeChangeContent(body.Content)
	if err != nil {
		return err
	}
	res, err := s.content.Changes().Files(q.r.Context(), q.repo, opts, []repository.FileChange{
		{Operation: repository.FileCreate, Path: q.var_("filepath"), Content: data},
	})
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toFileResponse(q.repo, res))
	return nil
}

// updateFile answers PUT R/contents/{filepath}. With the file's current sha
// it updates it (moving it from from_path when given): 200. Without a sha it
// creates the file, as Gitea does since 1.26 (and GitHub always did): 201,
// and 422 when the file exists.
func (s repoChanges) updateFile(q *request) error {
	var body updateFileBody
	opts, err := decodeChange(q, &body)
	if err != nil {
		return err
	}
	data, err := decodeChangeContent(body.Content)
	if err != nil {
		return err
	}
	change := repository.FileChange{Operation: repository.FileUpdate, Path: q.var_("filepath"), FromPath: body.FromPath,
		SHA: body.SHA, Content: data}
	status := http.StatusOK
	if body.SHA == "" && body.FromPath == "" {
		change.Operation, status = repository.FileCreate, http.StatusCreated
	}
	res, err := s.content.Changes().Files(q.r.Context(), q.repo, opts, []repository.FileChange{change})
	if err != nil {
		return err
	}
	q.json(status, s.toFileResponse(q.repo, res))
	return nil
}

// deleteFile answers DELETE R/contents/{filepath}: 200 FileDeleteResponse.
func (s repoChanges) deleteFile(q *request) error {
	var body deleteFileBody
	opts, err := decodeChange(q, &body)
	if err != nil {
		return err
	}
	res, err := s.content.Changes().Files(q.r.Context(), q.repo, opts, []repository.FileChange{
		{Operation: repository.FileDelete, Path: q.var_("filepath"), SHA: body.SHA},
	})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, fileDeleteResponseDTO{
		Commit: s.toFileCommit(q.repo, res.Commit), Verification: toVerification(res.Verification),
	})
	return nil
}

// changeFiles answers POST R/contents: every change in one commit, 201
// FilesResponse.
func (s repoChanges) changeFiles(q *request) error {
	var body changeFilesBody
	opts, err := decodeChange(q, &body)
	if err != nil {
		return err
	}
	changes := make([]repository.FileChange, len(body.Files))
	for i, f := range body.Files {
		changes[i] = repository.FileChange{Operation: repository.FileOperation(f.Operation), Path: f.Path,
			FromPath: f.FromPath, SHA: f.SHA}
		if f.Content != "" {
			if changes[i].Content, err = decodeChangeContent(f.Content); err != nil {
				return err
			}
			// The base64 text is not needed again: let it go before the
			// write, so a request holds its content about once.
			body.Files[i].Content = ""
		}
	}
	res, err := s.content.Changes().Files(q.r.Context(), q.repo, opts, changes)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toFilesResponse(q.repo, res))
	return nil
}

// applyDiffPatch answers POST R/diffpatch: the diff applied as one commit,
// 201 FileResponse without content (Gitea's handler answers 201 although its
// swagger says 200).
func (s repoChanges) applyDiffPatch(q *request) error {
	var body diffPatchBody
	opts, err := decodeChange(q, &body)
	if err != nil {
		return err
	}
	res, err := s.content.Changes().ApplyPatch(q.r.Context(), q.repo, opts, []byte(body.Content))
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, fileResponseDTO{
		Commit: s.toFileCommit(q.repo, res.Commit), Verification: toVerification(res.Verification),
	})
	return nil
}

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
func (s repoChanges) toFileCommit(a *repos.Access, c ports.GitCommitInfo) *fileCommitDTO {
	api := s.repoAPIURL(a.Repo)
	meta := func(kind, sha string) commitMetaDTO {
		return commitMetaDTO{URL: api + "/git/" + kind + "/" + url.PathEscape(sha), SHA: sha}
	}
	d := &fileCommitDTO{
		commitMetaDTO: meta("commits", c.ID),
		HTMLURL:       s.repoWebURL(a.Repo) + "/commit/" + url.PathEscape(c.ID),
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
func (s repoChanges) toFileResponse(a *repos.Access, res *content.ChangeResult) fileResponseDTO {
	d := fileResponseDTO{Commit: s.toFileCommit(a, res.Commit), Verification: toVerification(res.Verification)}
	if len(res.Entries) > 0 && res.Entries[0] != nil {
		c := s.toContents(a, res.Revision, *res.Entries[0], true)
		d.Content = &c
	}
	return d
}

// toFilesResponse renders a write of several files.
func (s repoChanges) toFilesResponse(a *repos.Access, res *content.ChangeResult) filesResponseDTO {
	d := filesResponseDTO{
		Files:  make([]*contentsDTO, len(res.Entries)),
		Commit: s.toFileCommit(a, res.Commit), Verification: toVerification(res.Verification),
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
