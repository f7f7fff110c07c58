package content

import (
	"context"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// GitBlobs are the use cases of the Git blobs route.
type GitBlobs struct{ *Service }

// GitBlobs returns the Git blob use cases.
func (s *Service) GitBlobs() GitBlobs { return GitBlobs{s} }

// Get reads the blob sha (a full id); its content is left out when it
// is larger than MaxBlobContent.
func (s GitBlobs) Get(ctx context.Context, a *repos.Access, sha string) (ports.GitBlob, error) {
	if sha == "" {
		return ports.GitBlob{}, errs.BadRequest("sha not provided")
	}
	if a.Repo.Empty {
		return ports.GitBlob{}, errs.NotFound("blob " + sha + " does not exist")
	}
	return s.git.Blob(ctx, pathOf(a.Repo), sha, MaxBlobContent)
}
