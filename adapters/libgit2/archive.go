package libgit2

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"
	"unicode/utf8"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// archiveBufferSize batches the small writes of the archive formats (512-byte
// tar headers, zip records) into large writes to the client.
const archiveBufferSize = 64 << 10

// archive is a resolved archive request holding its repository open.
type archive struct {
	repo     *git.Repository
	dir      string
	rev      ports.GitRevision
	format   ports.ArchiveFormat
	prefix   string
	streamed bool
}

var _ ports.GitArchive = (*archive)(nil)

// OpenArchive resolves ref and prepares its archive (ports.GitArchives).
func (s *Storage) OpenArchive(ctx context.Context, p ports.RepoPath, ref string, format ports.ArchiveFormat,
	prefix string) (ports.GitArchive, error) {
	switch format {
	case ports.ArchiveZip, ports.ArchiveTarGz, ports.ArchiveBundle:
	default:
		return nil, errs.NotFound("unknown archive format " + string(format))
	}
	if ref == "" {
		return nil, errNoRef(ref)
	}
	repo, dir, rev, err := s.openRevision(ctx, p, ref)
	if err != nil {
		return nil, err
	}
	return &archive{repo: repo, dir: dir, rev: rev, format: format, prefix: prefix}, nil
}

// Revision is the commit the archive holds.
func (a *archive) Revision() ports.GitRevision { return a.rev }

// Close frees the repository.
func (a *archive) Close() error {
	if a.repo != nil {
		a.repo.Free()
		a.repo = nil
	}
	return nil
}

// Stream writes the archive to w as it walks the commit's tree.
func (a *archive) Stream(ctx context.Context, w io.Writer) error {
	if a.repo == nil || a.streamed {
		return errors.New("libgit2: archive streamed twice or after Close")
	}
	a.streamed = true
	if a.format == ports.ArchiveBundle {
		return writeBundle(ctx, a.dir, a.rev.CommitID, w)
	}
	c, err := lookupCommit(a.repo, a.rev.CommitID)
	if err != nil {
		return err
	}
	defer c.Free()
	tree, err := c.Tree()
	if err != nil {
		return fmt.Errorf("libgit2: read tree of %s: %w", a.rev.CommitID, err)
	}
	defer tree.Free()
	odb, err := a.repo.Odb()
	if err != nil {
		return fmt.Errorf("libgit2: open object database: %w", err)
	}
	defer odb.Free()

	buf := bufio.NewWriterSize(w, archiveBufferSize)
	// git archive dates every entry with the commit's committer date.
	when := c.Committer().When
	var out archiveWriter
	if a.format == ports.ArchiveZip {
		out = newZipArchive(buf, when)
	} else {
		tgz := newTarGzArchive(buf, when)
		if err := tgz.globalComment(a.rev.CommitID); err != nil {
			return err
		}
		out = tgz
	}
	walker := &archiveWalker{ctx: ctx, repo: a.repo, dir: a.dir, commit: c, odb: odb, out: out}
	if a.prefix != "" {
		if err := out.dir(a.prefix); err != nil {
			return err
		}
	}
	if err := walker.walk(tree, a.prefix, ""); err != nil {
		return err
	}
	if err := out.close(); err != nil {
		return err
	}
	return buf.Flush()
}

// archiveWriter is one archive format: entries arrive in tree order, each
// directory before what it holds.
type archiveWriter interface {
	// dir adds a directory; path ends with "/".
	dir(path string) error
	// file adds a regular file, executable when mode says so.
	file(path string, mode git.Filemode, data []byte) error
	// symlink adds a symbolic link to target.
	symlink(path, target string) error
	// close ends the archive (but not the writer under it).
	close() error
}

// archiveWalker writes a tree depth first, one blob in memory at a time.
type archiveWalker struct {
	ctx  context.Context
	repo *git.Repository
	dir  string
	// commit is the archived commit, for export-subst.
	commit *git.Commit
	// substCommit is what its placeholders expand to, read on first use.
	substCommit *repository.SubstCommit
	odb         *git.Odb
	out         archiveWriter
	// attrs are the .gitattributes rules of the directories being walked:
	// paths marked export-ignore are left out, as git archive does.
	attrs repository.Attributes
	// pending are the directories entered but not written yet, outermost
	// first. As git archive does, a directory is written when the first
	// non-directory entry below it comes up (even one export-ignore then
	// leaves out), so directories holding nothing else are left out.
	pending []string
}

