package protection_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
)

func TestBranchRuleMatching(t *testing.T) {
	set := protection.NewRuleSet([]*protection.BranchRule{
		{ID: 1, Name: "**", Priority: 1},
		{ID: 2, Name: "release/*", Priority: 2},
		{ID: 3, Name: "main", Priority: 9},
		{ID: 4, Name: "feature/{a,b}", Priority: 3},
	})
	cases := []struct {
		branch string
		want   int64
	}{
		{"main", 3},
		{"MAIN", 3}, // exact names match regardless of case, as in Gitea
		{"release/1.0", 1},
		{"release/1.0/hotfix", 1},
		{"feature/a", 1},
		{"anything", 1},
	}
	for _, c := range cases {
		t.Run(c.branch, func(t *testing.T) {
			is := is.New(t)
			p := set.Match(c.branch)
			is.True(p != nil)
			is.Equal(p.Rule().ID, c.want)
		})
	}
}

func TestBranchRulePriority(t *testing.T) {
	is := is.New(t)
	rules := []*protection.BranchRule{
		{ID: 1, Name: "release/*", Priority: 5},
		{ID: 2, Name: "release/**", Priority: 2},
		{ID: 3, Name: "release/v1", Priority: 7},
		{ID: 4, Name: "rel*/*", Priority: 2},
	}
	set := protection.NewRuleSet(rules)
	// Exact names first, then globs by priority, then by id.
	var order []int64
	for _, r := range set.Rules() {
		order = append(order, r.ID)
	}
	is.Equal(order, []int64{3, 2, 4, 1})
	is.Equal(set.Match("release/v1").Rule().ID, int64(3))
	is.Equal(set.Match("release/v2").Rule().ID, int64(2))
	is.True(set.Match("main") == nil)
	is.True((*protection.RuleSet)(nil).Match("main") == nil)
}

func TestBranchRuleGlobSegments(t *testing.T) {
	cases := []struct {
		rule, branch string
		match        bool
	}{
		{"release/*", "release/1", true},
		{"release/*", "release/1/2", false},
		{"release/**", "release/1/2", true},
		{"**", "a/b/c", true},
		{"*", "a/b", false},
		{"v?", "v1", true},
		{"[ab]x", "bx", true},
	}
	for _, c := range cases {
		t.Run(c.rule+" "+c.branch, func(t *testing.T) {
			is := is.New(t)
			set := protection.NewRuleSet([]*protection.BranchRule{{ID: 1, Name: c.rule}})
			is.Equal(set.Match(c.branch) != nil, c.match)
		})
	}
}

func TestBranchRuleValidate(t *testing.T) {
	cases := []struct {
		name  string
		rule  protection.BranchRule
		field string
	}{
		{"plain", protection.BranchRule{Name: "main"}, ""},
		{"glob", protection.BranchRule{Name: "release/**"}, ""},
		{"empty name", protection.BranchRule{Name: " "}, "RuleName"},
		{"bad glob", protection.BranchRule{Name: "release/[a"}, "RuleName"},
		{"long name", protection.BranchRule{Name: strings.Repeat("a", 256)}, "RuleName"},
		{"control", protection.BranchRule{Name: "a\x01"}, "RuleName"},
		{"signed", protection.BranchRule{Name: "main", RequireSignedCommits: true}, ""},
		{"bad protected pattern", protection.BranchRule{Name: "main", ProtectedFilePatterns: "*.md;[x"}, "ProtectedFilePatterns"},
		{"bad unprotected pattern", protection.BranchRule{Name: "main", UnprotectedFilePatterns: "{a"}, "UnprotectedFilePatterns"},
		{"bad context", protection.BranchRule{Name: "main", StatusCheckContexts: []string{"ci/[x"}}, "StatusCheckContexts"},
		{"empty context", protection.BranchRule{Name: "main", StatusCheckContexts: []string{""}}, "StatusCheckContexts"},
		{"good patterns", protection.BranchRule{Name: "main", ProtectedFilePatterns: "*.md; docs/**",
			StatusCheckContexts: []string{"ci/*"}}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			err := c.rule.Validate()
			if c.field == "" {
				is.NoErr(err)
				return
			}
			var e *errs.Error
			is.True(errors.As(err, &e))
			is.True(errors.Is(err, errs.ErrInvalid))
			is.Equal(e.Fields, []string{c.field})
		})
	}
}

