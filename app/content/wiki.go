package content

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Wiki holds the use cases of a repository's wiki: its pages, listed, read
// with their sidebar and footer, their revisions, and written as commits of
// the wiki repository. The route's access codes have checked that the wiki
// unit is enabled and readable, and writable for writes.
type Wiki struct{ *Service }

// Wiki returns the wiki use cases.
func (s *Service) Wiki() Wiki { return Wiki{s} }

// wikiMaxContent is the largest page whose content a read returns (Gitea's
// API.DefaultMaxBlobSize); a larger page answers with an empty content.
const wikiMaxContent = 10 << 20

// wikiRevisionsPage is how many revisions one page of the listing holds
// (Gitea's git.CommitsRangeSize).
const wikiRevisionsPage = 50

// WikiPageMeta is a page as a listing shows it.
type WikiPageMeta struct {
	// WebPath is the page's name in URLs (the API's sub_url).
	WebPath    string
	Title      string
	LastCommit ports.GitCommitInfo
}

// WikiPage is a page with its content, the number of commits that changed
// it, and the wiki's sidebar and footer (nil when absent).
type WikiPage struct {
	WikiPageMeta
	Content         []byte
	CommitCount     int64
	Sidebar, Footer []byte
}

// WikiPageInput is Gitea's CreateWikiPageOptions.
type WikiPageInput struct {
	Title, ContentBase64, Message string
}

// List returns one page of the wiki's pages in file order with the total of
// files at its root, as Gitea counts them.
func (w Wiki) List(ctx context.Context, a *repos.Access, opts ports.ListOptions) ([]WikiPageMeta, int64, error) {
	p := pathOf(a.Repo)
	entries, err := w.git.WikiEntries(ctx, p, "")
	if err != nil {
		return nil, 0, err
	}
	skip := (opts.Page - 1) * opts.Limit
	out := make([]WikiPageMeta, 0, min(opts.Limit, len(entries)))
	for i, e := range entries {
		if i < skip || i >= skip+opts.Limit || !e.Regular {
			continue
		}
		web, ok := repository.WikiFileToWebPath(e.Name)
		if !ok {
			continue
		}
		last, _, err := w.fileHistory(ctx, p, e.Name, false)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, WikiPageMeta{WebPath: web, Title: repository.WikiWebPathToTitle(web), LastCommit: last})
	}
	return out, int64(len(entries)), nil
}

// fileHistory returns the last commit that changed file and, when asked,
// how many did.
func (w Wiki) fileHistory(ctx context.Context, p ports.RepoPath, file string, count bool) (ports.GitCommitInfo, int64, error) {
	list, total, err := w.git.ListCommits(ctx, ports.WikiRepoPath(p), ports.CommitListQuery{Path: file, SkipTotal: !count},
		ports.ListOptions{Page: 1, Limit: 1})
	if err != nil {
		return ports.GitCommitInfo{}, 0, err
	}
	if len(list) == 0 {
		return ports.GitCommitInfo{}, 0, errs.NotFound("wiki page does not exist")
	}
	return list[0].GitCommitInfo, total, nil
}

// Get returns the page a URL names (its raw, still escaped path segment).
func (w Wiki) Get(ctx context.Context, a *repos.Access, rawName string) (WikiPage, error) {
	return w.page(ctx, a, repository.WikiWebPathFromRequest(rawName))
}

// page reads the page at web path web.
func (w Wiki) page(ctx context.Context, a *repos.Access, web string) (WikiPage, error) {
	p := pathOf(a.Repo)
	file := repository.WikiWebPathToFile(web)
	if !repository.WikiFileSafe(file) {
		return WikiPage{}, errs.NotFound("wiki page does not exist")
	}
	content, _, err := w.git.WikiFile(ctx, p, "", file, wikiMaxContent)
	if err != nil {
		return WikiPage{}, err
	}
	out := WikiPage{WikiPageMeta: WikiPageMeta{WebPath: web, Title: repository.WikiWebPathToTitle(web)}, Content: content}
	for _, extra := range []struct {
		name string
		dst  *[]byte
	}{{repository.WikiSidebar, &out.Sidebar}, {repository.WikiFooter, &out.Footer}} {
		b, _, err := w.git.WikiFile(ctx, p, "", repository.WikiWebPathToFile(extra.name), wikiMaxContent)
		if err != nil && !errors.Is(err, errs.ErrNotFound) {
			return WikiPage{}, err
		}
		*extra.dst = b
	}
	if out.LastCommit, out.CommitCount, err = w.fileHistory(ctx, p, file, true); err != nil {
		return WikiPage{}, err
	}
	return out, nil
}

