package http

import (
	"net/http"
	"net/url"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/ports"
)

// gitRefs serves the Git data routes over references: the references,
// annotated tag objects and commits' notes (catalogue 4.5).
type gitRefs struct{ *kernel }

// gitRefRoutes are the rows of gitRefs.
func (s *kernel) gitRefRoutes() []route {
	h := gitRefs{s}
	return []route{
		{"GET", R + "/git/refs", scopes(catRepo), "RR(code)", h.listRefs},
		{"GET", R + "/git/refs/{ref:.*}", scopes(catRepo), "RR(code)", h.listRefs},
		{"GET", R + "/git/tags/{sha}", scopes(catRepo), "RR(code)", h.getAnnotatedTag},
		{"GET", R + "/git/notes/{sha}", scopes(catRepo), "RR(code)", h.getNote},
	}
}

// listRefs answers GET R/git/refs and R/git/refs/{ref}: every reference
// under the prefix; a single reference named exactly is answered as an
// object rather than a list, as Gitea does.
func (s gitRefs) listRefs(q *request) error {
	filter := q.var_("ref")
	refs, err := s.content.Refs().List(q.r.Context(), q.repo, filter)
	if err != nil {
		return err
	}
	if filter != "" && len(refs) == 1 && refs[0].Name == "refs/"+filter {
		q.json(http.StatusOK, s.toReference(q.repo, refs[0]))
		return nil
	}
	out := make([]refReferenceDTO, 0, len(refs))
	for _, r := range refs {
		out = append(out, s.toReference(q.repo, r))
	}
	q.json(http.StatusOK, out)
	return nil
}

// getAnnotatedTag answers GET R/git/tags/{sha}.
func (s gitRefs) getAnnotatedTag(q *request) error {
	t, err := s.content.Refs().AnnotatedTag(q.r.Context(), q.repo, q.var_("sha"))
	if err != nil {
		return err
	}
	out := s.toAnnotatedTag(q.repo, t)
	// Gitea's ToAnnotatedTag gives the verification of the commit the tag
	// names (ToVerification of the commit), checked as the commit routes
	// check it; a tag of no commit stays unsigned.
	if t.CommitID != "" {
		c, err := s.content.Commits().Get(q.r.Context(), q.repo, t.CommitID, content.CommitFieldOptions{Verification: true})
		if err != nil {
			return err
		}
		out.Verification = toVerification(c.Verification)
	}
	q.json(http.StatusOK, out)
	return nil
}

// getNote answers GET R/git/notes/{sha}; verification and files default to
// true, as in Gitea.
func (s gitRefs) getNote(q *request) error {
	verification, files := true, true
	for name, dst := range map[string]*bool{"verification": &verification, "files": &files} {
		b, err := queryBool(q, name)
		if err != nil {
			return err
		}
		if b != nil {
			*dst = *b
		}
	}
	n, err := s.content.Refs().Note(q.r.Context(), q.repo, q.var_("sha"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toNote(q.caller, q.repo, n, verification, files))
	return nil
}

// refTagObjectDTO is Gitea's AnnotatedTagObject.
type refTagObjectDTO struct {
	Type string `json:"type"`
	URL  string `json:"url"`
	SHA  string `json:"sha"`
}

// refAnnotatedTagDTO is Gitea's AnnotatedTag.
type refAnnotatedTagDTO struct {
	Tag          string           `json:"tag"`
	SHA          string           `json:"sha"`
	URL          string           `json:"url"`
	Message      string           `json:"message"`
	Tagger       *commitUserDTO   `json:"tagger"`
	Object       *refTagObjectDTO `json:"object"`
	Verification *verificationDTO `json:"verification"`
}

// refGitObjectDTO is Gitea's GitObject.
type refGitObjectDTO struct {
	Type string `json:"type"`
	SHA  string `json:"sha"`
	URL  string `json:"url"`
}

// refReferenceDTO is Gitea's Reference.
type refReferenceDTO struct {
	Ref    string           `json:"ref"`
	URL    string           `json:"url"`
	Object *refGitObjectDTO `json:"object"`
}

// refNoteDTO is Gitea's Note.
type refNoteDTO struct {
	Message string         `json:"message"`
	Commit  *histCommitDTO `json:"commit"`
}

// toAnnotatedTag renders a tag object as Gitea's ToAnnotatedTag does.
func (s gitRefs) toAnnotatedTag(a *repos.Access, t ports.GitTag) refAnnotatedTagDTO {
	api := s.repoAPIURL(a.Repo)
	return refAnnotatedTagDTO{
		Tag: t.Name, SHA: t.ID, URL: api + "/git/tags/" + t.ID, Message: t.Message,
		Tagger:       commitUser(t.Tagger),
		Object:       &refTagObjectDTO{Type: t.ObjectType, SHA: t.ObjectID, URL: api + "/git/" + t.ObjectType + "s/" + t.ObjectID},
		Verification: unsignedVerification(),
	}
}

// toReference renders a reference as Gitea's git refs routes do.
func (s gitRefs) toReference(a *repos.Access, r ports.GitRef) refReferenceDTO {
	api := s.repoAPIURL(a.Repo)
	return refReferenceDTO{
		Ref: r.Name, URL: api + "/git/" + escapePath(r.Name),
		Object: &refGitObjectDTO{Type: r.ObjectType, SHA: r.ObjectID,
			URL: api + "/git/" + url.PathEscape(r.ObjectType) + "s/" + r.ObjectID},
	}
}

// toNote renders a note with its notes commit as Gitea's GetNote does:
// the commit as Gitea's ToCommit renders it, with its line stats always,
// and its verification (unsigned: Depot checks no signature) and changed
// files when asked for.
func (s gitRefs) toNote(c auth.Caller, a *repos.Access, n content.NoteView, verification, files bool) refNoteDTO {
	v := content.CommitView{
		CommitDetail: ports.CommitDetail{
			GitCommitInfo: n.Commit,
			Stats:         &ports.CommitDiffStats{Additions: n.Additions, Deletions: n.Deletions},
		},
		AuthorUser: n.Author, CommitterUser: n.Committer,
	}
	if verification {
		v.Verification = &content.CommitVerification{Reason: commitReasonNotSigned}
	}
	if files {
		v.Files = make([]ports.CommitFileChange, len(n.Changes))
		for i, f := range n.Changes {
			v.Files[i] = ports.CommitFileChange{Path: f.Path, Status: ports.CommitFileStatus(f.Status)}
		}
	}
	commit := s.toHistCommit(c, a, v)
	return refNoteDTO{Message: n.Message, Commit: &commit}
}
