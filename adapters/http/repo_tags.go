package http

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/ports"
)

// repoTags serves a repository's tags (catalogue 4.5).
type repoTags struct{ *kernel }

// tagRoutes are the rows of repoTags.
func (s *kernel) tagRoutes() []route {
	h := repoTags{s}
	return []route{
		{"GET", R + "/tags", scopes(catRepo), "RR(code)", h.listTags},
		{"POST", R + "/tags", scopes(catRepo), "T,RW(code),NA", h.createTag},
		{"GET", R + "/tags/{tag:.*}", scopes(catRepo), "RR(code)", h.getTag},
		{"DELETE", R + "/tags/{tag:.*}", scopes(catRepo), "T,RW(code),NA", h.deleteTag},
	}
}

// listTags answers GET R/tags: one page in Gitea's order, with paging headers.
func (s repoTags) listTags(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.content.Tags().List(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	out := make([]refTagDTO, 0, len(list))
	for _, t := range list {
		out = append(out, s.toTag(q.repo, t))
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// getTag answers GET R/tags/{tag}.
func (s repoTags) getTag(q *request) error {
	t, err := s.content.Tags().Get(q.r.Context(), q.repo, q.var_("tag"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toTag(q.repo, t))
	return nil
}

// createTag answers POST R/tags with the new tag (201).
func (s repoTags) createTag(q *request) error {
	var body refCreateTagBody
	if err := decodeJSON(q.r, &body); err != nil {
		return err
	}
	t, err := s.content.Tags().Create(q.r.Context(), q.repo, content.CreateTagInput{
		Name: body.TagName, Message: body.Message, Target: body.Target})
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toTag(q.repo, t))
	return nil
}

// deleteTag answers DELETE R/tags/{tag} (204).
func (s repoTags) deleteTag(q *request) error {
	if err := s.content.Tags().Delete(q.r.Context(), q.repo, q.var_("tag")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// refCreateTagBody is Gitea's CreateTagOption.
type refCreateTagBody struct {
	TagName string `json:"tag_name"`
	Message string `json:"message"`
	Target  string `json:"target"`
}

// refTagDTO is Gitea's Tag.
type refTagDTO struct {
	Name       string         `json:"name"`
	Message    string         `json:"message"`
	ID         string         `json:"id"`
	Commit     *commitMetaDTO `json:"commit"`
	ZipballURL string         `json:"zipball_url"`
	TarballURL string         `json:"tarball_url"`
}

// toTag renders a tag as Gitea's ToTag does. The commit URL names the
// tagged commit (Gitea's names the tag object, which is no commit).
func (s repoTags) toTag(a *repos.Access, t ports.GitTag) refTagDTO {
	html := s.repoWebURL(a.Repo)
	sha := t.CommitID
	if sha == "" {
		sha = t.ObjectID
	}
	return refTagDTO{
		Name: t.Name, Message: strings.TrimSpace(t.Message), ID: t.ID,
		Commit:     &commitMetaDTO{URL: s.repoAPIURL(a.Repo) + "/git/commits/" + sha, SHA: sha, Created: t.Tagger.When},
		ZipballURL: html + "/archive/" + url.PathEscape(t.Name+".zip"),
		TarballURL: html + "/archive/" + url.PathEscape(t.Name+".tar.gz"),
	}
}
