package hooks

import (
	"encoding/json"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// TestSlackDeleteEscapesRefName: a deleted branch's name is written into
// the Slack text escaped, so a branch called "<http://evil|click>" shows
// as text instead of a link (found by FuzzHookPayloads).
func TestSlackDeleteEscapesRefName(t *testing.T) {
	is := is.New(t)
	alice := &user.User{ID: 1, Name: "alice"}
	r := &repository.Repository{ID: 7, Name: "repo", Owner: repository.Owner{ID: 1, Name: "alice"}}
	c := payloadContext{payloads: fakePayloads{}, baseURL: "http://h", repo: r, owner: alice, sender: alice}
	ep := c.remove(refEvent{event: hook.EventDelete, change: repository.RefChange{OldID: "1", NewID: "0",
		Ref: "refs/heads/<http://evil|click> & <!channel>"}})
	b, err := ep.render(hook.KindSlack)
	is.NoErr(err)
	var m slackPayload
	is.NoErr(json.Unmarshal(b, &m))
	is.Equal(m.Text, "[<http://h/alice/repo|alice/repo>:&lt;http://evil|click&gt; &amp; &lt;!channel&gt;] branch deleted by alice")
}
