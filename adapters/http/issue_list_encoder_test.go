package http

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// issueEncoderTricky holds every kind of character encoding/json escapes or
// rewrites: quotes, backslashes, control characters with and without a
// short form, HTML's <, > and &, DEL, multi-byte runes, U+2028/U+2029 and
// invalid UTF-8 (a lone continuation byte, a truncated sequence).
const issueEncoderTricky = "a\"b\\c\n\r\t\b\f\x00\x01\x1f<tag>&amp;\x7f é 😀 \u2028\u2029 \xff \xe2\x82 end"

func TestIssueListEncoderMatchesEncodingJSON(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 891000000, time.UTC)
	zoned := time.Date(2025, 12, 31, 23, 59, 59, 1, time.FixedZone("x", -(5*3600+30*60)))
	poster := &userDTO{ID: 7, Login: "al<i>ce", Username: "al<i>ce", FullName: issueEncoderTricky, Email: "a@b.c",
		HTMLURL: "http://h/al%3Cice", Created: at, LastLogin: zoned, IsAdmin: true, Active: true,
		Visibility: "public", StarredReposCnt: 3, FollowersCount: -1}
	repo := &repoMetaDTO{ID: 3, Name: "r&d", Owner: "o", FullName: "o/r&d"}
	other := &repoMetaDTO{ID: 4, Name: "x", Owner: "o", FullName: "o/x"}
	list := []issueDTO{
		{ID: 1, URL: "u", HTMLURL: "h", Index: 1, Poster: poster, Title: issueEncoderTricky, Body: "",
			Attachments: []attachmentDTO{}, Labels: []labelDTO{}, State: "open", Created: at, Updated: zoned,
			Repo: repo},
		{ID: 2, URL: "u2", HTMLURL: "h2", Index: 2, Poster: poster, OriginalAuthor: "o", OriginalAuthorID: 9,
			Title: "t", Body: issueEncoderTricky, Ref: "refs/heads/main",
			Attachments: []attachmentDTO{{ID: 5, Name: "f<1>.txt", Size: 10, DownloadCount: 2, Created: at,
				UUID: "uuid", DownloadURL: "http://h/attachments/uuid"}, {ID: 6}},
			Labels: []labelDTO{{ID: 1, Name: "bug", Exclusive: true, IsArchived: true, Color: "ff0000",
				Description: issueEncoderTricky, URL: "http://h/l/1"}, {ID: 2}},
			Milestone: &milestoneDTO{ID: 1, Title: "v1", Description: "d", State: "open", OpenIssues: 2,
				ClosedIssues: 1, Created: at, Updated: &at, Closed: nil, Deadline: &zoned},
			Assignee: &userDTO{ID: 8, Login: "b"}, Assignees: []userDTO{{ID: 8, Login: "b"}, {ID: 9, Login: "c"}},
			State: "closed", IsLocked: true, Comments: 4, Created: at, Updated: at, Closed: &at, Deadline: &zoned,
			TimeEstimate: 3600, PullRequest: &pullMetaDTO{HasMerged: true, Merged: &at, IsWorkInProgress: true,
				HTMLURL: "http://h/pulls/2"}, Repo: repo, PinOrder: 2},
		{ID: 3, Poster: nil, Attachments: nil, Labels: nil, Milestone: &milestoneDTO{}, PullRequest: &pullMetaDTO{},
			Repo: other},
		{ID: 4, Poster: poster, Repo: nil},
	}
	for _, tc := range []struct {
		name string
		list []issueDTO
	}{{"page", list}, {"one", list[1:2]}, {"empty", []issueDTO{}}, {"nil", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			var want bytes.Buffer
			if err := json.NewEncoder(&want).Encode(tc.list); err != nil {
				t.Fatal(err)
			}
			got, err := appendIssuesJSON(nil, tc.list)
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

func TestIssueListEncoderStringsMatchEncodingJSON(t *testing.T) {
	// Every single byte, then every byte after a multi-byte prefix, covers
	// the escape table and the invalid-UTF-8 handling.
	var inputs []string
	for c := 0; c < 256; c++ {
		inputs = append(inputs, string([]byte{byte(c)}), "x"+string([]byte{byte(c)})+"y",
			string([]byte{0xe2, 0x80, byte(c)}), string([]byte{0xf0, 0x9f, byte(c), 0x80}))
	}
	inputs = append(inputs, "", issueEncoderTricky, "\u2027\u2028\u2029\u202a", "\U0010ffff", "\xed\xa0\x80")
	for _, s := range inputs {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	}
}

func TestIssueListEncoderRejectsTimesJSONCannotCarry(t *testing.T) {
	d := []issueDTO{{Created: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}
	if _, err := json.Marshal(d); err == nil {
		t.Fatal("encoding/json accepted year 10000")
	}
	if _, err := appendIssuesJSON(nil, d); err == nil {
		t.Fatal("the issue encoder accepted year 10000")
	}
}