// walk writes tree's entries under base (empty or ending with "/"); rel is
// the tree's path in the repository (empty or ending with "/").
func (w *archiveWalker) walk(tree *git.Tree, base, rel string) error {
	mark := w.attrs.Len()
	defer w.attrs.Truncate(mark)
	if err := w.readAttributes(tree, rel); err != nil {
		return err
	}
	n := tree.EntryCount()
	for i := uint64(0); i < n; i++ {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		e := tree.EntryByIndex(i)
		if e == nil {
			return fmt.Errorf("libgit2: tree %s has no entry %d", tree.Id(), i)
		}
		path := base + e.Name
		if e.Filemode == git.FilemodeTree {
			if w.ignored(rel+e.Name, true) {
				continue
			}
			if err := w.subtree(e.Id, path+"/", rel+e.Name+"/"); err != nil {
				return err
			}
			continue
		}
		if err := w.flushDirs(); err != nil {
			return err
		}
		if w.ignored(rel+e.Name, e.Filemode == git.FilemodeCommit) {
			continue
		}
		var err error
		switch e.Filemode {
		case git.FilemodeCommit:
			// A submodule's commit is in another repository: git archive
			// writes an empty directory in its place.
			err = w.out.dir(path + "/")
		case git.FilemodeLink:
			err = w.blob(e.Id, func(data []byte) error { return w.out.symlink(path, string(data)) })
		case git.FilemodeBlob, git.FilemodeBlobExecutable:
			mode := e.Filemode
			subst := w.substitutes(rel + e.Name)
			err = w.blob(e.Id, func(data []byte) error {
				if subst {
					var err error
					if data, err = w.substituted(data); err != nil {
						return err
					}
				}
				return w.out.file(path, mode, data)
			})
		default:
			err = fmt.Errorf("libgit2: %s has unknown file mode %o", path, e.Filemode)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// ignored reports whether the attributes mark rel export-ignore.
func (w *archiveWalker) ignored(rel string, isDir bool) bool {
	return !w.attrs.Empty() && w.attrs.Lookup(rel, isDir, "export-ignore").IsTrue()
}

// substitutes reports whether the attributes mark the file rel
// export-subst: its $Format:…$ placeholders are expanded, as git archive
// does for regular files.
func (w *archiveWalker) substitutes(rel string) bool {
	return !w.attrs.Empty() && w.attrs.Lookup(rel, false, "export-subst").IsTrue()
}

// flushDirs writes the pending directories.
func (w *archiveWalker) flushDirs() error {
	for _, d := range w.pending {
		if err := w.out.dir(d); err != nil {
			return err
		}
	}
	w.pending = w.pending[:0]
	return nil
}

// readAttributes adds the rules of tree's .gitattributes file, if any.
func (w *archiveWalker) readAttributes(tree *git.Tree, rel string) error {
	e := tree.EntryByName(".gitattributes")
	if e == nil || (e.Filemode != git.FilemodeBlob && e.Filemode != git.FilemodeBlobExecutable) {
		return nil
	}
	return w.blob(e.Id, func(data []byte) error {
		w.attrs.Add(rel, data)
		return nil
	})
}

// subtree queues the directory entry then walks the tree under it; the
// entry is dropped if nothing below it was written.
func (w *archiveWalker) subtree(id *git.Oid, path, rel string) error {
	w.pending = append(w.pending, path)
	sub, err := w.repo.LookupTree(id)
	if err != nil {
		return fmt.Errorf("libgit2: read tree %s: %w", path, err)
	}
	defer sub.Free()
	if err := w.walk(sub, path, rel); err != nil {
		return err
	}
	if n := len(w.pending); n > 0 && w.pending[n-1] == path {
		w.pending = w.pending[:n-1]
	}
	return nil
}

// blob hands the blob's bytes to use without copying them out of libgit2;
// they are freed when use returns.
func (w *archiveWalker) blob(id *git.Oid, use func([]byte) error) error {
	obj, err := w.odb.Read(id)
	if err != nil {
		return fmt.Errorf("libgit2: read blob %s: %w", id, err)
	}
	defer obj.Free()
	return use(obj.Data())
}

// zipArchive writes a zip file the way git archive does: regular files
// without Unix attributes, executables and symbolic links with them,
// directories with the MS-DOS directory bit.
type zipArchive struct {
	zw   *zip.Writer
	when time.Time
	// fw is reused for every entry: a flate writer is costly to allocate.
	fw    *flate.Writer
	probe *compressProbe
}

// Unix and MS-DOS attributes as zip stores them.
const (
	zipCreatorUnix = 3 << 8
	zipMSDOSDir    = 0x10
	unixRegular    = 0o100000
	unixSymlink    = 0o120000
)

func newZipArchive(w io.Writer, when time.Time) *zipArchive {
	z := &zipArchive{zw: zip.NewWriter(w), when: when.UTC(), probe: newCompressProbe()}
	// Level 1: several times faster than the default, which matters more for
	// a download than the last few percent of size.
	z.fw, _ = flate.NewWriter(io.Discard, flate.BestSpeed)
	z.zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		z.fw.Reset(out)
		return z.fw, nil
	})
	return z
}

func (z *zipArchive) dir(path string) error {
	_, err := z.zw.CreateHeader(&zip.FileHeader{Name: path, Method: zip.Store, Modified: z.when,
		ExternalAttrs: zipMSDOSDir})
	return err
}

func (z *zipArchive) file(path string, mode git.Filemode, data []byte) error {
	h := &zip.FileHeader{Name: path, Method: zip.Deflate, Modified: z.when}
	if mode == git.FilemodeBlobExecutable {
		h.CreatorVersion = zipCreatorUnix
		h.ExternalAttrs = (unixRegular | 0o755) << 16
	}
	if z.probe.incompressible(data) {
		return z.writeStored(h, data)
	}
	return z.write(h, data)
}

// writeStored adds data uncompressed with its sizes and checksum in the
// local header (no data descriptor, which streaming readers refuse on
// stored entries), doing by hand what CreateHeader does for names and times.
func (z *zipArchive) writeStored(h *zip.FileHeader, data []byte) error {
	h.Method = zip.Store
	h.CRC32 = crc32.ChecksumIEEE(data)
	h.CompressedSize64, h.UncompressedSize64 = uint64(len(data)), uint64(len(data))
	h.CreatorVersion |= 20 // version 2.0, as CreateHeader sets
	h.ReaderVersion = 20
	if !zipASCIIName(h.Name) && utf8.ValidString(h.Name) {
		h.Flags |= 0x800 // the name is UTF-8
	}
	t := h.Modified
	h.ModifiedDate = uint16(t.Day() + int(t.Month())<<5 + (t.Year()-1980)<<9)
	h.ModifiedTime = uint16(t.Second()/2 + t.Minute()<<5 + t.Hour()<<11)
	// The extended timestamp (Info-ZIP "UT"): the exact modification time.
	var ut [9]byte
	binary.LittleEndian.PutUint16(ut[0:2], 0x5455)
	binary.LittleEndian.PutUint16(ut[2:4], 5)
	ut[4] = 1 // modification time present
	binary.LittleEndian.PutUint32(ut[5:9], uint32(t.Unix()))
	h.Extra = append(h.Extra, ut[:]...)
	fw, err := z.zw.CreateRaw(h)
	if err != nil {
		return err
	}
	_, err = fw.Write(data)
	return err
}

func zipASCIIName(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (z *zipArchive) symlink(path, target string) error {
	h := &zip.FileHeader{Name: path, Method: zip.Store, Modified: z.when, CreatorVersion: zipCreatorUnix,
		ExternalAttrs: (unixSymlink | 0o777) << 16}
	return z.write(h, []byte(target))
}

func (z *zipArchive) write(h *zip.FileHeader, data []byte) error {
	fw, err := z.zw.CreateHeader(h)
	if err != nil {
		return err
	}
	_, err = fw.Write(data)
	return err
}

func (z *zipArchive) close() error { return z.zw.Close() }

// tarGzArchive writes a gzipped tar file the way git archive does: owner
// root, modes 0664 and 0775 (git's default tar.umask 002), links 0777, and a
// global header carrying the commit id.
type tarGzArchive struct {
	gz    *gzipStream
	tw    *tar.Writer
	when  time.Time
	probe *compressProbe
}

func newTarGzArchive(w io.Writer, when time.Time) *tarGzArchive {
	gz := newGzipStream(w)
	return &tarGzArchive{gz: gz, tw: tar.NewWriter(gz), when: when, probe: newCompressProbe()}
}

// globalComment writes the pax global header git archive starts with, from
// which `git get-tar-commit-id` reads the commit.
func (t *tarGzArchive) globalComment(commitID string) error {
	return t.tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header",
		PAXRecords: map[string]string{"comment": commitID}})
}

