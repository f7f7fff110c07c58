package http

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"

	"github.com/depothq/depot/app/issues"
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
// the file's name), or, as Gitea accepts, the raw body named by "name".
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

// readReleaseUpload reads a multipart upload as the issue attachments do,
// or streams a raw body.
func readReleaseUpload(q *request) issues.UploadSource {
	if strings.HasPrefix(strings.ToLower(q.r.Header.Get("Content-Type")), "multipart/form-data") {
		return readUpload(q)
	}
	return func() (issues.Upload, error) {
		name := q.r.URL.Query().Get("name")
		if name == "" {
			return issues.Upload{}, errs.BadRequest("Could not determine name of attachment.")
		}
		return sniffedUpload(name, q.r.Body)
	}
}

// editAsset answers PATCH R/releases/{id}/assets/{attachment_id} with 201,
// Gitea's status for it.
func (s releaseAssets) editAsset(q *request) error {
	rid, id, err := releaseAndAssetID(q)
	if err != nil {
		return err
	}
	var b attachmentEditBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	a, err := s.content.ReleaseAssets().Rename(q.r.Context(), q.repo, rid, id, b.Name)
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

// toAssetDTO answers a as Gitea's Attachment; it downloads at the
// attachments' address.
func (s *kernel) toAssetDTO(a *release.Asset) attachmentDTO {
	return attachmentDTO{ID: a.ID, Name: a.Name, Size: a.Size, DownloadCount: a.DownloadCount,
		Created: a.Created.UTC(), UUID: a.UUID, DownloadURL: s.baseURL + "/attachments/" + a.UUID}
}

func (s *kernel) toAssetDTOs(list []*release.Asset) []attachmentDTO {
	out := make([]attachmentDTO, len(list))
	for i, a := range list {
		out[i] = s.toAssetDTO(a)
	}
	return out
}
