package http

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/domain/release"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// releases serves a repository's releases (catalogue 4.5, core reference 4.3).
type releases struct{ *kernel }

// releaseRoutes are the rows of releases; latest comes before {id} so the
// router does not read it as an id.
func (s *kernel) releaseRoutes() []route {
	h := releases{s}
	return []route{
		{"GET", R + "/releases", scopes(catRepo), "RR(releases)", h.listReleases},
		{"POST", R + "/releases", scopes(catRepo), "RR(releases),T,RW(releases)", h.createRelease},
		{"GET", R + "/releases/latest", scopes(catRepo), "RR(releases)", h.latestRelease},
		{"GET", R + "/releases/tags/{tag}", scopes(catRepo), "RR(releases)", h.getReleaseByTag},
		{"DELETE", R + "/releases/tags/{tag}", scopes(catRepo), "RR(releases),T,RW(releases)", h.deleteReleaseByTag},
		{"GET", R + "/releases/{id}", scopes(catRepo), "RR(releases)", h.getRelease},
		{"PATCH", R + "/releases/{id}", scopes(catRepo), "RR(releases),T,RW(releases)", h.editRelease},
		{"DELETE", R + "/releases/{id}", scopes(catRepo), "RR(releases),T,RW(releases)", h.deleteRelease},
	}
}

// listReleases answers GET R/releases: one page, newest first, filtered by
// draft, pre-release and q, with paging headers. Drafts are listed to
// writers only.
func (s releases) listReleases(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	var f release.Filter
	if f.Draft, err = queryBool(q, "draft"); err != nil {
		return err
	}
	if f.Prerelease, err = queryBool(q, "pre-release"); err != nil {
		return err
	}
	f.Keyword = q.r.URL.Query().Get("q")
	list, total, err := s.content.Releases().List(q.r.Context(), q.repo, f, opts)
	if err != nil {
		return err
	}
	out := make([]releaseDTO, 0, len(list))
	// A page's releases share a few publishers: each is rendered once.
	publishers := map[*user.User]userDTO{}
	for _, v := range list {
		pub, ok := publishers[v.Publisher]
		if !ok {
			pub = s.toUser(q.caller, v.Publisher)
			publishers[v.Publisher] = pub
		}
		out = append(out, s.releaseDTOWith(q.repo.Repo, v, pub))
	}
	s.setPaging(q.w, q.r, opts, total)
	s.writeReleases(q, http.StatusOK, out)
	return nil
}

// latestRelease answers GET R/releases/latest.
func (s releases) latestRelease(q *request) error {
	v, err := s.content.Releases().Latest(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toRelease(q, v))
	return nil
}

// getRelease answers GET R/releases/{id}.
func (s releases) getRelease(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	v, err := s.content.Releases().Get(q.r.Context(), q.repo, id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toRelease(q, v))
	return nil
}

// getReleaseByTag answers GET R/releases/tags/{tag}.
func (s releases) getReleaseByTag(q *request) error {
	v, err := s.content.Releases().GetByTag(q.r.Context(), q.repo, q.var_("tag"))
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toRelease(q, v))
	return nil
}

// createRelease answers POST R/releases with the release (201).
func (s releases) createRelease(q *request) error {
	var b createReleaseBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	v, err := s.content.Releases().Create(q.r.Context(), q.repo, content.CreateReleaseInput{
		TagName: b.TagName, Target: b.Target, Title: b.Title, Note: b.Note, IsDraft: b.IsDraft,
		IsPrerelease: b.IsPrerelease, HideArchiveLinks: b.HideArchiveLinks, TagMessage: b.TagMessage})
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toRelease(q, v))
	return nil
}

// editRelease answers PATCH R/releases/{id} with the release.
func (s releases) editRelease(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	var b editReleaseBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	v, err := s.content.Releases().Edit(q.r.Context(), q.repo, id, content.EditReleaseInput{
		TagName: b.TagName, Target: b.Target, Title: b.Title, Note: b.Note, IsDraft: b.IsDraft,
		IsPrerelease: b.IsPrerelease, HideArchiveLinks: b.HideArchiveLinks})
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toRelease(q, v))
	return nil
}

