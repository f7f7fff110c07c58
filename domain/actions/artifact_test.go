package actions_test

import (
	"errors"
	"testing"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
)

func TestArtifactExpiry(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name  string
		asked time.Time
		want  time.Time
	}{
		{"none asked: the retention", time.Time{}, now.Add(actions.ArtifactRetention)},
		{"within the retention", now.Add(time.Hour), now.Add(time.Hour)},
		{"past: the retention", now.Add(-time.Hour), now.Add(actions.ArtifactRetention)},
		{"beyond the retention: the retention", now.Add(2 * actions.ArtifactRetention), now.Add(actions.ArtifactRetention)},
	} {
		if got := actions.ArtifactExpiry(now, c.asked); !got.Equal(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestParseBlockListOrder(t *testing.T) {
	ids, err := actions.ParseBlockList([]byte(`<?xml version="1.0"?><BlockList><Latest>b</Latest><Latest>a</Latest></BlockList>`))
	if err != nil || len(ids) != 2 || ids[0] != "b" || ids[1] != "a" {
		t.Fatalf("%v %v", ids, err)
	}
	if _, err := actions.ParseBlockList([]byte(`<BlockList/>`)); !errors.Is(err, errs.ErrBadRequest) {
		t.Fatalf("empty list: %v", err)
	}
}

func TestSignedArtifactURLMessageBindsEndpointAndArtifact(t *testing.T) {
	u := actions.SignedArtifactURL{ArtifactID: 1, TaskID: 2, Expires: time.Unix(100, 0)}
	v := u
	v.ArtifactID = 12
	if u.Message(actions.ArtifactUploadEndpoint) == u.Message(actions.ArtifactDownloadEndpoint) ||
		u.Message(actions.ArtifactRawEndpoint) == v.Message(actions.ArtifactRawEndpoint) {
		t.Fatal("messages collide")
	}
}
