package githttp

import (
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// TestPackCacheKey checks what makes two whole-history fetches the same
// answer: the repository, its refs, git's configuration and the request's
// flags and capabilities, but not the client's agent or the order of its
// wants; and which requests are never kept.
func TestPackCacheKey(t *testing.T) {
	main := strings.Repeat("a1", 20)
	tag := strings.Repeat("b2", 20)
	dev := strings.Repeat("c3", 20)
	inv := Invocation{Dir: "/data/repos/alice/app.git", RepoID: 7, Protocol: "version=2"}
	head := &ports.GitWireRef{Name: "HEAD", ObjectID: main, SymrefTarget: "refs/heads/main"}
	refs := []ports.GitWireRef{{Name: "refs/heads/dev", ObjectID: dev}, {Name: "refs/heads/main", ObjectID: main},
		{Name: "refs/tags/v1", ObjectID: tag}}
	clone := func(lines ...string) *fetchRequest {
		req, _, ok := readFetch(strings.NewReader(v2Plain("fetch", lines...)))
		if !ok {
			t.Fatalf("not a fetch: %q", lines)
		}
		return &req
	}
	plain := clone("thin-pack", "ofs-delta", "include-tag", "want "+main, "want "+dev, "want "+tag, "done")
	key := func(inv Invocation, config v2Key, req *fetchRequest, head *ports.GitWireRef, refs []ports.GitWireRef) string {
		k, ok := packCacheKey(inv, config, req, head, refs)
		if !ok {
			t.Fatalf("not kept: %+v", req)
		}
		return k
	}
	base := key(inv, v2Key{}, plain, head, refs)

	t.Run("Same", func(t *testing.T) {
		is := is.New(t)
		is.Equal(len(base), 64)
		// Another order of wants and flags, a want twice, another agent.
		again := clone("want "+tag, "include-tag", "want "+dev, "ofs-delta", "want "+main, "want "+main, "thin-pack",
			"done")
		again.capabilities = append(again.capabilities, "agent=git/2.47.0")
		is.Equal(key(inv, v2Key{}, again, head, refs), base)
		withSession := clone("thin-pack", "ofs-delta", "include-tag", "want "+main, "want "+dev, "want "+tag, "done")
		withSession.capabilities = append(withSession.capabilities, "session-id=abc")
		is.Equal(key(inv, v2Key{}, withSession, head, refs), base)
	})

	t.Run("Different", func(t *testing.T) {
		is := is.New(t)
		moved := []ports.GitWireRef{refs[0], {Name: "refs/heads/main", ObjectID: dev}, refs[2]}
		renamed := []ports.GitWireRef{refs[0], {Name: "refs/heads/trunk", ObjectID: main}, refs[2]}
		tagged := append(append([]ports.GitWireRef{}, refs...), ports.GitWireRef{Name: "refs/tags/v2", ObjectID: tag})
		withOption := clone("thin-pack", "ofs-delta", "include-tag", "want "+main, "want "+dev, "want "+tag, "done")
		withOption.capabilities = append(withOption.capabilities, "server-option=x")
		other := map[string]string{
			"another repository": key(Invocation{Dir: "/data/repos/bob/app.git", RepoID: 8, Protocol: "version=2"},
				v2Key{}, plain, head, refs),
			"the wiki": key(Invocation{Dir: inv.Dir, RepoID: 7, Protocol: "version=2", Wiki: true}, v2Key{}, plain,
				head, refs),
			"a ref moved":      key(inv, v2Key{}, plain, head, moved),
			"a ref renamed":    key(inv, v2Key{}, plain, head, renamed),
			"a new tag":        key(inv, v2Key{}, plain, head, tagged),
			"HEAD elsewhere":   key(inv, v2Key{}, plain, &ports.GitWireRef{Name: "HEAD", ObjectID: main}, refs),
			"no HEAD":          key(inv, v2Key{}, plain, nil, refs),
			"configuration":    key(inv, v2Key{config: fileStamp{present: true, size: 10}}, plain, head, refs),
			"no progress":      key(inv, v2Key{}, clone("thin-pack", "ofs-delta", "include-tag", "no-progress", "want "+main, "want "+dev, "want "+tag, "done"), head, refs),
			"without include":  key(inv, v2Key{}, clone("thin-pack", "ofs-delta", "want "+main, "want "+dev, "want "+tag, "done"), head, refs),
			"fewer wants":      key(inv, v2Key{}, clone("thin-pack", "ofs-delta", "include-tag", "want "+main, "done"), head, refs),
			"a server option":  key(inv, v2Key{}, withOption, head, refs),
			"another protocol": key(Invocation{Dir: inv.Dir, RepoID: 7, Protocol: "version=2:x=y"}, v2Key{}, plain, head, refs),
		}
		seen := map[string]string{base: "the first"}
		for name, k := range other {
			if was, dup := seen[k]; dup {
				t.Errorf("%s has the key of %s", name, was)
			}
			seen[k] = name
		}
		is.Equal(len(seen), len(other)+1)
	})

	t.Run("NotKept", func(t *testing.T) {
		is := is.New(t)
		_, ok := packCacheKey(inv, v2Key{}, clone("want "+main, "have "+dev, "done"), head, refs)
		is.True(!ok) // a fetch that has objects already
		_, ok = packCacheKey(inv, v2Key{}, clone("want "+strings.Repeat("d4", 20), "done"), head, refs)
		is.True(!ok) // a want that is no ref's tip
		_, ok = packCacheKey(inv, v2Key{}, plain, head, refs[:2])
		is.True(!ok) // the tag is gone
		_, ok = packCacheKey(inv, v2Key{}, clone("want "+main, "done"), head, nil)
		is.True(ok) // HEAD's object is a tip
	})
}
