package http

import "net/http"

// repoCompare serves the comparison of two commits (catalogue 4.5).
type repoCompare struct{ *kernel }

// compareRoutes are the rows of repoCompare.
func (s *kernel) compareRoutes() []route {
	h := repoCompare{s}
	return []route{
		{"GET", R + "/compare/{basehead:.*}", scopes(catRepo), "RR(code)", h.compareCommits},
	}
}

// compareCommits answers GET R/compare/{base}...{head}.
func (s repoCompare) compareCommits(q *request) error {
	fields, err := commitFields(q)
	if err != nil {
		return err
	}
	cmp, err := s.content.Commits().Compare(q.r.Context(), q.repo, q.var_("basehead"), fields)
	if err != nil {
		return err
	}
	out := histCompareDTO{TotalCommits: cmp.TotalCommits, Commits: make([]histCommitDTO, len(cmp.Commits))}
	for i, c := range cmp.Commits {
		out.Commits[i] = s.toHistCommit(q.caller, q.repo, c)
	}
	if fields.Files {
		out.Files = histFiles(cmp.Files)
		if out.Files == nil {
			out.Files = []histFileDTO{}
		}
	}
	q.json(http.StatusOK, out)
	return nil
}

// histCompareDTO is Gitea's Compare, with the changed files.
type histCompareDTO struct {
	TotalCommits int             `json:"total_commits"`
	Commits      []histCommitDTO `json:"commits"`
	Files        []histFileDTO   `json:"files"`
}
