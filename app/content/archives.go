package content

import (
	"context"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Archives are the use cases of a repository's downloads: zip, tar.gz and
// bundle archives of a ref.
type Archives struct{ *Service }

// Archives returns the archive use cases.
func (s *Service) Archives() Archives { return Archives{s} }

// archiveSuffixes are the file extensions of the archive route, each with
// its format.
var archiveSuffixes = []struct {
	suffix string
	format ports.ArchiveFormat
}{
	{".zip", ports.ArchiveZip},
	{".tar.gz", ports.ArchiveTarGz},
	{".bundle", ports.ArchiveBundle},
}

// SplitArchiveName splits "<ref>.<extension>" (the archive route's last
// part, e.g. "release/1.0.tar.gz") into the ref and the format; an unknown
// extension is not found.
func SplitArchiveName(name string) (string, ports.ArchiveFormat, error) {
	for _, s := range archiveSuffixes {
		if ref, ok := strings.CutSuffix(name, s.suffix); ok {
			return ref, s.format, nil
		}
	}
	return "", "", errs.NotFound("unknown archive format: " + name)
}

// BallFormat maps the tarball, zipball and bundle routes to their formats.
func BallFormat(ballType string) (ports.ArchiveFormat, error) {
	switch ballType {
	case "tarball":
		return ports.ArchiveTarGz, nil
	case "zipball":
		return ports.ArchiveZip, nil
	case "bundle":
		return ports.ArchiveBundle, nil
	}
	return "", errs.NotFound("unknown archive type: " + ballType)
}

// Archive is a download whose ref has been resolved and that is ready to be
// streamed; the caller must Close it.
type Archive struct {
	ports.GitArchive
	// Format is what Stream writes.
	Format ports.ArchiveFormat
	// FileName is the name to save it under, as Gitea names it:
	// "<repo>-<ref with '/' as '-'>.<extension>".
	FileName string
}

// Open resolves ref and prepares the archive of its tree, every path
// under a folder named after the repository (as `git archive
// --prefix=<repo>/`). An empty repository has no archive.
func (s Archives) Open(ctx context.Context, a *repos.Access, ref string, format ports.ArchiveFormat) (*Archive, error) {
	if a.Repo.Empty {
		return nil, errs.NotFound("the repository is empty")
	}
	if ref == "" {
		return nil, errs.NotFound("no ref given for the archive")
	}
	ga, err := s.git.OpenArchive(ctx, pathOf(a.Repo), ref, format, a.Repo.Name+"/")
	if err != nil {
		return nil, err
	}
	name := a.Repo.Name + "-" + strings.ReplaceAll(ref, "/", "-") + "." + string(format)
	return &Archive{GitArchive: ga, Format: format, FileName: name}, nil
}
