package githttp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzRunHookInput fuzzes the ref updates git writes to a push hook's
// standard input: the hook either refuses the push with a message, or
// posts every line, unchanged and in order, to the service.
func FuzzRunHookInput(f *testing.F) {
	zero, id := strings.Repeat("0", 40), strings.Repeat("ab", 20)
	for _, s := range []string{zero + " " + id + " refs/heads/main\n" + id + " " + zero + " refs/tags/v1\n",
		id + " " + id + " refs/heads/x", "", "\n", "garbage\n", id + " " + id + " \n", id + "  " + id + " refs/heads/y\r\n"} {
		f.Add(s)
	}
	var got hookRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = hookRequest{}
		if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	f.Cleanup(srv.Close)
	env := map[string]string{EnvHookURL: srv.URL, EnvHookSecret: "s", EnvRepoID: "1", EnvPusherID: "2"}
	f.Fuzz(func(t *testing.T, stdin string) {
		got = hookRequest{Changes: []hookChange{{Ref: "unset"}}}
		err := RunHook(context.Background(), "pre-receive", func(k string) string { return env[k] }, strings.NewReader(stdin))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("a refusal without a message")
			}
			return
		}
		lines := strings.Split(stdin, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if len(got.Changes) != len(lines) || got.RepoID != 1 || got.PusherID != 2 {
			t.Fatalf("%d lines posted as %+v", len(lines), got)
		}
		for i, c := range got.Changes {
			if c.Old+" "+c.New+" "+c.Ref != strings.TrimSuffix(lines[i], "\r") && c.Old+" "+c.New+" "+c.Ref != lines[i] {
				t.Fatalf("line %q posted as %+v", lines[i], c)
			}
		}
	})
}