func TestBranchRuleNormalize(t *testing.T) {
	is := is.New(t)
	r := protection.BranchRule{Name: "main", EnablePushAllowlist: true, PushAllowlistDeployKeys: true,
		EnableForcePush: true, EnableForcePushAllowlist: true, RequiredApprovals: -3,
		PushAllowlistUserIDs: []int64{3, 1, 3}}
	r.Normalize()
	is.True(!r.EnablePushAllowlist)
	is.True(!r.PushAllowlistDeployKeys)
	is.True(!r.EnableForcePush)
	is.True(!r.EnableForcePushAllowlist)
	is.Equal(r.RequiredApprovals, int64(0))
	is.Equal(r.PushAllowlistUserIDs, []int64{1, 3})
	is.Equal(r.MergeAllowlistUserIDs, []int64{})
}

// protect returns the protection of branch main under rule r.
func protect(r protection.BranchRule) *protection.Protection {
	r.Name, r.ID = "main", 1
	return protection.NewRuleSet([]*protection.BranchRule{&r}).Match("main")
}

func TestBranchProtectionPushDecisions(t *testing.T) {
	writer := protection.Doer{UserID: 2, UserName: "writer", CanWriteCode: true}
	listed := protection.Doer{UserID: 3, UserName: "listed", CanWriteCode: true}
	teamed := protection.Doer{UserID: 4, UserName: "teamed", CanWriteCode: true, TeamIDs: []int64{40}}
	key := protection.Doer{UserID: 1, DeployKey: true, CanWriteCode: true}
	reader := protection.Doer{UserID: 5, UserName: "reader"}
	allow := protection.BranchRule{EnablePush: true, EnablePushAllowlist: true, PushAllowlistUserIDs: []int64{3},
		PushAllowlistTeamIDs: []int64{40}}
	cases := []struct {
		name string
		rule protection.BranchRule
		doer protection.Doer
		up   protection.RefUpdate
		want string // "" allowed, else the message
	}{
		{"push off", protection.BranchRule{}, writer, protection.RefUpdate{}, "Not allowed to push to protected branch main"},
		{"push on, writer", protection.BranchRule{EnablePush: true}, writer, protection.RefUpdate{}, ""},
		{"push on, reader", protection.BranchRule{EnablePush: true}, reader, protection.RefUpdate{}, "Not allowed to push to protected branch main"},
		{"allowlist user", allow, listed, protection.RefUpdate{}, ""},
		{"allowlist team", allow, teamed, protection.RefUpdate{}, ""},
		{"allowlist leaves writer out", allow, writer, protection.RefUpdate{}, "Not allowed to push to protected branch main"},
		{"deploy key without switch", allow, key, protection.RefUpdate{}, "Not allowed to push to protected branch main"},
		{"deploy key with switch", protection.BranchRule{EnablePush: true, EnablePushAllowlist: true, PushAllowlistDeployKeys: true}, key, protection.RefUpdate{}, ""},
		{"deploy key, no allowlist", protection.BranchRule{EnablePush: true}, key, protection.RefUpdate{}, ""},
		{"delete always refused", protection.BranchRule{EnablePush: true, EnableForcePush: true}, writer, protection.RefUpdate{Delete: true}, "branch main is protected from deletion"},
		{"force off", protection.BranchRule{EnablePush: true}, writer, protection.RefUpdate{ForcePush: true}, "branch main is protected from force push"},
		{"force on", protection.BranchRule{EnablePush: true, EnableForcePush: true}, writer, protection.RefUpdate{ForcePush: true}, ""},
		{"force allowlist leaves writer out", protection.BranchRule{EnablePush: true, EnableForcePush: true, EnableForcePushAllowlist: true,
			ForcePushAllowlistUserIDs: []int64{3}}, writer, protection.RefUpdate{ForcePush: true}, "Not allowed to force-push to protected branch main"},
		{"force allowlist user", protection.BranchRule{EnablePush: true, EnableForcePush: true, EnableForcePushAllowlist: true,
			ForcePushAllowlistUserIDs: []int64{3}}, listed, protection.RefUpdate{ForcePush: true}, ""},
		{"force allowlist needs push too", protection.BranchRule{EnablePush: true, EnablePushAllowlist: true, EnableForcePush: true,
			EnableForcePushAllowlist: true, ForcePushAllowlistUserIDs: []int64{2}}, writer, protection.RefUpdate{ForcePush: true},
			"Not allowed to force-push to protected branch main"},
		{"deploy key force with switch", protection.BranchRule{EnablePush: true, EnableForcePush: true, EnableForcePushAllowlist: true,
			ForcePushAllowlistDeployKeys: true}, key, protection.RefUpdate{ForcePush: true}, ""},
		{"protected file", protection.BranchRule{EnablePush: true, ProtectedFilePatterns: "*.lock;CI/**"}, writer,
			protection.RefUpdate{ChangedFiles: []string{"src/a.go", "ci/build.yml"}}, "branch main is protected from changing file ci/build.yml"},
		{"protected file untouched", protection.BranchRule{EnablePush: true, ProtectedFilePatterns: "*.lock"}, writer,
			protection.RefUpdate{ChangedFiles: []string{"src/a.go"}}, ""},
		{"unprotected only passes without push", protection.BranchRule{UnprotectedFilePatterns: "docs/**"}, reader,
			protection.RefUpdate{ChangedFiles: []string{"docs/a.md", "docs/b/c.md"}}, ""},
		{"unprotected and other", protection.BranchRule{UnprotectedFilePatterns: "docs/**"}, writer,
			protection.RefUpdate{ChangedFiles: []string{"docs/a.md", "main.go"}}, "Not allowed to push to protected branch main"},
		{"new branch without files", protection.BranchRule{UnprotectedFilePatterns: "docs/**"}, writer,
			protection.RefUpdate{Create: true}, "Not allowed to push to protected branch main"},
		{"signed required, unverified commit", protection.BranchRule{EnablePush: true, RequireSignedCommits: true}, writer,
			protection.RefUpdate{UnverifiedCommit: "abc123"}, "branch main is protected from unverified commit abc123"},
		{"signed required, all verified", protection.BranchRule{EnablePush: true, RequireSignedCommits: true}, writer,
			protection.RefUpdate{}, ""},
		{"signed not required", protection.BranchRule{EnablePush: true}, writer,
			protection.RefUpdate{UnverifiedCommit: "abc123"}, ""},
		{"signed required before the allowlist", protection.BranchRule{RequireSignedCommits: true}, reader,
			protection.RefUpdate{UnverifiedCommit: "abc123"}, "branch main is protected from unverified commit abc123"},
		{"force push refused before signatures", protection.BranchRule{EnablePush: true, RequireSignedCommits: true}, writer,
			protection.RefUpdate{ForcePush: true, UnverifiedCommit: "abc123"}, "branch main is protected from force push"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			err := protect(c.rule).CheckPush(c.doer, c.up)
			if c.want == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrForbidden))
			is.Equal(errs.Message(err), c.want)
		})
	}
}

