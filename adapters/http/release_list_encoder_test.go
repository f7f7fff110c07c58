package http

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func TestReleaseListEncoderMatchesEncodingJSON(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 891000000, time.UTC)
	zoned := time.Date(2025, 12, 31, 23, 59, 59, 1, time.FixedZone("x", -(5*3600+30*60)))
	publisher := userDTO{ID: 7, Login: "al<i>ce", Username: "al<i>ce", FullName: issueEncoderTricky, Email: "a@b.c",
		HTMLURL: "http://h/al%3Cice", Created: at, LastLogin: zoned, IsAdmin: true, Active: true,
		Visibility: "public", StarredReposCnt: 3, FollowersCount: -1}
	other := userDTO{ID: -1, Login: "Ghost", Username: "Ghost"}
	asset := func(id int64, typ string) assetDTO {
		return assetDTO{attachmentDTO: attachmentDTO{ID: id, Name: issueEncoderTricky, Size: 12, DownloadCount: 3,
			Created: zoned, UUID: "0000-1111", DownloadURL: "http://h/attachments/0000-1111?a=<b>&c"}, Type: typ}
	}
	list := []releaseDTO{
		{ID: 1, TagName: "v1.0/<rc>", Target: "main", Title: issueEncoderTricky, Note: issueEncoderTricky,
			URL: "http://h/api/v1/repos/o/r/releases/1", HTMLURL: "http://h/o/r/releases/tag/v1.0", TarURL: "t",
			ZipURL: "z", UploadURL: "u", IsPrerelease: true, CreatedAt: at, PublishedAt: &zoned, Publisher: publisher,
			Attachments: []assetDTO{asset(1, "attachment"), asset(2, "external")}},
		{ID: 2, TagName: "v2", HideArchiveLinks: true, IsDraft: true, CreatedAt: zoned, Publisher: publisher,
			Attachments: []assetDTO{}},
		{ID: 3, TagName: "v3", CreatedAt: at, Publisher: other},
	}
	for _, tc := range []struct {
		name string
		list []releaseDTO
	}{{"page", list}, {"one", list[1:2]}, {"empty", []releaseDTO{}}, {"nil", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			var want bytes.Buffer
			if err := json.NewEncoder(&want).Encode(tc.list); err != nil {
				t.Fatal(err)
			}
			got, err := appendReleasesJSON(nil, tc.list)
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

func TestReleaseListEncoderRejectsTimesJSONCannotCarry(t *testing.T) {
	d := []releaseDTO{{CreatedAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}
	if _, err := json.Marshal(d); err == nil {
		t.Fatal("encoding/json accepted year 10000")
	}
	if _, err := appendReleasesJSON(nil, d); err == nil {
		t.Fatal("the release encoder accepted year 10000")
	}
}