func (t *tarGzArchive) header(h *tar.Header) error {
	h.ModTime = t.when
	h.Uname, h.Gname = "root", "root"
	return t.tw.WriteHeader(h)
}

func (t *tarGzArchive) dir(path string) error {
	return t.header(&tar.Header{Typeflag: tar.TypeDir, Name: path, Mode: 0o775})
}

func (t *tarGzArchive) file(path string, mode git.Filemode, data []byte) error {
	perm := int64(0o664)
	if mode == git.FilemodeBlobExecutable {
		perm = 0o775
	}
	if err := t.header(&tar.Header{Typeflag: tar.TypeReg, Name: path, Mode: perm, Size: int64(len(data))}); err != nil {
		return err
	}
	// The tar writer hands a file's bytes to the gzip stream in one write,
	// so this switch covers exactly the blob.
	t.gz.stored = t.probe.incompressible(data)
	_, err := t.tw.Write(data)
	t.gz.stored = false
	return err
}

func (t *tarGzArchive) symlink(path, target string) error {
	return t.header(&tar.Header{Typeflag: tar.TypeSymlink, Name: path, Linkname: target, Mode: 0o777})
}

func (t *tarGzArchive) close() error {
	if err := t.tw.Close(); err != nil {
		return err
	}
	return t.gz.Close()
}
