package repository

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

func FuzzParseRefChange(f *testing.F) {
	zero, id := strings.Repeat("0", 40), strings.Repeat("ab", 20)
	for _, s := range []string{
		zero + " " + id + " refs/heads/main",
		id + " " + zero + " refs/tags/v1",
		id + " " + id + " refs/heads/a..b",
		id + " " + id + " refs/heads/-x",
		id + " " + id + " refs/pull/1/head",
		strings.Repeat("0", 64) + " " + strings.Repeat("c", 64) + " refs/heads/x\x01",
		id + " " + zero, "", "a b c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseRefChange(line)
		if err != nil {
			if !errors.Is(err, errs.ErrBadRequest) {
				t.Fatalf("error %v is not a bad request", err)
			}
			shown(t, errs.Message(err))
			return
		}
		// The line reads back exactly, and survives JSON as it is.
		if c.OldID+" "+c.NewID+" "+c.Ref != line || !utf8.ValidString(c.Ref) {
			t.Fatalf("ParseRefChange(%q) = %+v", line, c)
		}
		if c.IsCreate() && c.IsDelete() {
			t.Fatalf("%+v both creates and deletes", c)
		}
		err = CheckPushedRef(c)
		if err != nil {
			if !errors.Is(err, errs.ErrForbidden) {
				t.Fatalf("CheckPushedRef error %v is not forbidden", err)
			}
			shown(t, errs.Message(err))
			return
		}
		if !c.IsBranch() && !c.IsTag() {
			t.Fatalf("a push to %q was allowed", c.Ref)
		}
		if name := c.ShortName(); !c.IsDelete() && (strings.Contains(name, "..") || strings.HasPrefix(name, "-") ||
			name == "HEAD" || strings.IndexFunc(name, unicode.IsControl) >= 0 || name == "") {
			t.Fatalf("a push creating %q was allowed", c.Ref)
		}
	})
}

// shown fails when a message echoing client input could garble a terminal
// or a log line.
func shown(t *testing.T, msg string) {
	t.Helper()
	if !utf8.ValidString(msg) || strings.IndexFunc(msg, unicode.IsControl) >= 0 {
		t.Fatalf("message %q holds control characters or invalid UTF-8", msg)
	}
}

func FuzzGitProtocol(f *testing.F) {
	for _, s := range []string{"version=2", "version=1:object-format=sha256", "", "version=2;rm -rf", "a=b=c", ":",
		"version=99999999999999999999", "-x", "x-", "version=2:version=10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		version := GitProtocolVersion(v)
		if version < 0 {
			t.Fatalf("GitProtocolVersion(%q) = %d", v, version)
		}
		if !ValidGitProtocol(v) {
			return
		}
		if len(v) > maxGitProtocolLength {
			t.Fatalf("accepted %d bytes", len(v))
		}
		for _, r := range v {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-._=:", r)) {
				t.Fatalf("accepted %q with %q", v, r)
			}
		}
	})
}

func FuzzParseGitService(f *testing.F) {
	for _, s := range []string{"git-upload-pack", "git-receive-pack", "git-upload-archive", "", "\x1b[31m", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		svc, err := ParseGitService(name)
		if err != nil {
			if !errors.Is(err, errs.ErrForbidden) {
				t.Fatalf("error %v is not forbidden", err)
			}
			shown(t, errs.Message(err))
			return
		}
		if string(svc) != name || (svc != ServiceUploadPack && svc != ServiceReceivePack) {
			t.Fatalf("ParseGitService(%q) = %q", name, svc)
		}
	})
}
