package repository

import (
	"errors"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/matryer/is"
)

const someID = "1234567890abcdef1234567890abcdef12345678"

func TestParseGitService(t *testing.T) {
	cases := []struct {
		in     string
		want   GitService
		writes bool
		ok     bool
	}{
		{"git-upload-pack", ServiceUploadPack, false, true},
		{"git-receive-pack", ServiceReceivePack, true, true},
		{"git-upload-archive", "", false, false},
		{"upload-pack", "", false, false},
		{"GIT-UPLOAD-PACK", "", false, false},
		{"", "", false, false},
		{"git-upload-pack\x00", "", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			s, err := ParseGitService(tc.in)
			is.Equal(err == nil, tc.ok)
			if !tc.ok {
				is.True(errors.Is(err, errs.ErrForbidden))
				is.True(!strings.Contains(err.Error(), "\x00")) // echoed safely
				return
			}
			is.Equal(s, tc.want)
			is.Equal(s.Writes(), tc.writes)
			is.True(!strings.HasPrefix(s.Command(), "git-"))
		})
	}
}

func TestValidGitProtocol(t *testing.T) {
	cases := []struct {
		in      string
		ok      bool
		version int
	}{
		{"version=2", true, 2},
		{"version=1", true, 1},
		{"version=2:object-format=sha256", true, 2},
		{"version=1:version=2", true, 2},
		{"object-format=sha1", true, 0},
		{"flag", true, 0},
		{"agent=git/2.39", false, 0},
		{"", false, 0},
		{"version=2:", false, 0},
		{":version=2", false, 0},
		{"version=2 ", false, 0},
		{"version=2\nGIT_DIR=/tmp", false, 0},
		{"-c=x", false, 0},
		{"version=$(id)", false, 0},
		{"version=2;ls", false, 0},
		{"version==2", false, 0},
		{"k=" + strings.Repeat("a", 300), false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			is.Equal(ValidGitProtocol(tc.in), tc.ok)
			if tc.ok {
				is.Equal(GitProtocolVersion(tc.in), tc.version)
			}
		})
	}
}

func TestParseRefChange(t *testing.T) {
	sha256ID := strings.Repeat("ab", 32)
	cases := []struct {
		in string
		ok bool
	}{
		{zeroID + " " + someID + " refs/heads/main", true},
		{someID + " " + zeroID + " refs/heads/a b", true}, // the ref is the rest of the line
		{strings.Repeat("0", 64) + " " + sha256ID + " refs/heads/main", true},
		{zeroID + " " + sha256ID + " refs/heads/main", false}, // mixed formats
		{zeroID + " " + someID, false},
		{zeroID + " " + someID + " ", false},
		{"x " + someID + " refs/heads/main", false},
		{zeroID + " " + strings.ToUpper(someID) + " refs/heads/main", false},
		{"", false},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			c, err := ParseRefChange(tc.in)
			is.Equal(err == nil, tc.ok)
			if err != nil {
				is.True(errors.Is(err, errs.ErrBadRequest))
				return
			}
			is.True(c.Ref != "")
		})
	}
}

func TestRefChangeKinds(t *testing.T) {
	cases := []struct {
		c                        RefChange
		create, del, branch, tag bool
		short                    string
	}{
		{RefChange{zeroID, someID, "refs/heads/main"}, true, false, true, false, "main"},
		{RefChange{someID, zeroID, "refs/heads/feature/x"}, false, true, true, false, "feature/x"},
		{RefChange{someID, someID, "refs/tags/v1"}, false, false, false, true, "v1"},
		{RefChange{zeroID, someID, "refs/pull/1/head"}, true, false, false, false, "refs/pull/1/head"},
	}
	for _, tc := range cases {
		t.Run(tc.c.Ref, func(t *testing.T) {
			is := is.New(t)
			is.Equal(tc.c.IsCreate(), tc.create)
			is.Equal(tc.c.IsDelete(), tc.del)
			is.Equal(tc.c.IsBranch(), tc.branch)
			is.Equal(tc.c.IsTag(), tc.tag)
			is.Equal(tc.c.ShortName(), tc.short)
		})
	}
}

func TestCheckPushedRef(t *testing.T) {
	cases := []struct {
		ref    string
		delete bool
		ok     bool
	}{
		{"refs/heads/main", false, true},
		{"refs/heads/feature/x", false, true},
		{"refs/tags/v1.0.0", false, true},
		{"refs/heads/-x", false, false},
		{"refs/tags/-x", false, false},
		{"refs/heads/a..b", false, false},
		{"refs/heads/HEAD", false, false},
		{"refs/heads/x.lock", false, false},
		{"refs/heads/a\x01b", false, false},
		{"refs/heads/", false, false},
		{"refs/pull/1/head", false, false},
		{"refs/for/main", false, false},
		{"refs/notes/commits", false, false},
		{"HEAD", false, false},
		{"refs/heads/-x", true, true}, // cleaning up a bad name is allowed
		{"refs/pull/1/head", true, false},
	}
	for _, tc := range cases {
		t.Run(tc.ref, func(t *testing.T) {
			is := is.New(t)
			c := RefChange{OldID: zeroID, NewID: someID, Ref: tc.ref}
			if tc.delete {
				c = RefChange{OldID: someID, NewID: zeroID, Ref: tc.ref}
			}
			err := CheckPushedRef(c)
			is.Equal(err == nil, tc.ok)
			if err != nil {
				is.True(errors.Is(err, errs.ErrForbidden))
				is.True(!strings.ContainsRune(err.Error(), 1)) // control characters escaped
			}
		})
	}
}

func TestCheckDefaultBranchKept(t *testing.T) {
	r := &Repository{DefaultBranch: "main"}
	del := func(ref string) RefChange { return RefChange{OldID: someID, NewID: zeroID, Ref: ref} }
	is := is.New(t)
	is.True(errors.Is(CheckDefaultBranchKept(r, del("refs/heads/main")), errs.ErrForbidden))
	is.NoErr(CheckDefaultBranchKept(r, del("refs/heads/other")))
	is.NoErr(CheckDefaultBranchKept(r, del("refs/tags/main")))
	is.NoErr(CheckDefaultBranchKept(r, RefChange{OldID: someID, NewID: someID, Ref: "refs/heads/main"}))
	r.Empty = true
	is.NoErr(CheckDefaultBranchKept(r, del("refs/heads/main")))
}

func TestDefaultBranchAfterFirstPush(t *testing.T) {
	create := func(ref string) RefChange { return RefChange{OldID: zeroID, NewID: someID, Ref: ref} }
	cases := []struct {
		name    string
		changes []RefChange
		want    string
		ok      bool
	}{
		{"current pushed", []RefChange{create("refs/heads/dev"), create("refs/heads/main")}, "main", true},
		{"first branch", []RefChange{create("refs/tags/v1"), create("refs/heads/dev"), create("refs/heads/x")}, "dev", true},
		{"tags only", []RefChange{create("refs/tags/v1")}, "", false},
		{"deletion only", []RefChange{{OldID: someID, NewID: zeroID, Ref: "refs/heads/main"}}, "", false},
		{"nothing", nil, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got, ok := DefaultBranchAfterFirstPush("main", tc.changes)
			is.Equal(ok, tc.ok)
			is.Equal(got, tc.want)
		})
	}
}