// deleteRelease answers DELETE R/releases/{id} (204); the tag stays.
func (s releases) deleteRelease(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	if err := s.content.Releases().Delete(q.r.Context(), q.repo, id); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// deleteReleaseByTag answers DELETE R/releases/tags/{tag} (204); the tag stays.
func (s releases) deleteReleaseByTag(q *request) error {
	if err := s.content.Releases().DeleteByTag(q.r.Context(), q.repo, q.var_("tag")); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// createReleaseBody is Gitea's CreateReleaseOption.
type createReleaseBody struct {
	TagName          string `json:"tag_name"`
	Target           string `json:"target_commitish"`
	Title            string `json:"name"`
	Note             string `json:"body"`
	IsDraft          bool   `json:"draft"`
	IsPrerelease     bool   `json:"prerelease"`
	HideArchiveLinks bool   `json:"hide_archive_links"`
	TagMessage       string `json:"tag_message"`
}

// editReleaseBody is Gitea's EditReleaseOption.
type editReleaseBody struct {
	TagName          string `json:"tag_name"`
	Target           string `json:"target_commitish"`
	Title            string `json:"name"`
	Note             string `json:"body"`
	IsDraft          *bool  `json:"draft"`
	IsPrerelease     *bool  `json:"prerelease"`
	HideArchiveLinks *bool  `json:"hide_archive_links"`
}

// releaseDTO is Gitea's Release.
type releaseDTO struct {
	ID               int64      `json:"id"`
	TagName          string     `json:"tag_name"`
	Target           string     `json:"target_commitish"`
	Title            string     `json:"name"`
	Note             string     `json:"body"`
	URL              string     `json:"url"`
	HTMLURL          string     `json:"html_url"`
	TarURL           string     `json:"tarball_url"`
	ZipURL           string     `json:"zipball_url"`
	HideArchiveLinks bool       `json:"hide_archive_links"`
	UploadURL        string     `json:"upload_url"`
	IsDraft          bool       `json:"draft"`
	IsPrerelease     bool       `json:"prerelease"`
	CreatedAt        time.Time  `json:"created_at"`
	PublishedAt      *time.Time `json:"published_at"`
	Publisher        userDTO    `json:"author"`
	Attachments      []assetDTO `json:"assets"`
}

// toRelease renders a release as Gitea's ToAPIRelease does: a draft has
// no publication time, and hidden archive links are empty.
func (s releases) toRelease(q *request, v content.ReleaseView) releaseDTO {
	return s.releaseDTOOf(q.caller, q.repo.Repo, v)
}

// releaseDTOOf renders v, a release of repo, for caller c (the route's
// caller, or nobody for a webhook payload).
func (s *kernel) releaseDTOOf(c auth.Caller, repo *repository.Repository, v content.ReleaseView) releaseDTO {
	return s.releaseDTOWith(repo, v, s.toUser(c, v.Publisher))
}

// releaseDTOWith renders v, a release of repo, with its publisher rendered
// already.
func (s *kernel) releaseDTOWith(repo *repository.Repository, v content.ReleaseView, publisher userDTO) releaseDTO {
	r := v.Release
	api := s.repoAPIURL(repo) + "/releases/" + itoa(r.ID)
	html := s.repoWebURL(repo)
	d := releaseDTO{
		ID: r.ID, TagName: r.TagName, Target: r.Target, Title: r.Title, Note: r.Note,
		URL: api, HTMLURL: html + "/releases/tag/" + escapeSegments(r.TagName), UploadURL: api + "/assets",
		HideArchiveLinks: r.HideArchiveLinks, IsDraft: r.IsDraft, IsPrerelease: r.IsPrerelease,
		CreatedAt: r.Created, Publisher: publisher, Attachments: s.toAssetDTOs(v.Assets),
	}
	if !r.HideArchiveLinks {
		d.TarURL = html + "/archive/" + escapeSegments(r.TagName) + ".tar.gz"
		d.ZipURL = html + "/archive/" + escapeSegments(r.TagName) + ".zip"
	}
	if !r.IsDraft && !r.Published.IsZero() {
		p := r.Published
		d.PublishedAt = &p
	}
	return d
}

// escapeSegments escapes each segment of a slash-separated name for a URL path.
func escapeSegments(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}
