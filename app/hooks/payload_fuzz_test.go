package hooks

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// asJSON is s as it reads back from JSON: each invalid byte becomes
// U+FFFD, as encoding/json writes it.
func asJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// validName keeps a fuzzed account or repository name only when the
// domain would have let it be created.
func validName(name, fallback string, check func(string, string) error) string {
	if check("name", name) != nil {
		return fallback
	}
	return name
}

// chatKinds are the kinds that get a message of their own; the native
// kinds get the Gitea payload.
var renderedKinds = []hook.Kind{hook.KindGitea, hook.KindSlack, hook.KindDiscord, hook.KindDingtalk}

// FuzzHookPayloads builds push, create, delete and issue payloads from
// fuzzed names, refs, commit messages, paths, titles and bodies: every
// kind renders valid JSON, the native payload carries the values as they
// were, and a Slack text opens no link that Depot did not write.
func FuzzHookPayloads(f *testing.F) {
	f.Add("alice", "repo", "bob", "refs/heads/main", "Fix <b>it</b> & more\n\nbody", "Ann <x>", "a@x", "dir/a b.txt", "Title", "comment")
	f.Add("o", "r.name", "s", "refs/tags/v1.0", "\xff\xfe", "", "", "\x00", "", "")
	f.Add("o", "r", "s", "refs/heads/<http://evil|click>", "m", "n", "e", "p", "<t>", "<!channel>")
	f.Add("o", "r", "s", "refs/heads/a/b%2F..", "\r\n", "\\", "\"", "../x", "#1", "@here")
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	f.Fuzz(func(t *testing.T, ownerName, repoName, senderName, ref, msg, authorName, authorEmail, path, title, body string) {
		ownerName = validName(ownerName, "alice", user.ValidateName)
		senderName = validName(senderName, "bob", user.ValidateName)
		repoName = validName(repoName, "repo", repository.ValidateName)
		if !strings.HasPrefix(ref, repository.BranchPrefix) && !strings.HasPrefix(ref, repository.TagPrefix) {
			ref = repository.BranchPrefix + ref
		}
		owner := &user.User{ID: 1, Name: ownerName}
		sender := &user.User{ID: 2, Name: senderName}
		r := &repository.Repository{ID: 7, Name: repoName, Owner: repository.Owner{ID: 1, Name: ownerName}}
		c := payloadContext{payloads: fakePayloads{}, baseURL: "http://h", repo: r, owner: owner, sender: sender,
			byEmail: map[string]*user.User{strings.ToLower(authorEmail): sender}}
		before, after := strings.Repeat("1", 40), strings.Repeat("2", 40)
		commit := ports.CommitDetail{GitCommitInfo: ports.GitCommitInfo{ID: after, Message: msg,
			Author:    ports.GitSignature{Name: authorName, Email: authorEmail, When: when},
			Committer: ports.GitSignature{Name: authorName, Email: authorEmail, When: when}},
			Files: []ports.CommitFileChange{{Path: path, Status: ports.CommitFileAdded}}}
		change := repository.RefChange{OldID: before, NewID: after, Ref: ref}
		i := &issue.Issue{ID: 3, RepoID: 7, Index: 4, Title: title}
		cm := &issue.Comment{ID: 9, IssueID: 3, Body: body}
		events := []*eventPayload{
			c.push(pushFacts{ref: ref, before: before, after: after, commits: []ports.CommitDetail{commit}, total: 1,
				head: &commit, compareBase: before}),
			c.create(refEvent{event: hook.EventCreate, change: change}),
			c.remove(refEvent{event: hook.EventDelete, change: change}),
			hookIssueContext(sender, cm, i).issueEvent(ports.IssueEvent{Kind: ports.IssueEventComment, Action: "created",
				Issue: i, SenderID: 2, Comment: cm, FromBody: &body}, hook.EventIssueComment),
		}
		for _, ep := range events {
			for _, k := range renderedKinds {
				b, err := ep.render(k)
				if err != nil || !json.Valid(b) {
					t.Fatalf("%s payload for %s: %v\n%s", ep.event, k, err, b)
				}
				var back map[string]any
				if err := json.Unmarshal(b, &back); err != nil {
					t.Fatalf("%s payload for %s does not parse back: %v", ep.event, k, err)
				}
				if k == hook.KindSlack {
					var m slackPayload
					if err := json.Unmarshal(b, &m); err != nil {
						t.Fatal(err)
					}
					slackLinksOwn(t, m.Text)
					for _, a := range m.Attachments {
						slackLinksOwn(t, a.Text)
					}
				}
			}
		}
		var push pushPayload
		b, _ := events[0].render(hook.KindGitea)
		if err := json.Unmarshal(b, &push); err != nil {
			t.Fatal(err)
		}
		got := push.Commits[0]
		if push.Ref != asJSON(ref) || got.Message != asJSON(msg) || got.Author.Name != asJSON(authorName) ||
			got.Author.Email != asJSON(authorEmail) || got.Author.UserName != senderName || len(got.Added) != 1 ||
			got.Added[0] != asJSON(path) || push.HeadCommit == nil || push.HeadCommit.ID != after {
			t.Fatalf("push payload %s", b)
		}
	})
}

// slackLinksOwn fails when a Slack text holds a '<' that does not open a
// link to the site: user text must come escaped, or it could link anywhere
// or ping a whole channel.
func slackLinksOwn(t *testing.T, text string) {
	t.Helper()
	for i := strings.IndexByte(text, '<'); i >= 0; {
		if !strings.HasPrefix(text[i:], "<http://h/") {
			t.Fatalf("Slack text %q opens a link of its own at %d", text, i)
		}
		next := strings.IndexByte(text[i+1:], '<')
		if next < 0 {
			break
		}
		i += 1 + next
	}
}
