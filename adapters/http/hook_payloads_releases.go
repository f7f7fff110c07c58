package http

import (
	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/ports"
)

// Release renders v with the release routes' own renderer, so a payload's
// release is the API's record of it; its author shows as anybody sees it,
// and as Gitea's ghost when the account is gone.
func (h *HookPayloads) Release(v ports.HookRelease) any {
	publisher := v.Publisher
	if publisher == nil {
		publisher = issues.Ghost()
	}
	d := h.render.releaseDTOOf(auth.Caller{}, v.Repo,
		content.ReleaseView{Release: v.Release, Publisher: publisher, Assets: v.Assets})
	return &d
}
