package ports

import "context"

// UploadRefStore answers which stored uploads rows still hold. Issue and
// comment attachments and release assets keep their bytes in one
// AttachmentBlobs under their UUID; a blob that no row names is an orphan.
type UploadRefStore interface {
	// Referenced returns those of uuids that an attachment or a release
	// asset row names.
	Referenced(ctx context.Context, uuids []string) (map[string]bool, error)
	// OfRepo returns the UUIDs of every attachment (of its issues and
	// comments) and release asset of the repository.
	OfRepo(ctx context.Context, repoID int64) ([]string, error)
	// OfIssue returns the UUIDs of the attachments of the issue and of
	// all its comments, whatever their type.
	OfIssue(ctx context.Context, issueID int64) ([]string, error)
}
