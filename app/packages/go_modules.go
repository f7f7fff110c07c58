package packages

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/user"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// goModMeta is what a Go module version keeps: its go.mod, served as
// …/@v/{version}.mod.
type goModMeta struct {
	GoMod string `json:"go_mod"`
}

// GoModule is an uploaded module version.
type GoModule struct {
	Path, Version string
}

// errGoZip is the answer to a body that is no module zip.
var errGoZip = errs.BadRequest("package has invalid structure")

// PublishGoModule stores a module zip as Gitea's Go proxy takes one: the
// module path and version are read from the zip's file names, checked as
// the go command checks them (path, canonical version, major version
// suffix), and the zip's files as the go command's zip rules demand
// (golang.org/x/mod/zip); its go.mod is kept, or "module <path>" when it
// has none. 400 for what is not a valid module zip, 409 for a version
// that exists, 413 over the size limit.
func (s *Service) PublishGoModule(ctx context.Context, owner, creator *user.User, body io.Reader) (GoModule, error) {
	blob, release, err := s.blobs.Put(ctx, body, min(s.maxBytes, modzip.MaxZipFile))
	if err != nil {
		return GoModule{}, err
	}
	defer release()
	m, gomod, err := s.readGoZip(ctx, blob)
	if err != nil {
		release()
		return GoModule{}, errors.Join(err, s.dropBlobs(ctx, []string{blob.SHA256}))
	}
	raw, err := json.Marshal(goModMeta{GoMod: gomod})
	if err != nil {
		return GoModule{}, err
	}
	_, err = s.record(ctx, Upload{Owner: owner, Creator: creator, Type: packages.TypeGo, Name: m.Path,
		Version: m.Version, Filename: m.Version + ".zip", Metadata: string(raw), NewVersion: true}, blob)
	if err != nil {
		return GoModule{}, err
	}
	return GoModule{Path: m.Path, Version: m.Version}, nil
}

// readGoZip checks the stored zip blob and returns its module and go.mod.
func (s *Service) readGoZip(ctx context.Context, blob packages.Blob) (module.Version, string, error) {
	r, err := s.blobs.Open(ctx, blob.SHA256)
	if err != nil {
		return module.Version{}, "", err
	}
	defer r.Close()
	zr, err := zip.NewReader(&seekReaderAt{r: r}, blob.Size)
	if err != nil {
		return module.Version{}, "", errGoZip
	}
	var m module.Version
	var files []modzip.File
	var gomod *zip.File
	for _, f := range zr.File {
		p, v, name, ok := packages.GoZipEntry(f.Name)
		if !ok {
			return module.Version{}, "", errGoZip
		}
		if m.Path == "" {
			m = module.Version{Path: p, Version: v}
			if err := packages.CheckGoModule(p, v); err != nil {
				return module.Version{}, "", err
			}
		}
		if p != m.Path || v != m.Version {
			return module.Version{}, "", errs.BadRequest("package has invalid structure: files of more than one module")
		}
		if f.Mode().IsDir() {
			continue
		}
		if name == "go.mod" {
			gomod = f
		}
		files = append(files, zipModFile{f: f, path: name})
	}
	if m.Path == "" {
		return module.Version{}, "", errGoZip
	}
	checked, err := modzip.CheckFiles(files)
	if err == nil {
		err = checked.Err()
	}
	if err == nil && len(checked.Omitted) > 0 {
		err = errors.New(checked.Omitted[0].Path + ": " + checked.Omitted[0].Err.Error())
	}
	if err != nil {
		return module.Version{}, "", errs.BadRequest("invalid module zip: " + err.Error())
	}
	if gomod == nil {
		return m, "module " + m.Path + "\n", nil
	}
	rc, err := gomod.Open()
	if err != nil {
		return module.Version{}, "", errGoZip
	}
	defer rc.Close()
	text, err := io.ReadAll(io.LimitReader(rc, modzip.MaxGoMod+1))
	if err != nil || len(text) > modzip.MaxGoMod {
		return module.Version{}, "", errs.BadRequest("invalid module zip: go.mod is unreadable or too large")
	}
	return m, string(text), nil
}

// zipModFile is a file of an uploaded zip as x/mod/zip checks it.
type zipModFile struct {
	f    *zip.File
	path string
}

func (z zipModFile) Path() string                 { return z.path }
func (z zipModFile) Lstat() (os.FileInfo, error)  { return z.f.FileInfo(), nil }
func (z zipModFile) Open() (io.ReadCloser, error) { return z.f.Open() }

// seekReaderAt reads at offsets from a ReadSeeker, one read at a time.
type seekReaderAt struct {
	mu sync.Mutex
	r  io.ReadSeeker
}

func (s *seekReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if ra, ok := s.r.(io.ReaderAt); ok {
		return ra.ReadAt(p, off)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.r.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	return io.ReadFull(s.r, p)
}

// GoVersions lists a module's versions, oldest first (…/@v/list).
func (s *Service) GoVersions(ctx context.Context, owner *user.User, path string) ([]*packages.Version, error) {
	p, err := s.pkg(ctx, owner, string(packages.TypeGo), path)
	if err != nil {
		return nil, err
	}
	vs, err := s.stores.Packages.AllVersions(ctx, p.ID)
	if err == nil && len(vs) == 0 {
		return nil, errNoPackage
	}
	return vs, err
}

// GoVersion finds a module version; "latest" is the newest uploaded.
func (s *Service) GoVersion(ctx context.Context, owner *user.User, path, version string) (View, error) {
	if version == "latest" {
		version = ""
	}
	return s.Get(ctx, owner, string(packages.TypeGo), path, version)
}

// GoMod is the go.mod of a module version.
func (s *Service) GoMod(ctx context.Context, owner *user.User, path, version string) (string, error) {
	v, err := s.GoVersion(ctx, owner, path, version)
	if err != nil {
		return "", err
	}
	var meta goModMeta
	if err := json.Unmarshal([]byte(v.Version.Metadata), &meta); err != nil || meta.GoMod == "" {
		return "module " + v.Package.Name + "\n", nil
	}
	return meta.GoMod, nil
}

// OpenGoZip opens a module version's zip.
func (s *Service) OpenGoZip(ctx context.Context, owner *user.User, path, version string) (*packages.File, io.ReadSeekCloser, error) {
	v, err := s.GoVersion(ctx, owner, path, version)
	if err != nil {
		return nil, nil, err
	}
	return s.Open(ctx, owner, packages.TypeGo, v.Package.Name, v.Version.Version, v.Version.Version+".zip")
}