// Revisions returns one page (of 50) of the commits that changed the page a
// URL names, newest first, and how many there are.
func (w Wiki) Revisions(ctx context.Context, a *repos.Access, rawName string, page int) ([]ports.GitCommitInfo, int64, error) {
	web := repository.WikiWebPathFromRequest(rawName)
	if web == "" || web == "." {
		web = repository.WikiHome
	}
	p := pathOf(a.Repo)
	file := repository.WikiWebPathToFile(web)
	if !repository.WikiFileSafe(file) {
		return nil, 0, errs.NotFound("wiki page does not exist")
	}
	if _, _, err := w.git.WikiFile(ctx, p, "", file, 0); err != nil {
		return nil, 0, err
	}
	list, total, err := w.git.ListCommits(ctx, ports.WikiRepoPath(p), ports.CommitListQuery{Path: file},
		ports.ListOptions{Page: max(page, 1), Limit: wikiRevisionsPage})
	if err != nil {
		return nil, 0, err
	}
	out := make([]ports.GitCommitInfo, len(list))
	for i, c := range list {
		out[i] = c.GitCommitInfo
	}
	return out, total, nil
}

// decodeWikiContent decodes a page's base64 content (400 when malformed, as Gitea).
func decodeWikiContent(s string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, errs.BadRequest("invalid base64 encoding of content")
	}
	return b, nil
}

// The wiki webhook's actions (Gitea's HookWikiAction).
const (
	wikiCreated = "created"
	wikiEdited  = "edited"
	wikiDeleted = "deleted"
)

// write commits one change of the wiki as the caller, then queues the wiki
// event of action for page (its web path) in a transaction.
func (w Wiki) write(ctx context.Context, a *repos.Access, ww ports.WikiWrite, action, page string) error {
	id := w.gitIdentity(a.Caller.User)
	now := w.clock.Now()
	sig := ports.GitSignature{Name: id.Name, Email: id.Email, When: now}
	ww.Branch, ww.Author, ww.Committer = repository.DefaultBranch, sig, sig
	if _, err := w.git.WriteWiki(ctx, pathOf(a.Repo), ww); err != nil {
		return err
	}
	ev := ports.WikiEvent{Repo: a.Repo, SenderID: a.Caller.UserID(), Action: action, Page: page}
	if action != wikiDeleted {
		ev.Comment = ww.Message
	}
	return w.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return w.events.WikiChanged(ctx, tx, ev)
	})
}

// Create adds a page (201 with it); an existing page or a reserved name is
// refused with 400, as Gitea does.
func (w Wiki) Create(ctx context.Context, a *repos.Access, in WikiPageInput) (WikiPage, error) {
	if strings.TrimSpace(in.Title) == "" {
		return WikiPage{}, errs.BadRequest("emptyTitle")
	}
	web := repository.WikiTitleToWebPath(in.Title)
	if err := repository.CheckWikiWebPath(web); err != nil {
		return WikiPage{}, err
	}
	content, err := decodeWikiContent(in.ContentBase64)
	if err != nil {
		return WikiPage{}, err
	}
	msg := in.Message
	if msg == "" {
		msg = fmt.Sprintf("Add '%s'", in.Title)
	}
	err = w.write(ctx, a, ports.WikiWrite{Message: msg, Put: repository.WikiWebPathToFile(web), Content: content, Create: true},
		wikiCreated, web)
	if errors.Is(err, errs.ErrConflict) {
		return WikiPage{}, errs.BadRequest("wiki page already exists")
	}
	if err != nil {
		return WikiPage{}, err
	}
	return w.page(ctx, a, web)
}

// Edit replaces the content of the page a URL names and, when in.Title
// names another page, renames it (replacing a page of that name, as Gitea).
// A page that does not exist is created, as Gitea does.
func (w Wiki) Edit(ctx context.Context, a *repos.Access, rawName string, in WikiPageInput) (WikiPage, error) {
	oldWeb := repository.WikiWebPathFromRequest(rawName)
	newWeb := oldWeb
	if !(strings.TrimSpace(in.Title) == "") {
		newWeb = repository.WikiTitleToWebPath(in.Title)
	}
	if err := repository.CheckWikiWebPath(newWeb); err != nil {
		return WikiPage{}, err
	}
	oldFile, newFile := repository.WikiWebPathToFile(oldWeb), repository.WikiWebPathToFile(newWeb)
	if !repository.WikiFileSafe(oldFile) {
		return WikiPage{}, errs.NotFound("wiki page does not exist")
	}
	content, err := decodeWikiContent(in.ContentBase64)
	if err != nil {
		return WikiPage{}, err
	}
	msg := in.Message
	if msg == "" {
		msg = fmt.Sprintf("Update '%s'", newWeb)
	}
	if err := w.write(ctx, a, ports.WikiWrite{Message: msg, Put: newFile, Content: content, Remove: oldFile},
		wikiEdited, newWeb); err != nil {
		return WikiPage{}, err
	}
	return w.page(ctx, a, newWeb)
}

// Delete removes the page a URL names (404 when there is none).
func (w Wiki) Delete(ctx context.Context, a *repos.Access, rawName string) error {
	web := repository.WikiWebPathFromRequest(rawName)
	file := repository.WikiWebPathToFile(web)
	if !repository.WikiFileSafe(file) {
		return errs.NotFound("wiki page does not exist")
	}
	return w.write(ctx, a, ports.WikiWrite{Message: fmt.Sprintf("Delete page '%s'", web), Remove: file}, wikiDeleted, web)
}
