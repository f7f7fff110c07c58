package backup

import (
	"context"
	"time"

	"github.com/depothq/depot/ports"
)

// tempSettle is how long a temporary file must have been left unwritten
// before the doctor judges it: besides the sweeps' rule (a file a live
// writer holds, as uploads of attachments and package blobs are, is never
// touched), a writer beside a running server that holds nothing (a key, a
// hook script, a cache, a task log or an artifact block being written)
// writes its file within moments, so one left for an hour is a write cut
// off by a crash. A temporary folder is judged by what was last written
// under it and is held locked by its writer as long as it runs (a dump's
// copy of the SQLite database, for hours on a large site); the hour covers
// the moment between its making and its locking.
const tempSettle = time.Hour

// checkTempFiles finds the temporary files cut-off writes left under the
// data directory (each writer writes aside and renames into place), and
// the temporary folders (a killed dump's copy of the SQLite database):
// --fix removes them, each only if it is still the one found (not written
// since, nor held).
func (d *Doctor) checkTempFiles(ctx context.Context, o DoctorOptions, _ Progress) ([]Finding, error) {
	var out []Finding
	err := d.TempFiles.Stale(ctx, d.Now().Add(-tempSettle), blobBatch, func(files []ports.TempFile) error {
		return orphans(ctx, o, files, noneKept, d.TempFiles.Remove, &out, func(f ports.TempFile) Finding {
			what := "a temporary file a cut-off write left"
			if f.Folder {
				what = "a temporary folder a cut-off write left (no writer holds it)"
			}
			return Finding{Check: "temp-file", Subject: f.Name, Detail: what + ", last written " + f.Modified.UTC().Format(time.RFC3339)}
		})
	})
	return out, err
}

// noneKept is the referenced of files no row names: none is kept.
func noneKept(context.Context, []ports.TempFile) (map[ports.TempFile]bool, error) { return nil, nil }
