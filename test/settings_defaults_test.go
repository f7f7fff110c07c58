package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestSettingsGiteaDefaults checks every field of every /settings/* answer
// and of a new account's /user/settings against what Gitea 1.27 answers
// when left at its defaults:
//
//   - /settings/api (modules/setting/api.go): MaxResponseItems 50,
//     DefaultPagingNum 30, DefaultGitTreesPerPage 1000, DefaultMaxBlobSize
//     10485760, DefaultMaxResponseSize 104857600.
//   - /settings/ui (modules/setting/ui.go): DefaultTheme "gitea-auto",
//     Reactions "+1, -1, laugh, hooray, confused, heart, rocket, eyes",
//     CustomEmojis "git, gitea, codeberg, gitlab, github, gogs".
//   - /settings/attachment (modules/setting/attachment.go): Enabled true,
//     MaxFiles 5, MaxSize 100 (MiB; what the SDK v0.25.1 settings test
//     expects), the default AllowedTypes list.
//   - /settings/repository: LFS off (LFS_START_SERVER false), the rest on.
//   - /user/settings of a new account (services/convert
//     User2UserSettings over a user made by CreateUser, which sets
//     "u.Theme = setting.UI.DefaultTheme" and no language or diff view
//     style): theme "gitea-auto", every other field empty or false — the
//     SDK's TestUserSettings compares the whole struct with exactly that.
func TestSettingsGiteaDefaults(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	anon := srv.Client()

	t.Run("api", func(t *testing.T) {
		is := is.New(t)
		var got map[string]int64
		r := srv.Do("GET", "/settings/api", nil)
		is.Equal(r.Status, http.StatusOK)
		r.Decode(t, &got)
		is.Equal(got, map[string]int64{"max_response_items": 50, "default_paging_num": 30,
			"default_git_trees_per_page": 1000, "default_max_blob_size": 10485760,
			"default_max_response_size": 104857600})
		s, _, err := anon.GetGlobalAPISettings()
		is.NoErr(err)
		is.Equal(*s, gitea.GlobalAPISettings{MaxResponseItems: 50, DefaultPagingNum: 30,
			DefaultGitTreesPerPage: 1000, DefaultMaxBlobSize: 10485760})
	})

	t.Run("ui", func(t *testing.T) {
		is := is.New(t)
		s, _, err := anon.GetGlobalUISettings()
		is.NoErr(err)
		is.Equal(*s, gitea.GlobalUISettings{DefaultTheme: "gitea-auto",
			AllowedReactions: []string{"+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"},
			CustomEmojis:     []string{"git", "gitea", "codeberg", "gitlab", "github", "gogs"}})
	})

	t.Run("attachment", func(t *testing.T) {
		is := is.New(t)
		s, _, err := anon.GetGlobalAttachmentSettings()
		is.NoErr(err)
		is.Equal(*s, gitea.GlobalAttachmentSettings{Enabled: true, MaxSize: 100, MaxFiles: 5,
			AllowedTypes: ".avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip"})
	})

	t.Run("repository", func(t *testing.T) {
		is := is.New(t)
		s, _, err := anon.GetGlobalRepoSettings()
		is.NoErr(err)
		is.Equal(*s, gitea.GlobalRepoSettings{LFSDisabled: true})
		var got map[string]bool
		srv.Do("GET", "/settings/repository", nil).Decode(t, &got)
		is.Equal(got, map[string]bool{"mirrors_disabled": false, "http_git_disabled": false, "migrations_disabled": false,
			"stars_disabled": false, "time_tracking_disabled": false, "lfs_disabled": true})
	})

	t.Run("a new account's settings", func(t *testing.T) {
		is := is.New(t)
		_, c := newAccount(t, srv, "fresh", gitea.VisibleTypePublic)
		s, _, err := c.GetUserSettings()
		is.NoErr(err)
		is.Equal(*s, gitea.UserSettings{Theme: "gitea-auto"})
		var got map[string]any
		srv.Do("GET", "/user/settings", nil, basicAs("fresh")...).Decode(t, &got)
		is.Equal(got["language"], "")
		is.Equal(got["diff_view_style"], "")
		is.Equal(got["theme"], "gitea-auto")

		// The SDK's round trip: set, read back, clear.
		de := "de_de"
		s, _, err = c.UpdateUserSettings(gitea.UserSettingsOptions{Language: &de})
		is.NoErr(err)
		is.Equal(*s, gitea.UserSettings{Theme: "gitea-auto", Language: "de_de"})
		empty := ""
		s, _, err = c.UpdateUserSettings(gitea.UserSettingsOptions{Language: &empty})
		is.NoErr(err)
		is.Equal(*s, gitea.UserSettings{Theme: "gitea-auto"})
	})
}
