package blobs_test

import (
	"bytes"
	"context"
	"crypto/md5"  //nolint:gosec // the checksum the store publishes
	"crypto/sha1" //nolint:gosec // idem
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/blobs"
)

// TestPackageBlobsDigestsOfLargeFiles puts files of sizes around the
// store's 1 MiB read chunks (empty, one byte, a chunk less and more one
// byte, several chunks, read a byte at a time) and finds each digest equal
// to the standard library's over the same bytes, and the stored bytes
// equal to what was put.
func TestPackageBlobsDigestsOfLargeFiles(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	p, err := blobs.NewPackages(dir)
	is.NoErr(err)
	rnd := rand.New(rand.NewPCG(7, 9))
	for _, c := range []struct {
		size     int
		oneByOne bool
	}{{0, false}, {1, false}, {1<<20 - 1, false}, {1 << 20, false}, {1<<20 + 1, false}, {5<<20 + 123, false}, {70_000, true}} {
		data := make([]byte, c.size)
		for i := range data {
			data[i] = byte(rnd.Uint32())
		}
		var r io.Reader = bytes.NewReader(data)
		if c.oneByOne {
			r = iotest.OneByteReader(r)
		}
		b, release, err := p.Put(ctx, r, int64(c.size))
		is.NoErr(err)
		release()
		m5, s1, s256, s512 := md5.Sum(data), sha1.Sum(data), sha256.Sum256(data), sha512.Sum512(data) //nolint:gosec // checksums
		is.Equal(b.Size, int64(c.size))
		is.Equal(b.MD5, hex.EncodeToString(m5[:]))
		is.Equal(b.SHA1, hex.EncodeToString(s1[:]))
		is.Equal(b.SHA256, hex.EncodeToString(s256[:]))
		is.Equal(b.SHA512, hex.EncodeToString(s512[:]))
		stored, err := os.ReadFile(filepath.Join(dir, b.SHA256[0:2], b.SHA256[2:4], b.SHA256))
		is.NoErr(err)
		is.True(string(stored) == string(data))
	}
}

// TestPackageBlobsReadFailure gives up on an upload whose reader fails
// part-way, with that error, leaving nothing stored.
func TestPackageBlobsReadFailure(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	p, err := blobs.NewPackages(dir)
	is.NoErr(err)
	boom := errors.New("connection reset")
	r := io.MultiReader(bytes.NewReader(make([]byte, 3<<20)), iotest.ErrReader(boom))
	_, _, err = p.Put(context.Background(), r, 10<<20)
	is.True(errors.Is(err, boom))
	var files []string
	is.NoErr(filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	}))
	is.Equal(len(files), 0)
}
