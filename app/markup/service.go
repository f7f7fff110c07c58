// Package markup renders what users write for the /markup and /markdown
// routes: it chooses what a mode links, where the document's links point,
// and which mentions and commits the reader may be shown.
package markup

import (
	"context"
	"errors"
	"io"
	"net/url"
	"path"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Service renders markup.
type Service struct {
	renderer ports.MarkupRenderer
	users    ports.UserStore
	git      ports.GitResolver
	appURL   string
}

// NewService builds the service.
func NewService(renderer ports.MarkupRenderer, stores ports.Stores, git ports.GitContent, settings site.Settings) *Service {
	return &Service{renderer: renderer, users: stores.Users, git: git, appURL: strings.TrimSuffix(settings.BaseURL, "/")}
}

// Modes of Gitea's markup routes.
const (
	ModeMarkdown = "markdown" // plain rendering: no references linked
	ModeGFM      = "gfm"      // mentions and owner/repo#N linked
	ModeComment  = "comment"  // also #N, !N and commit ids of the repository
	ModeWiki     = "wiki"     // a wiki page: [[Page]] links, links into the wiki
	ModeFile     = "file"     // a file of the repository, rendered by its type
)

// Request is what to render: Gitea's MarkupOption.
type Request struct {
	Mode string
	Text string
	// Context is the web path the document is shown at
	// ("/owner/repo/src/branch/main/docs"), which relative links follow.
	Context string
	// FilePath is the file's path in the repository, for ModeFile.
	FilePath string
	// Wiki is the deprecated way to ask for ModeWiki.
	Wiki bool
}

// MarkdownMode is the mode of POST /markdown: Gitea renders comment, gfm
// and wiki documents as asked and anything else as plain markdown.
func MarkdownMode(r Request) string {
	switch r.Mode {
	case ModeComment, ModeGFM, ModeWiki:
		return r.Mode
	}
	if r.Wiki {
		return ModeWiki
	}
	return ModeMarkdown
}

// maxOutputBytes bounds a rendered answer: past it the request is refused
// (413) rather than held in memory.
const maxOutputBytes = 16 << 20

// Render writes the request's document as sanitised HTML. a is the
// repository of the R/ routes, nil on the site-wide ones; references that
// need a repository (#N, commit ids) are linked only with one.
func (s *Service) Render(ctx context.Context, caller auth.Caller, a *repos.Access, r Request, w io.Writer) error {
	mode := r.Mode
	if mode == "" {
		mode = ModeMarkdown
	}
	if r.Wiki && mode == ModeGFM {
		mode = ModeWiki
	}
	doc := ports.MarkupDocument{Text: []byte(r.Text), AppURL: s.appURL, MaxOutput: maxOutputBytes}
	s.placeLinks(&doc, a, r)
	switch mode {
	case ModeMarkdown:
	case ModeGFM, ModeComment, ModeWiki, ModeFile:
		doc.Mentions, doc.FullIssueRefs = true, true
		doc.Resolve = resolver{s: s, viewer: users.Viewer(caller), access: a}
		doc.Wiki = mode == ModeWiki
		if a != nil && (mode == ModeComment || mode == ModeWiki) {
			doc.ShortIssueRefs = true
			doc.CommitRefs = a.Perm.CanRead(permission.UnitCode)
		}
		if mode == ModeFile {
			format, err := fileFormat(r.FilePath)
			if err != nil {
				return err
			}
			doc.Format = format
		}
	default:
		return errs.Invalid("Unknown mode: "+r.Mode, "Mode")
	}
	return s.renderer.Render(ctx, doc, w)
}

// RenderRaw renders a raw markdown body: plain rendering, no references.
func (s *Service) RenderRaw(ctx context.Context, text []byte, w io.Writer) error {
	return s.renderer.Render(ctx, ports.MarkupDocument{Text: text, AppURL: s.appURL, MaxOutput: maxOutputBytes}, w)
}

// placeLinks decides where the document's relative links point: the
// repository, ref and directory its Context names
// ("/owner/repo/src/branch/main/dir", with or without the site's URL), or
// the route's repository at its default branch.
func (s *Service) placeLinks(doc *ports.MarkupDocument, a *repos.Access, r Request) {
	dir := ""
	if r.FilePath != "" {
		if dir = path.Dir(path.Clean("/" + r.FilePath))[1:]; dir == "." {
			dir = ""
		}
	}
	ctxPath := strings.TrimPrefix(strings.TrimPrefix(r.Context, s.appURL), "/")
	fields := strings.SplitN(ctxPath, "/", 5)
	switch {
	case len(fields) >= 2 && fields[0] != "" && fields[1] != "":
		doc.RepoURL = s.appURL + "/" + url.PathEscape(fields[0]) + "/" + url.PathEscape(fields[1])
		if len(fields) == 5 && fields[2] == "src" && (fields[3] == "branch" || fields[3] == "commit" || fields[3] == "tag") {
			ref := strings.TrimSuffix(strings.TrimSuffix(fields[3]+"/"+fields[4], "/"), "/"+dir)
			doc.RefPath, doc.TreePath = ref, dir
		}
	case a != nil:
		doc.RepoURL = s.appURL + "/" + url.PathEscape(a.Repo.Owner.Name) + "/" + url.PathEscape(a.Repo.Name)
		if r.Mode == ModeFile && a.Repo.DefaultBranch != "" {
			doc.RefPath, doc.TreePath = "branch/"+escapePath(a.Repo.DefaultBranch), dir
		}
	}
}

// escapePath escapes each segment of a slash-separated path.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// markdownExts are the file names rendered as markdown (Gitea's default
// [markdown] FILE_EXTENSIONS).
var markdownExts = map[string]bool{".md": true, ".markdown": true, ".mdown": true, ".mkd": true, ".livemd": true}

// fileFormat is how a file of the repository renders, by its name.
func fileFormat(name string) (ports.MarkupFormat, error) {
	ext := strings.ToLower(path.Ext(name))
	switch {
	case markdownExts[ext]:
		return ports.MarkupMarkdown, nil
	case ext == ".txt" || ext == ".text":
		return ports.MarkupPlainText, nil
	case ext == "":
		return 0, errs.Invalid("Unsupported render type: the file has no extension", "FilePath")
	}
	return 0, errs.Invalid("Unsupported render type: "+ext, "FilePath")
}

// resolver answers the renderer's questions for one reader.
type resolver struct {
	s      *Service
	viewer user.Viewer
	access *repos.Access
}

// maxLookups bounds the names and commit ids one document may make the
// server look up; the rest stay text.
const maxLookups = 100

// Mentionable returns the accounts among names that the reader may see.
func (r resolver) Mentionable(ctx context.Context, names []string) (map[string]bool, error) {
	found, err := r.s.users.GetByNames(ctx, names[:min(len(names), maxLookups)])
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(found))
	for _, u := range found {
		if user.CanSee(r.viewer, u) {
			out[strings.ToLower(u.Name)] = true
		}
	}
	return out, nil
}

// Commits returns the full ids of the commit ids found in the route's
// repository; a branch or tag that happens to look like an id is not one.
func (r resolver) Commits(ctx context.Context, ids []string) (map[string]string, error) {
	out := map[string]string{}
	if r.access == nil {
		return out, nil
	}
	p := ports.RepoPath{Owner: r.access.Repo.Owner.Name, Name: r.access.Repo.Name}
	for _, id := range ids[:min(len(ids), maxLookups)] {
		rev, err := r.s.git.Resolve(ctx, p, id)
		if errors.Is(err, errs.ErrNotFound) || errors.Is(err, errs.ErrInvalid) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if rev.Kind == ports.RevisionCommit {
			out[id] = rev.CommitID
		}
	}
	return out, nil
}
