package libgit2_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/depothq/depot/adapters/libgit2"
	"github.com/depothq/depot/ports"
)

// treesBenchStorage is a Storage holding alice/bench, whose main branch has
// a small README.md.
func treesBenchStorage(b *testing.B) (*libgit2.Storage, ports.RepoPath) {
	b.Helper()
	s, err := libgit2.New(filepath.Join(b.TempDir(), "repos"), slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	p := ports.RepoPath{Owner: "alice", Name: "bench"}
	if err := s.Init(context.Background(), p, "main"); err != nil {
		b.Fatal(err)
	}
	if _, err := s.CommitFiles(context.Background(), p, ports.GitCommit{Branch: "main", Message: "init", Author: alice,
		Files: []ports.GitFile{{Path: "README.md", Content: []byte("# bench\n")}, {Path: "LICENSE", Content: []byte("MIT\n")}}}); err != nil {
		b.Fatal(err)
	}
	return s, p
}

// BenchmarkTreesReadPath is the Git side of GET R/contents/README.md: one
// open, the default branch resolved, the file read with its last commit.
func BenchmarkTreesReadPath(b *testing.B) {
	s, p := treesBenchStorage(b)
	q := ports.GitPathQuery{Path: "README.md", Content: true, MaxContent: 1 << 20, List: true, LastCommit: true}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.ReadPath(context.Background(), p, q); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkTreesOpenBlob is the Git side of GET R/raw/main/README.md.
func BenchmarkTreesOpenBlob(b *testing.B) {
	s, p := treesBenchStorage(b)
	q := ports.GitPathQuery{RefInPath: true, Path: "main/README.md"}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_, rd, err := s.OpenBlob(context.Background(), p, q)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, rd)
			_ = rd.Close()
		}
	})
}