func TestBranchProtectionNeeds(t *testing.T) {
	is := is.New(t)
	is.True(!protect(protection.BranchRule{EnablePush: true}).NeedsTeams())
	is.True(protect(protection.BranchRule{MergeAllowlistTeamIDs: []int64{1}}).NeedsTeams())
	is.True(!protect(protection.BranchRule{}).HasFilePatterns())
	is.True(protect(protection.BranchRule{UnprotectedFilePatterns: "a"}).HasFilePatterns())
}

func TestBranchProtectionContentWrites(t *testing.T) {
	writer := protection.Doer{UserID: 2, UserName: "writer", CanWriteCode: true}
	cases := []struct {
		name  string
		rule  protection.BranchRule
		paths []string
		want  string
	}{
		{"push off", protection.BranchRule{}, []string{"a.go"}, "user cannot commit to repo [user: writer]"},
		{"push on", protection.BranchRule{EnablePush: true}, []string{"a.go"}, ""},
		{"unprotected file without push", protection.BranchRule{UnprotectedFilePatterns: "*.md"}, []string{"README.md"}, ""},
		{"protected file", protection.BranchRule{EnablePush: true, ProtectedFilePatterns: "*.md"}, []string{"a.go", "README.MD"},
			"path is protected and can not be changed [path: README.MD]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			err := protect(c.rule).CheckFiles(writer, c.paths)
			if c.want == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrForbidden))
			is.Equal(errs.Message(err), c.want)
		})
	}
}

