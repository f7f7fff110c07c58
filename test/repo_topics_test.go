package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// socialTopics reads owner/repo's topics as the owner (raw, to see the envelope).
func socialTopics(t *testing.T, srv *testserver.Server, owner, repo string) []string {
	t.Helper()
	r := srv.Do("GET", "/repos/"+owner+"/"+repo+"/topics", nil, basicAs(owner)...)
	if r.Status != http.StatusOK {
		t.Fatalf("topics of %s/%s: %d %s", owner, repo, r.Status, r.Body)
	}
	var b topicsBody
	r.Decode(t, &b)
	if b.Topics == nil {
		t.Fatalf("topics is null: %s", r.Body)
	}
	return b.Topics
}

// searchTopic finds name in /topics/search?q=name; nil when absent.
func searchTopic(t *testing.T, srv *testserver.Server, name string) *gitea.TopicResponse {
	t.Helper()
	res, _, err := srv.Client().SearchTopics(gitea.TopicSearchOptions{Query: name})
	if err != nil {
		t.Fatalf("search topics: %v", err)
	}
	for _, tp := range res.Topics {
		if tp.Name == name {
			return tp
		}
	}
	return nil
}

// TestSocTopics covers reading, replacing, adding and removing topics,
// Gitea's topic rules, topic search with repository counts, and access, on
// both backends.
func TestSocTopics(t *testing.T) {
	t.Parallel()
	backends(t, testSocTopics)
}

