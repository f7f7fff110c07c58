package http

import (
	"net/http"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/domain/repository"
)

// changeRoutes lists this group's rows of the route table (catalogue 4.5).
// The paths are the contents read routes' own, so that a wrong method on
// them answers 405 with every method allowed there.
func (s *kernel) changeRoutes() []route {
	return []route{
		{"POST", R + "/contents", scopes(catRepo), "T,RR(code),BW,NA", s.changeFiles},
		{"POST", R + "/contents/{filepath:.*}", scopes(catRepo), "T,RR(code),BW,NA", s.createFile},
		{"PUT", R + "/contents/{filepath:.*}", scopes(catRepo), "T,RR(code),BW,NA", s.updateFile},
		{"DELETE", R + "/contents/{filepath:.*}", scopes(catRepo), "T,RR(code),BW,NA", s.deleteFile},
		{"POST", R + "/diffpatch", scopes(catRepo), "T,RW(code),NA", s.applyDiffPatch},
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
func (s *kernel) createFile(q *request) error {
	var body createFileBody
	opts, err := decodeChange(q, &body)
	if err != nil {
		return err
	}
	data, err := decodeChangeContent(body.Content)
	if err != nil {
		return err
	}
	res, err := s.content.ChangeFiles(q.r.Context(), q.repo, opts, []repository.FileChange{
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
func (s *kernel) updateFile(q *request) error {
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
	res, err := s.content.ChangeFiles(q.r.Context(), q.repo, opts, []repository.FileChange{change})
	if err != nil {
		return err
	}
	q.json(status, s.toFileResponse(q.repo, res))
	return nil
}

// deleteFile answers DELETE R/contents/{filepath}: 200 FileDeleteResponse.
func (s *kernel) deleteFile(q *request) error {
	var body deleteFileBody
	opts, err := decodeChange(q, &body)
	if err != nil {
		return err
	}
	res, err := s.content.ChangeFiles(q.r.Context(), q.repo, opts, []repository.FileChange{
		{Operation: repository.FileDelete, Path: q.var_("filepath"), SHA: body.SHA},
	})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, fileDeleteResponseDTO{
		Commit: s.toFileCommit(q.repo, res.Commit), Verification: unsignedVerification(),
	})
	return nil
}

// changeFiles answers POST R/contents: every change in one commit, 201
// FilesResponse.
func (s *kernel) changeFiles(q *request) error {
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
	res, err := s.content.ChangeFiles(q.r.Context(), q.repo, opts, changes)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toFilesResponse(q.repo, res))
	return nil
}

// applyDiffPatch answers POST R/diffpatch: the diff applied as one commit,
// 201 FileResponse without content (Gitea's handler answers 201 although its
// swagger says 200).
func (s *kernel) applyDiffPatch(q *request) error {
	var body diffPatchBody
	opts, err := decodeChange(q, &body)
	if err != nil {
		return err
	}
	res, err := s.content.ApplyPatch(q.r.Context(), q.repo, opts, []byte(body.Content))
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, fileResponseDTO{
		Commit: s.toFileCommit(q.repo, res.Commit), Verification: unsignedVerification(),
	})
	return nil
}
