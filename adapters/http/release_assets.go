package http

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/release"
)

// releaseAssets serves the files of a release (catalogue 4.5). Their
// download address is the issue attachments' (/attachments/{uuid}).
type releaseAssets struct{ *kernel }

// releaseAssetRoutes are the rows of releaseAssets.
func (s *kernel) releaseAssetRoutes() []route {
	h := releaseAssets{s}
	return []route{
		{"GET", R + "/releases/{id}/assets", scopes(catRepo), "RR(releases)", h.listAssets},
		{"POST", R + "/releases/{id}/assets", scopes(catRepo), "RR(releases),T,RW(releases)", h.createAsset},
		{"GET", R + "/releases/{id}/assets/{attachment_id}", scopes(catRepo), "RR(releases)", h.getAsset},
		{"PATCH", R + "/releases/{id}/assets/{attachment_id}", scopes(catRepo), "RR(releases),T,RW(releases)", h.editAsset},
		{"DELETE", R + "/releases/{id}/assets/{attachment_id}", scopes(catRepo), "RR(releases),T,RW(releases)", h.deleteAsset},
	}
}

// serveReleaseAsset answers GET /{owner}/{repo}/releases/download/{tag}/{name},
// Gitea's address of a release asset by its release's tag and its name,
// outside the API, as serveAttachment sends one by UUID.
func (s *kernel) serveReleaseAsset(w http.ResponseWriter, r *http.Request) {
	caller, err := s.downloadCaller(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	vars := mux.Vars(r)
	var parts [4]string
	for i, k := range []string{"owner", "repo", "tag", "name"} {
		if parts[i], err = url.PathUnescape(vars[k]); err != nil {
			s.writeError(w, r, errs.NotFound("attachment does not exist"))
			return
		}
	}
	as, f, err := s.content.ReleaseAssets().DownloadByName(r.Context(), caller, parts[0], parts[1], parts[2], parts[3])
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sendReleaseAsset(s, w, r, as, f)
}

// sendReleaseAsset sends an asset's bytes, or redirects to a link's
// address with Forgejo's status for it (303).
func sendReleaseAsset(s *kernel, w http.ResponseWriter, r *http.Request, as *release.Asset, f io.ReadSeekCloser) {
	if as.IsExternal() {
		http.Redirect(w, r, as.ExternalURL, http.StatusSeeOther)
		return
	}
	defer f.Close()
	s.sendAttachment(w, r, as.Name, as.SHA256, as.Created, f)
}

// releaseAndAssetID reads {id}, then {attachment_id}.
func releaseAndAssetID(q *request) (int64, int64, error) {
	rid, err := pathID(q, "id")
	if err != nil {
		return 0, 0, err
	}
	id, err := attachmentID(q)
	return rid, id, err
}

// listAssets answers GET R/releases/{id}/assets, oldest first.
func (s releaseAssets) listAssets(q *request) error {
	rid, err := pathID(q, "id")
	if err != nil {
		return err
	}
	list, err := s.content.ReleaseAssets().List(q.r.Context(), q.repo, rid)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toAssetDTOs(list))
	return nil
}

// getAsset answers GET R/releases/{id}/assets/{attachment_id}.
func (s releaseAssets) getAsset(q *request) error {
	rid, id, err := releaseAndAssetID(q)
	if err != nil {
		return err
	}
	a, err := s.content.ReleaseAssets().Get(q.r.Context(), q.repo, rid, id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toAssetDTO(a))
	return nil
}

// createAsset answers POST R/releases/{id}/assets with 201: a multipart
// form whose file field is "attachment" (named by the "name" parameter or
// the file's name), or, as Gitea accepts, the raw body named by "name";
// or, as Forgejo accepts, a multipart form with "external_url" instead of
// the file, a link asset.
func (s releaseAssets) createAsset(q *request) error {
	rid, err := pathID(q, "id")
	if err != nil {
		return err
	}
	a, err := s.content.ReleaseAssets().Attach(q.r.Context(), q.repo, rid, readReleaseUpload(q))
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toAssetDTO(a))
	return nil
}

