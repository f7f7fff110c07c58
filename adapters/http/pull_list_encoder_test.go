package http

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// encoderRepo is a Gitea Repository with every field set, tricky strings
// included, and the optional objects filled.
func encoderRepo(id int64, owner *userDTO, at, zoned time.Time) *repoDTO {
	return &repoDTO{ID: id, Owner: owner, Name: "r&d", FullName: "o/r&d", Description: issueEncoderTricky,
		Empty: true, Private: true, Fork: true, Template: true, Mirror: true, Size: 12, Language: "Go",
		LanguagesURL: "http://h/api/v1/repos/o/r%26d/languages", HTMLURL: "http://h/o/r%26d", URL: "u",
		Link: "l", SSHURL: "git@h:o/r&d.git", CloneURL: "http://h/o/r%26d.git", OriginalURL: "http://x/<y>",
		Website: "w", Stars: 1, Forks: 2, Watchers: 3, OpenIssues: 4, OpenPulls: 5, Releases: 6,
		DefaultBranch: "main", Archived: true, Created: at, Updated: zoned, ArchivedAt: time.Unix(0, 0).UTC(),
		Permissions: &permissionDTO{Admin: true, Push: true, Pull: true}, HasCode: true, HasIssues: true,
		InternalTracker: &internalTrackerDTO{EnableTimeTracker: true, EnableIssueDependencies: true},
		ExternalTracker: &externalTrackerDTO{ExternalTrackerURL: "http://t/<x>", ExternalTrackerFormat: "{index}",
			ExternalTrackerStyle: "numeric", ExternalTrackerRegexpPattern: `#(\d+)`},
		HasWiki: true, ExternalWiki: &externalWikiDTO{ExternalWikiURL: "http://wiki"}, HasPullRequests: true,
		HasProjects: true, ProjectsMode: "all", HasReleases: true, HasPackages: true, HasActions: true,
		IgnoreWhitespaceConflicts: true, AllowMerge: true, AllowRebase: true, AllowRebaseMerge: true,
		AllowSquash: true, AllowFastForwardOnly: true, AllowRebaseUpdate: true, AllowManualMerge: true,
		AutodetectManualMerge: true, DefaultDeleteBranchAfterMerge: true, DefaultMergeStyle: "merge",
		DefaultAllowMaintainerEdit: true, AvatarURL: "http://h/a", Internal: true, MirrorInterval: "8h0m0s",
		ObjectFormatName: "sha1", MirrorUpdated: zoned,
		RepoTransfer: &repoTransferDTO{Doer: owner, Recipient: &userDTO{ID: 99, Login: "r"}, Teams: []any{}},
		Topics:       []string{"go", "<git>"}, Licenses: []string{}}
}

func TestPullListEncoderMatchesEncodingJSON(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 891000000, time.UTC)
	zoned := time.Date(2025, 12, 31, 23, 59, 59, 1, time.FixedZone("x", -(5*3600+30*60)))
	poster := &userDTO{ID: 7, Login: "al<i>ce", Username: "al<i>ce", FullName: issueEncoderTricky, Email: "a@b.c",
		HTMLURL: "http://h/al%3Cice", Created: at, LastLogin: zoned, IsAdmin: true, Active: true,
		Visibility: "public", StarredReposCnt: 3, FollowersCount: -1}
	base := encoderRepo(3, poster, at, zoned)
	bare := &repoDTO{ID: 5} // nil owner, permissions, trackers, topics
	fork := encoderRepo(4, &userDTO{ID: 8, Login: "b"}, at, at)
	fork.Parent = base
	sha := "0123456789abcdef0123456789abcdef01234567"
	merger := &userDTO{ID: 9, Login: "c"}
	list := []pullDTO{
		{ID: 1, URL: "u", Index: 1, Poster: poster, Title: issueEncoderTricky, Body: "", Labels: []labelDTO{},
			Assignees: nil, RequestedReviewers: []userDTO{}, RequestedTeams: []any{}, State: "open",
			HTMLURL: "h", DiffURL: "h.diff", PatchURL: "h.patch", Mergeable: true,
			Base:      &prBranchDTO{Name: "main", Ref: "main", Sha: sha, RepoID: 3, Repository: base},
			Head:      &prBranchDTO{Name: "topic", Ref: "topic", Sha: sha, RepoID: 3, Repository: base},
			MergeBase: sha, Created: at, Updated: zoned, MergeStatus: "mergeable", ConflictedFiles: []string{}},
		{ID: 2, URL: "u2", Index: 2, Poster: poster, Title: "t", Body: issueEncoderTricky,
			Labels: []labelDTO{{ID: 1, Name: "bug", Exclusive: true, IsArchived: true, Color: "ff0000",
				Description: issueEncoderTricky, URL: "http://h/l/1"}, {ID: 2}},
			Milestone: &milestoneDTO{ID: 1, Title: "v1", Description: "d", State: "open", OpenIssues: 2,
				ClosedIssues: 1, Created: at, Updated: &at, Closed: nil, Deadline: &zoned},
			Assignee: &userDTO{ID: 8, Login: "b"}, Assignees: []userDTO{{ID: 8, Login: "b"}, {ID: 9, Login: "c"}},
			RequestedReviewers: []userDTO{{ID: 10}}, RequestedTeams: []any{map[string]any{"name": "<t>"}},
			State: "closed", Draft: true, IsLocked: true, Comments: 4, ReviewComments: 2, Additions: 10,
			Deletions: 3, ChangedFiles: 2, HasMerged: true, Merged: &at, MergedCommitID: &sha, MergedBy: merger,
			AllowMaintainerEdit: true,
			Base:                &prBranchDTO{Name: "main", Ref: "main", Sha: sha, RepoID: 3, Repository: base},
			Head:                &prBranchDTO{Name: "f<x>", Ref: "f<x>", Sha: sha, RepoID: 4, Repository: fork},
			Deadline:            &zoned, Created: at, Updated: at, Closed: &at, PinOrder: 2, MergeStatus: "conflict",
			ConflictedFiles: []string{"a.txt", issueEncoderTricky}},
		{ID: 3, Poster: nil, Labels: nil, Milestone: &milestoneDTO{}, Base: nil,
			Head: &prBranchDTO{Name: "gone", Ref: "refs/pull/3/head", RepoID: -1}},
		{ID: 4, Poster: poster, MergedBy: merger, Base: &prBranchDTO{Repository: bare},
			Head: &prBranchDTO{Repository: fork}},
	}
	for _, tc := range []struct {
		name string
		list []pullDTO
	}{{"page", list}, {"one", list[1:2]}, {"empty", []pullDTO{}}, {"nil", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			var want bytes.Buffer
			if err := json.NewEncoder(&want).Encode(tc.list); err != nil {
				t.Fatal(err)
			}
			got, err := appendPullsJSON(nil, tc.list)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("encodings differ\n got: %s\nwant: %s", got, want.Bytes())
			}
		})
	}
}

func TestPullListEncoderRejectsTimesJSONCannotCarry(t *testing.T) {
	d := []pullDTO{{Base: &prBranchDTO{Repository: &repoDTO{Created: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}}}
	if _, err := json.Marshal(d); err == nil {
		t.Fatal("encoding/json accepted year 10000")
	}
	if _, err := appendPullsJSON(nil, d); err == nil {
		t.Fatal("the pull request encoder accepted year 10000")
	}
}
