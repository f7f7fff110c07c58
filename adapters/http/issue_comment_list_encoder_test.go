package http

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func TestCommentListEncoderMatchesEncodingJSON(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 891000000, time.UTC)
	zoned := time.Date(2025, 12, 31, 23, 59, 59, 1, time.FixedZone("x", -(5*3600+30*60)))
	poster := &userDTO{ID: 7, Login: "al<i>ce", Username: "al<i>ce", FullName: issueEncoderTricky, Email: "a@b.c",
		HTMLURL: "http://h/al%3Cice", Created: at, LastLogin: zoned, IsAdmin: true, Active: true,
		Visibility: "public", StarredReposCnt: 3, FollowersCount: -1}
	list := []commentDTO{
		{ID: 1, HTMLURL: "http://h/o/r/issues/1#issuecomment-1", IssueURL: "http://h/api/v1/repos/o/r/issues/1",
			User: poster, Body: issueEncoderTricky, Assets: []attachmentDTO{{ID: 3, Name: issueEncoderTricky, Size: 4,
				Created: zoned, UUID: "u", DownloadURL: "http://h/attachments/u?<x>&y"}}, Created: at, Updated: zoned},
		{ID: 2, PRURL: "http://h/o/r/pulls/2", User: poster, OriginalAuthor: "imported", OriginalAuthorID: 9,
			Assets: []attachmentDTO{}, Created: zoned, Updated: at},
		{ID: 3, User: nil, Created: at, Updated: at},
	}
	for _, tc := range []struct {
		name string
		list []commentDTO
	}{{"page", list}, {"one", list[1:2]}, {"empty", []commentDTO{}}, {"nil", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			var want bytes.Buffer
			if err := json.NewEncoder(&want).Encode(tc.list); err != nil {
				t.Fatal(err)
			}
			got, err := appendCommentsJSON(nil, tc.list)
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

func TestCommentListEncoderRejectsTimesJSONCannotCarry(t *testing.T) {
	d := []commentDTO{{Created: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}
	if _, err := json.Marshal(d); err == nil {
		t.Fatal("encoding/json accepted year 10000")
	}
	if _, err := appendCommentsJSON(nil, d); err == nil {
		t.Fatal("the comment encoder accepted year 10000")
	}
}
