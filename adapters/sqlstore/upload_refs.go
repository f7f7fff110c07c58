package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/ports"
)

var uploadRefMapping = mapping{op: "upload reference"}

var _ ports.UploadRefStore = (*UploadRefStore)(nil)

// UploadRefStore is the SQL implementation of ports.UploadRefStore over
// the attachments and release_assets tables.
type UploadRefStore struct{ c conn }

// Referenced returns those of uuids that an attachment or asset row names.
func (s *UploadRefStore) Referenced(ctx context.Context, uuids []string) (map[string]bool, error) {
	out := make(map[string]bool, len(uuids))
	if len(uuids) == 0 {
		return out, nil
	}
	var found []string
	if err := s.c.r(ctx).NewRaw(`SELECT uuid FROM attachments WHERE uuid IN (?)
		UNION SELECT uuid FROM release_assets WHERE uuid IN (?)`, bun.In(uuids), bun.In(uuids)).
		Scan(ctx, &found); err != nil {
		return nil, uploadRefMapping.mapErr(err)
	}
	for _, u := range found {
		out[u] = true
	}
	return out, nil
}

// OfRepo returns the UUIDs of the repository's attachments and assets,
// reached through their issues and releases (whose repo_id is indexed).
func (s *UploadRefStore) OfRepo(ctx context.Context, repoID int64) ([]string, error) {
	var found []string
	if err := s.c.r(ctx).NewRaw(`SELECT a.uuid FROM attachments a JOIN issues i ON i.id = a.issue_id WHERE i.repo_id = ?
		UNION ALL SELECT ra.uuid FROM release_assets ra JOIN releases r ON r.id = ra.release_id WHERE r.repo_id = ?`,
		repoID, repoID).Scan(ctx, &found); err != nil {
		return nil, uploadRefMapping.mapErr(err)
	}
	return found, nil
}

// OfIssue returns the UUIDs of the attachments of the issue and its comments.
func (s *UploadRefStore) OfIssue(ctx context.Context, issueID int64) ([]string, error) {
	var found []string
	if err := s.c.r(ctx).NewRaw(`SELECT uuid FROM attachments WHERE issue_id = ?`, issueID).
		Scan(ctx, &found); err != nil {
		return nil, uploadRefMapping.mapErr(err)
	}
	return found, nil
}
