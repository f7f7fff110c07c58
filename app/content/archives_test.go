package content_test

import (
	"errors"
	"testing"

	"github.com/depothq/depot/app/content"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/matryer/is"
)

func TestArchiveSplitName(t *testing.T) {
	for _, tc := range []struct {
		name, ref string
		format    ports.ArchiveFormat
	}{
		{"main.zip", "main", ports.ArchiveZip},
		{"main.tar.gz", "main", ports.ArchiveTarGz},
		{"main.bundle", "main", ports.ArchiveBundle},
		{"release/1.0.tar.gz", "release/1.0", ports.ArchiveTarGz},
		{"v1.0.zip", "v1.0", ports.ArchiveZip},
		{"a.zip.tar.gz", "a.zip", ports.ArchiveTarGz},
		{".zip", "", ports.ArchiveZip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			ref, format, err := content.SplitArchiveName(tc.name)
			is.NoErr(err)
			is.Equal(ref, tc.ref)
			is.Equal(format, tc.format)
		})
	}
	for _, name := range []string{"main", "main.rar", "main.tar", "main.gz", "main.ZIP", ""} {
		if _, _, err := content.SplitArchiveName(name); !errors.Is(err, errs.ErrNotFound) {
			t.Errorf("%q: want not found, got %v", name, err)
		}
	}
}

func TestArchiveBallFormat(t *testing.T) {
	is := is.New(t)
	for ball, want := range map[string]ports.ArchiveFormat{
		"tarball": ports.ArchiveTarGz, "zipball": ports.ArchiveZip, "bundle": ports.ArchiveBundle,
	} {
		got, err := content.BallFormat(ball)
		is.NoErr(err)
		is.Equal(got, want)
	}
	_, err := content.BallFormat("rarball")
	is.True(errors.Is(err, errs.ErrNotFound))
}