// readReleaseUpload streams a raw body, or reads a multipart form up to
// its "attachment" file, as the issue attachments do. The "name" and
// "external_url" fields count when given as parameters or as form fields
// before the file. A link and a file together are a 400, as Forgejo
// answers them (a raw body is always a file).
func readReleaseUpload(q *request) content.AssetSource {
	return func() (content.AssetInput, error) {
		query := q.r.URL.Query()
		name, link := query.Get("name"), query.Get("external_url")
		if !strings.HasPrefix(strings.ToLower(q.r.Header.Get("Content-Type")), "multipart/form-data") {
			if link != "" {
				return content.AssetInput{}, errAssetBoth
			}
			if name == "" {
				return content.AssetInput{}, errs.BadRequest("Could not determine name of attachment.")
			}
			up, err := sniffedUpload(name, q.r.Body)
			return content.AssetInput{Upload: &up}, err
		}
		mr, err := q.r.MultipartReader()
		if err != nil {
			return content.AssetInput{}, errs.BadRequest(`request must be multipart/form-data with the file in field "attachment"`)
		}
		for {
			part, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				return content.AssetInput{ExternalURL: link, Name: name}, nil
			}
			if err != nil {
				return content.AssetInput{}, uploadError(err)
			}
			switch part.FormName() {
			case "attachment":
				if link != "" {
					return content.AssetInput{}, errAssetBoth
				}
				if name == "" {
					name = part.FileName()
				}
				up, err := sniffedUpload(name, part)
				return content.AssetInput{Upload: &up}, err
			case "external_url", "name":
				v, err := io.ReadAll(io.LimitReader(part, release.MaxExternalURLBytes+1))
				if err != nil {
					return content.AssetInput{}, uploadError(err)
				}
				if part.FormName() == "name" && name == "" {
					name = string(v)
				} else if part.FormName() == "external_url" && link == "" {
					link = string(v)
				}
			}
		}
	}
}

var errAssetBoth = errs.BadRequest("'attachment' and 'external_url' are mutually exclusive")

// releaseAssetEditBody is Gitea's EditAttachmentOptions with Forgejo's
// browser_download_url, a link asset's new address.
type releaseAssetEditBody struct {
	Name        string `json:"name"`
	DownloadURL string `json:"browser_download_url"`
}

// editAsset answers PATCH R/releases/{id}/assets/{attachment_id} with 201,
// Gitea's status for it.
func (s releaseAssets) editAsset(q *request) error {
	rid, id, err := releaseAndAssetID(q)
	if err != nil {
		return err
	}
	var b releaseAssetEditBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	a, err := s.content.ReleaseAssets().Edit(q.r.Context(), q.repo, rid, id,
		content.AssetEdit{Name: b.Name, ExternalURL: b.DownloadURL})
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toAssetDTO(a))
	return nil
}

// deleteAsset answers DELETE R/releases/{id}/assets/{attachment_id} with 204.
func (s releaseAssets) deleteAsset(q *request) error {
	rid, id, err := releaseAndAssetID(q)
	if err != nil {
		return err
	}
	return noContent(q, s.content.ReleaseAssets().Delete(q.r.Context(), q.repo, rid, id))
}

// assetDTO is Gitea's Attachment with Forgejo's type: "attachment" for an
// uploaded file, "external" for a link.
type assetDTO struct {
	attachmentDTO
	Type string `json:"type"`
}

// toAssetDTO answers a as Gitea's Attachment; a file downloads at the
// attachments' address, a link at its own, as Forgejo's API shows it.
func (s *kernel) toAssetDTO(a *release.Asset) assetDTO {
	d := assetDTO{attachmentDTO: attachmentDTO{ID: a.ID, Name: a.Name, Size: a.Size, DownloadCount: a.DownloadCount,
		Created: a.Created.UTC(), UUID: a.UUID, DownloadURL: s.baseURL + "/attachments/" + a.UUID}, Type: "attachment"}
	if a.IsExternal() {
		d.DownloadURL, d.Type = a.ExternalURL, "external"
	}
	return d
}

func (s *kernel) toAssetDTOs(list []*release.Asset) []assetDTO {
	out := make([]assetDTO, len(list))
	for i, a := range list {
		out[i] = s.toAssetDTO(a)
	}
	return out
}
