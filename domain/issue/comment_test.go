package issue_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/site"
)

func TestValidateCommentBody(t *testing.T) {
	cases := []struct {
		body string
		msg  string
	}{
		{"hello", ""},
		{"", "Body: Required"},
		{" \n\t", "Body: Required"},
		{strings.Repeat("x", issue.MaxCommentBodyBytes), ""},
		{strings.Repeat("x", issue.MaxCommentBodyBytes+1), "Body: MaxSize"},
	}
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			is := is.New(t)
			err := issue.ValidateCommentBody(c.body)
			if c.msg == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrInvalid))
			is.Equal(errs.Message(err), c.msg)
		})
	}
}

func TestCommentRules(t *testing.T) {
	c := &issue.Comment{PosterID: 7}
	cases := []struct {
		name   string
		doer   int64
		writer bool
		want   bool
	}{
		{"poster", 7, false, true},
		{"writer", 8, true, true},
		{"other", 8, false, false},
		{"anonymous writer", 0, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(issue.CanChangeComment(c, tc.doer, tc.writer), tc.want)
		})
	}
	is := is.New(t)
	locked := &issue.Issue{IsLocked: true}
	is.NoErr(issue.CanCommentOn(locked, true))
	is.Equal(errs.Message(issue.CanCommentOn(locked, false)), "You cannot comment on a locked issue.")
	is.NoErr(issue.CanCommentOn(&issue.Issue{}, false))
	is.True(issue.CommentPlain.HasContent() && issue.CommentReview.HasContent())
	is.True(!issue.CommentLabel.HasContent())
	is.True(issue.CommentIssueRef.IsRef() && issue.CommentCommentRef.IsRef() && !issue.CommentPlain.IsRef())
}

func TestCheckReaction(t *testing.T) {
	for _, r := range []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"} {
		if err := issue.CheckReaction(r); err != nil {
			t.Fatalf("%s: %v", r, err)
		}
	}
	for _, r := range []string{"", "smile", "HEART", ":+1:"} {
		t.Run(r, func(t *testing.T) {
			is := is.New(t)
			err := issue.CheckReaction(r)
			is.True(errors.Is(err, errs.ErrForbidden))
			is.Equal(errs.Message(err), "'"+r+"' is not an allowed reaction")
		})
	}
	is := is.New(t)
	is.Equal(errs.Message(issue.CanReact(&issue.Issue{IsLocked: true}, false)), "no permission to change reaction")
	is.NoErr(issue.CanReact(&issue.Issue{IsLocked: true}, true))
}

func TestAttachmentRules(t *testing.T) {
	is := is.New(t)
	def := issue.AttachmentRulesOf(site.Settings{})
	is.True(def.Enabled)
	is.Equal(def.MaxBytes, int64(issue.DefaultAttachmentMaxBytes))
	is.Equal(def.AllowedTypes, issue.DefaultAttachmentTypes)
	is.Equal(def.MaxFiles, 5)
	off := issue.AttachmentRulesOf(site.Settings{DisableAttachments: true})
	is.True(errors.Is(off.CheckEnabled(), errs.ErrNotFound))

	cases := []struct {
		allowed, name, sniffed string
		ok                     bool
	}{
		{"", "a.txt", "text/plain; charset=utf-8", true}, // default list
		{"", "a.exe", "application/octet-stream", false},
		{"", "A.PNG", "", true},
		{".png", "a.png", "text/html; charset=utf-8", true}, // extension suffices
		{"image/*", "a.bin", "image/png", true},
		{"image/*", "a.bin", "", false}, // nothing sniffed: extensions only
		{"image/png", "a.bin", "image/png", true},
		{"image/png,.txt", "a.bin", "image/gif", false},
		{"*/*", "anything", "", true},
		{" .md | .txt ", "x.txt", "", true}, // Gitea's old separator
		{".png", "a.png", "bad type;;", false},
	}
	for _, c := range cases {
		t.Run(c.allowed+" "+c.name, func(t *testing.T) {
			is := is.New(t)
			rules := issue.AttachmentRulesOf(site.Settings{AttachmentAllowedTypes: c.allowed})
			err := rules.CheckType(c.name, c.sniffed)
			if c.ok {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrInvalid))
		})
	}
}

func TestCleanAttachmentName(t *testing.T) {
	cases := []struct{ in, want, msg string }{
		{"report.pdf", "report.pdf", ""},
		{"  dir/sub\\file.txt ", "file.txt", ""},
		{"", "", "name: Required"},
		{"a/", "", "name: Required"},
		{"..", "", "name: Required"},
		{"a\x01b", "", "name: must not contain control characters"},
		{strings.Repeat("n", 256), "", "name: MaxSize"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			is := is.New(t)
			got, err := issue.CleanAttachmentName(c.in)
			if c.msg != "" {
				is.Equal(errs.Message(err), c.msg)
				return
			}
			is.NoErr(err)
			is.Equal(got, c.want)
		})
	}
	is := is.New(t)
	i := &issue.Issue{PosterID: 3}
	is.NoErr(issue.CanAttachToIssue(i, 3, false))
	is.NoErr(issue.CanAttachToIssue(i, 4, true))
	is.Equal(errs.Message(issue.CanAttachToIssue(i, 4, false)), "user should have permission to write issue")
	c := &issue.Comment{PosterID: 3}
	is.NoErr(issue.CanAttachToComment(c, 3, false, true))
	is.NoErr(issue.CanAttachToComment(c, 4, true, true))
	is.Equal(errs.Message(issue.CanAttachToComment(c, 3, false, false)), "user should have permission to edit comment")
	is.Equal(errs.Message(issue.CanAttachToComment(c, 4, false, true)), "user should have permission to edit comment")
}