func testSocTopics(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "rita", "ada", "sam")
	createRepoAs(t, srv, "carol", "tagged", false)
	createRepoAs(t, srv, "carol", "second", false)
	createRepoAs(t, srv, "carol", "quiet", true)
	socialCollab(t, srv, "carol", "tagged", "rita", gitea.AccessModeRead)
	socialCollab(t, srv, "carol", "tagged", "ada", gitea.AccessModeAdmin)
	carol := userClient(srv, "carol")
	const R = "/repos/carol/tagged/topics"

	t.Run("empty", func(t *testing.T) {
		is := is.New(t)
		is.Equal(socialTopics(t, srv, "carol", "tagged"), []string{})
		list, _, err := carol.ListRepoTopics("carol", "tagged", gitea.ListRepoTopicsOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)
	})

	t.Run("replace normalises", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("PUT", R, map[string]any{"topics": []string{"Go", "  rust ", "go"}}, basicAs("carol")...)
		is.Equal(r.Status, http.StatusNoContent)
		is.Equal(socialTopics(t, srv, "carol", "tagged"), []string{"go", "rust"})
		// Sorted, and shown on the repository too.
		resp, err := carol.SetRepoTopics("carol", "tagged", []string{"zig", "c", "Go", "rust"})
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		list, _, err := carol.ListRepoTopics("carol", "tagged", gitea.ListRepoTopicsOptions{})
		is.NoErr(err)
		is.Equal(list, []string{"c", "go", "rust", "zig"})
		_, repo := getRepoAs(t, srv, "carol", "tagged", basicAs("carol")...)
		is.Equal(repo.Topics, []string{"c", "go", "rust", "zig"})
	})

	t.Run("invalid topics", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("PUT", R, map[string]any{"topics": []string{"fine", "-dash", " Has Space ", "ÜBER"}}, basicAs("carol")...)
		is.Equal(r.Status, http.StatusUnprocessableEntity)
		var body struct {
			InvalidTopics []string `json:"invalidTopics"`
			Message       string   `json:"message"`
		}
		r.Decode(t, &body)
		// Listed as they would have been stored: trimmed and lower-cased.
		is.Equal(body.InvalidTopics, []string{"-dash", "has space", "über"})
		is.Equal(body.Message, "Topic names are invalid")
		// Too long (36 characters).
		r = srv.Do("PUT", R, map[string]any{"topics": []string{strings.Repeat("a", 36)}}, basicAs("carol")...)
		is.Equal(r.Status, http.StatusUnprocessableEntity)
		// 26 distinct topics.
		var many []string
		for i := range 26 {
			many = append(many, fmt.Sprintf("topic-%02d", i))
		}
		r = srv.Do("PUT", R, map[string]any{"topics": many}, basicAs("carol")...)
		is.Equal(r.Status, http.StatusUnprocessableEntity)
		is.True(strings.Contains(r.Message(), "Exceeding maximum number of topics per repo"))
		// Nothing changed.
		is.Equal(socialTopics(t, srv, "carol", "tagged"), []string{"c", "go", "rust", "zig"})
		// 25 are fine, and then no single one more.
		is.Equal(srv.Do("PUT", R, map[string]any{"topics": many[:25]}, basicAs("carol")...).Status, http.StatusNoContent)
		is.Equal(len(socialTopics(t, srv, "carol", "tagged")), 25)
		r = srv.Do("PUT", R+"/extra", nil, basicAs("carol")...)
		is.Equal(r.Status, http.StatusUnprocessableEntity)
		is.True(strings.Contains(r.Message(), "Exceeding maximum allowed topics per repo"))
		// Adding one it already has is no addition.
		is.Equal(srv.Do("PUT", R+"/topic-00", nil, basicAs("carol")...).Status, http.StatusNoContent)
		is.Equal(len(socialTopics(t, srv, "carol", "tagged")), 25)
		// An empty list clears them.
		is.Equal(srv.Do("PUT", R, map[string]any{"topics": []string{}}, basicAs("carol")...).Status, http.StatusNoContent)
		is.Equal(socialTopics(t, srv, "carol", "tagged"), []string{})
	})

	t.Run("add and remove one", func(t *testing.T) {
		is := is.New(t)
		resp, err := carol.AddRepoTopic("carol", "tagged", "Docker")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		is.Equal(srv.Do("PUT", R+"/go", nil, basicAs("carol")...).Status, http.StatusNoContent)
		is.Equal(srv.Do("PUT", R+"/go", nil, basicAs("carol")...).Status, http.StatusNoContent)
		is.Equal(socialTopics(t, srv, "carol", "tagged"), []string{"docker", "go"})
		r := srv.Do("PUT", R+"/Bad%20Topic", nil, basicAs("carol")...)
		is.Equal(r.Status, http.StatusUnprocessableEntity)
		is.True(strings.Contains(string(r.Body), `"invalidTopics"`))
		is.True(strings.Contains(string(r.Body), `"bad topic"`)) // normalised, as Gitea names it
		is.Equal(srv.Do("DELETE", R+"/-bad", nil, basicAs("carol")...).Status, http.StatusUnprocessableEntity)

		resp, err = carol.DeleteRepoTopic("carol", "tagged", "DOCKER")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		// Removing one it lacks succeeds.
		is.Equal(srv.Do("DELETE", R+"/docker", nil, basicAs("carol")...).Status, http.StatusNoContent)
		is.Equal(socialTopics(t, srv, "carol", "tagged"), []string{"go"})
	})

	t.Run("search counts repositories", func(t *testing.T) {
		is := is.New(t)
		resp, err := carol.SetRepoTopics("carol", "second", []string{"go", "cli"})
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		goTopic := searchTopic(t, srv, "go")
		is.True(goTopic != nil)
		is.True(goTopic.ID > 0)
		is.Equal(goTopic.RepoCount, 2)
		is.True(!goTopic.Created.IsZero())
		is.Equal(searchTopic(t, srv, "cli").RepoCount, 1)
		// The raw envelope.
		r := srv.Do("GET", "/topics/search?q=cl", nil)
		is.Equal(r.Status, http.StatusOK)
		var raw struct {
			Topics []map[string]any `json:"topics"`
		}
		r.Decode(t, &raw)
		is.Equal(len(raw.Topics), 1)
		is.Equal(raw.Topics[0]["topic_name"], "cli")
		for _, k := range []string{"id", "repo_count", "created", "updated"} {
			_, ok := raw.Topics[0][k]
			is.True(ok) // TopicResponse field
		}

		resp, err = carol.DeleteRepo("carol", "second")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		is.Equal(searchTopic(t, srv, "go").RepoCount, 1)
		is.True(searchTopic(t, srv, "cli") == nil) // used by no repository any more
		// Removing the topic from the last repository drops it from the search.
		is.Equal(srv.Do("DELETE", R+"/go", nil, basicAs("carol")...).Status, http.StatusNoContent)
		is.True(searchTopic(t, srv, "go") == nil)
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		body := map[string]any{"topics": []string{"x"}}
		// Reading needs only read access.
		is.Equal(srv.Do("GET", R, nil).Status, http.StatusOK)
		is.Equal(srv.Do("GET", R, nil, basicAs("sam")...).Status, http.StatusOK)
		assertAPIError(t, srv.Do("GET", "/repos/carol/quiet/topics", nil), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/repos/carol/quiet/topics", nil, basicAs("sam")...), http.StatusNotFound, "")
		// Writing needs a sign-in and repository admin.
		assertAPIError(t, srv.Do("PUT", R, body), http.StatusUnauthorized, msgTokenRequired)
		assertAPIError(t, srv.Do("PUT", R+"/x", nil), http.StatusUnauthorized, msgTokenRequired)
		assertAPIError(t, srv.Do("DELETE", R+"/x", nil), http.StatusUnauthorized, msgTokenRequired)
		for _, who := range []string{"sam", "rita"} {
			assertAPIError(t, srv.Do("PUT", R, body, basicAs(who)...), http.StatusForbidden, msgRepoAdmin)
			assertAPIError(t, srv.Do("PUT", R+"/x", nil, basicAs(who)...), http.StatusForbidden, msgRepoAdmin)
			assertAPIError(t, srv.Do("DELETE", R+"/x", nil, basicAs(who)...), http.StatusForbidden, msgRepoAdmin)
		}
		assertAPIError(t, srv.Do("PUT", "/repos/carol/quiet/topics", body, basicAs("sam")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("PUT", "/repos/carol/quiet/topics", body), http.StatusNotFound, "")
		is.Equal(srv.Do("PUT", R+"/by-ada", nil, basicAs("ada")...).Status, http.StatusNoContent)
		is.Equal(srv.Do("PUT", R+"/by-admin", nil, socialAdmin(srv)...).Status, http.StatusNoContent)
		is.Equal(socialTopics(t, srv, "carol", "tagged"), []string{"by-ada", "by-admin"})
		// Tokens.
		scopeWantDenied(is, srv.Do("PUT", R, body, tokenHeader(srv, "carol", "read:repository")...), "write:repository", "read:repository")
		assertAPIError(t, srv.Do("PUT", "/repos/carol/quiet/topics", body, tokenHeader(srv, "carol", "public-only", "write:repository")...),
			http.StatusForbidden, msgPublicOnly)
		// An archived repository keeps its topics.
		_, _, err := carol.EditRepo("carol", "tagged", gitea.EditRepoOption{Archived: gitea.OptionalBool(true)})
		is.NoErr(err)
		assertAPIError(t, srv.Do("PUT", R, body, basicAs("carol")...), http.StatusLocked, "carol/tagged is archived")
		assertAPIError(t, srv.Do("PUT", R+"/x", nil, basicAs("carol")...), http.StatusLocked, "carol/tagged is archived")
		is.Equal(srv.Do("GET", R, nil).Status, http.StatusOK)
	})
}
