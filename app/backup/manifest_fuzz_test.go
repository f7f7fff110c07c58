package backup

import (
	"errors"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzParseManifest checks that any bytes either parse into a manifest
// that passes its own checks or are refused as a bad request.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(`{"format":1,"depot_version":"0.1.0","database":"sqlite","migration_level":"000053","created":"2026-11-29T09:00:00Z","repositories":3}`))
	f.Add([]byte(`{"format":2}`))
	f.Add([]byte(`{"format":1,"database":"postgres","migration_level":"../etc"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(data)
		if err != nil {
			if !errors.Is(err, errs.ErrBadRequest) {
				t.Fatalf("uncategorised error %v", err)
			}
			return
		}
		if m.Format != FormatVersion || !migrationName.MatchString(m.MigrationLevel) || m.Repositories < 0 {
			t.Fatalf("accepted a bad manifest %+v", m)
		}
		if _, err := ParseTrailer(data); err != nil && !errors.Is(err, errs.ErrBadRequest) {
			t.Fatalf("uncategorised trailer error %v", err)
		}
	})
}