func TestBranchProtectionMergeDecisions(t *testing.T) {
	ok := map[string]commitstatus.State{"ci/build": commitstatus.Success, "ci/lint": commitstatus.Success}
	pending := map[string]commitstatus.State{"ci/build": commitstatus.Success, "ci/lint": commitstatus.Pending}
	checks := protection.BranchRule{EnableStatusCheck: true, StatusCheckContexts: []string{"ci/*"}}
	cases := []struct {
		name  string
		rule  protection.BranchRule
		facts protection.MergeFacts
		want  string
	}{
		{"no conditions", protection.BranchRule{}, protection.MergeFacts{}, ""},
		{"checks pass", checks, protection.MergeFacts{Statuses: ok}, ""},
		{"checks pending", checks, protection.MergeFacts{Statuses: pending}, protection.MsgStatusChecks},
		{"checks absent", checks, protection.MergeFacts{}, protection.MsgStatusChecks},
		{"context not reported", protection.BranchRule{EnableStatusCheck: true, StatusCheckContexts: []string{"ci/*", "deploy"}},
			protection.MergeFacts{Statuses: ok}, protection.MsgStatusChecks},
		{"checks off ignores contexts", protection.BranchRule{StatusCheckContexts: []string{"x"}}, protection.MergeFacts{}, ""},
		{"outdated", protection.BranchRule{BlockOnOutdatedBranch: true}, protection.MergeFacts{HeadBehind: true}, protection.MsgOutdated},
		{"outdated allowed", protection.BranchRule{}, protection.MergeFacts{HeadBehind: true}, ""},
		{"protected files", protection.BranchRule{ProtectedFilePatterns: "go.mod"}, protection.MergeFacts{ChangedFiles: []string{"go.mod"}},
			protection.MsgProtectedFiles},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			err := protect(c.rule).CheckMerge(c.facts)
			if c.want == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrNotAllowed))
			is.Equal(errs.Message(err), c.want)
		})
	}
}

func TestBranchProtectionMergeAllowlist(t *testing.T) {
	is := is.New(t)
	writer := protection.Doer{UserID: 2, CanWriteCode: true}
	teamed := protection.Doer{UserID: 4, TeamIDs: []int64{9}}
	open := protect(protection.BranchRule{})
	is.True(open.CanMerge(writer))
	is.True(!open.CanMerge(teamed))
	listed := protect(protection.BranchRule{EnableMergeAllowlist: true, MergeAllowlistTeamIDs: []int64{9}})
	is.True(!listed.CanMerge(writer))
	is.True(listed.CanMerge(teamed))
	is.True(listed.AdminMayOverride())
	is.True(!protect(protection.BranchRule{BlockAdminMergeOverride: true}).AdminMayOverride())
}

func TestBranchProtectionSignedWrites(t *testing.T) {
	d := protection.Doer{UserID: 2, UserName: "writer", CanWriteCode: true}
	cases := []struct {
		name            string
		required, signs bool
		merge, write    string // "" allowed, else the message
	}{
		{"not required", false, false, "", ""},
		{"required and signed", true, true, "", ""},
		{"required, unsigned", true, false, "Protected branch main requires signed commits but this merge would not be signed",
			"user cannot commit to repo [user: writer]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			p := protect(protection.BranchRule{EnablePush: true, RequireSignedCommits: c.required})
			is.Equal(p.RequiresSignedCommits(), c.required)
			err := p.CheckSignedMerge(c.signs)
			if c.merge == "" {
				is.NoErr(err)
			} else {
				is.True(errors.Is(err, errs.ErrNotAllowed))
				is.Equal(errs.Message(err), c.merge)
			}
			err = p.CheckSignedWrite(d, c.signs)
			if c.write == "" {
				is.NoErr(err)
			} else {
				is.True(errors.Is(err, errs.ErrForbidden))
				is.Equal(errs.Message(err), c.write)
			}
		})
	}
}
