package http

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/ports"
)

// wiki serves a repository's wiki pages (catalogue 4.5 "Wiki").
type wiki struct{ *kernel }

// wikiRoutes are the rows of wiki. The whole group answers 404 unless the
// wiki unit is enabled and readable (Wiki), as Gitea's mustEnableWiki.
func (s *kernel) wikiRoutes() []route {
	h := wiki{s}
	return []route{
		{"GET", R + "/wiki/pages", scopes(catRepo), "Wiki", h.listWikiPages},
		{"GET", R + "/wiki/page/{pageName}", scopes(catRepo), "Wiki", h.getWikiPage},
		{"PATCH", R + "/wiki/page/{pageName}", scopes(catRepo), "Wiki,NA,T,RW(wiki)", h.editWikiPage},
		{"DELETE", R + "/wiki/page/{pageName}", scopes(catRepo), "Wiki,NA,T,RW(wiki)", h.deleteWikiPage},
		{"GET", R + "/wiki/revisions/{pageName}", scopes(catRepo), "Wiki", h.listWikiRevisions},
		{"POST", R + "/wiki/new", scopes(catRepo), "Wiki,T,NA,RW(wiki)", h.createWikiPage},
	}
}

// wikiCommitDTO is Gitea's WikiCommit (its committer key spelled "commiter").
type wikiCommitDTO struct {
	ID        string         `json:"sha"`
	Author    *commitUserDTO `json:"author"`
	Committer *commitUserDTO `json:"commiter"`
	Message   string         `json:"message"`
}

// wikiPageMetaDTO is Gitea's WikiPageMetaData.
type wikiPageMetaDTO struct {
	Title      string         `json:"title"`
	HTMLURL    string         `json:"html_url"`
	SubURL     string         `json:"sub_url"`
	LastCommit *wikiCommitDTO `json:"last_commit"`
}

// wikiPageDTO is Gitea's WikiPage.
type wikiPageDTO struct {
	wikiPageMetaDTO
	ContentBase64 string `json:"content_base64"`
	CommitCount   int64  `json:"commit_count"`
	Sidebar       string `json:"sidebar"`
	Footer        string `json:"footer"`
}

// wikiCommitListDTO is Gitea's WikiCommitList.
type wikiCommitListDTO struct {
	Commits []*wikiCommitDTO `json:"commits"`
	Count   int64            `json:"count"`
}

// wikiPageBody is Gitea's CreateWikiPageOptions.
type wikiPageBody struct {
	Title         string `json:"title"`
	ContentBase64 string `json:"content_base64"`
	Message       string `json:"message"`
}

func (b wikiPageBody) input() content.WikiPageInput {
	return content.WikiPageInput{Title: b.Title, ContentBase64: b.ContentBase64, Message: b.Message}
}

func toWikiCommit(c ports.GitCommitInfo) *wikiCommitDTO {
	return &wikiCommitDTO{ID: c.ID, Author: commitUser(c.Author), Committer: commitUser(c.Committer), Message: c.Message}
}

// toWikiPageMeta renders a page's metadata as Gitea's ToWikiPageMetaData.
func (h wiki) toWikiPageMeta(q *request, m content.WikiPageMeta) wikiPageMetaDTO {
	r := q.repo.Repo
	return wikiPageMetaDTO{
		Title:      m.Title,
		HTMLURL:    h.baseURL + "/" + url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name) + "/wiki/" + m.WebPath,
		SubURL:     m.WebPath,
		LastCommit: toWikiCommit(m.LastCommit),
	}
}

func (h wiki) toWikiPage(q *request, p content.WikiPage) wikiPageDTO {
	enc := base64.StdEncoding.EncodeToString
	return wikiPageDTO{wikiPageMetaDTO: h.toWikiPageMeta(q, p.WikiPageMeta), ContentBase64: enc(p.Content),
		CommitCount: p.CommitCount, Sidebar: enc(p.Sidebar), Footer: enc(p.Footer)}
}

// rawPageName is the page name segment as the URL spells it, still escaped:
// the wiki's names tell "%2F" and "+" from "/" and " " (Gitea's PathParamRaw).
func rawPageName(q *request) string {
	p := q.r.URL.EscapedPath()
	return p[strings.LastIndexByte(p, '/')+1:]
}

// listWikiPages answers GET R/wiki/pages.
func (h wiki) listWikiPages(q *request) error {
	opts, err := h.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := h.content.Wiki().List(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	out := make([]wikiPageMetaDTO, 0, len(list))
	for _, m := range list {
		out = append(out, h.toWikiPageMeta(q, m))
	}
	h.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, out)
	return nil
}

// getWikiPage answers GET R/wiki/page/{pageName}.
func (h wiki) getWikiPage(q *request) error {
	p, err := h.content.Wiki().Get(q.r.Context(), q.repo, rawPageName(q))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, h.toWikiPage(q, p))
	return nil
}

// listWikiRevisions answers GET R/wiki/revisions/{pageName}: 50 a page.
func (h wiki) listWikiRevisions(q *request) error {
	// As Gitea's FormInt, a page that is not a number is the first.
	page, _ := strconv.Atoi(q.r.URL.Query().Get("page"))
	list, total, err := h.content.Wiki().Revisions(q.r.Context(), q.repo, rawPageName(q), page)
	if err != nil {
		return err
	}
	out := wikiCommitListDTO{Commits: make([]*wikiCommitDTO, 0, len(list)), Count: total}
	for _, c := range list {
		out.Commits = append(out.Commits, toWikiCommit(c))
	}
	q.w.Header().Set("X-Total-Count", strconv.FormatInt(total, 10))
	q.json(http.StatusOK, out)
	return nil
}

// createWikiPage answers POST R/wiki/new with the page (201).
func (h wiki) createWikiPage(q *request) error {
	var b wikiPageBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	p, err := h.content.Wiki().Create(q.r.Context(), q.repo, b.input())
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, h.toWikiPage(q, p))
	return nil
}

// editWikiPage answers PATCH R/wiki/page/{pageName} with the page as it is now.
func (h wiki) editWikiPage(q *request) error {
	var b wikiPageBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	p, err := h.content.Wiki().Edit(q.r.Context(), q.repo, rawPageName(q), b.input())
	if err != nil {
		return err
	}
	q.json(http.StatusOK, h.toWikiPage(q, p))
	return nil
}

// deleteWikiPage answers DELETE R/wiki/page/{pageName} (204).
func (h wiki) deleteWikiPage(q *request) error {
	if err := h.content.Wiki().Delete(q.r.Context(), q.repo, rawPageName(q)); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}
