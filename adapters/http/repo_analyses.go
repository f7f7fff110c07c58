package http

import "net/http"

// repoAnalyses serves what a repository's files say: languages, licences
// and editorconfig properties (catalogue 4.5).
type repoAnalyses struct{ *kernel }

// analysisRoutes are the rows of repoAnalyses.
func (s *kernel) analysisRoutes() []route {
	h := repoAnalyses{s}
	return []route{
		{"GET", R + "/languages", scopes(catRepo), "RR(code)", h.getLanguages},
		{"GET", R + "/licenses", scopes(catRepo), "RR(code)", h.getRepoLicenses},
		{"GET", R + "/editorconfig/{filename:.*}", scopes(catRepo), "RR(code)", h.getEditorconfig},
	}
}

// getLanguages answers GET R/languages: bytes per language on the default
// branch.
func (s repoAnalyses) getLanguages(q *request) error {
	langs, err := s.content.Analyses().Languages(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, langs)
	return nil
}

// getRepoLicenses answers GET R/licenses: the SPDX ids of the licence files
// at the root of the default branch.
func (s repoAnalyses) getRepoLicenses(q *request) error {
	ids, err := s.content.Analyses().Licenses(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, ids)
	return nil
}

// getEditorconfig answers GET R/editorconfig/{filename}?ref=: the
// editorconfig properties that apply to the file.
func (s repoAnalyses) getEditorconfig(q *request) error {
	props, err := s.content.Analyses().EditorConfig(q.r.Context(), q.repo, q.r.URL.Query().Get("ref"), q.var_("filename"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, props)
	return nil
}
