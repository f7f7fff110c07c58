package test

import (
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// TestHTTPGitStalledClientCutOff: a client that stops reading a fetch's
// answer does not hold git for ever. Once the answer has waited the site's
// AnswerIdleTimeout for the client to take more, the connection is cut and
// git ends, both where git writes on the connection itself (the handed
// answer: the kernel's TCP_USER_TIMEOUT) and where the server copies git's
// output (a shallow fetch: a write deadline). What reached the client is
// short of the pack.
func TestHTTPGitStalledClientCutOff(t *testing.T) {
	srv, alice := httpGitSetup(t, testserver.WithSettings(func(s *site.Settings) {
		s.Connections.AnswerIdleTimeout = time.Second
	}))
	head := httpGitNoiseRepo(t, srv, alice, "pub")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"Handed", []string{"no-progress", "ofs-delta", "want " + head, "done"}},
		{"Streamed", []string{"no-progress", "ofs-delta", "deepen 1", "want " + head, "done"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			resp := sendFetch(t, srv, "alice", "pub", fetchBody(c.args...))
			defer resp.Body.Close()
			is.Equal(resp.StatusCode, http.StatusOK)
			first := make([]byte, 4096)
			_, err := io.ReadFull(resp.Body, first)
			is.NoErr(err)
			is.True(len(gitUploadPacks(t)) > 0) // git is writing, into buffers about to fill
			// The client reads nothing more for now.
			is.Equal(waitNoUploadPacks(t, 30*time.Second), []string{})
			rest, _ := io.ReadAll(resp.Body) // what the buffers held, then the cut
			is.True(len(first)+len(rest) < noiseBytes)
		})
	}
}

// TestHTTPGitAnswerIdleKeepsConnection: the write deadline a streamed
// answer sets while it goes out does not outlive it: the next request on
// the same connection, asked for after a pause longer than
// AnswerIdleTimeout, is answered whole.
func TestHTTPGitAnswerIdleKeepsConnection(t *testing.T) {
	is := is.New(t)
	srv, alice := httpGitSetup(t, testserver.WithSettings(func(s *site.Settings) {
		s.Connections.AnswerIdleTimeout = time.Second
	}))
	head := httpGitNoiseRepo(t, srv, alice, "pub")
	// A negotiation round (no done, a have the server lacks): streamed, and
	// the connection stays.
	round := fetchBody("no-progress", "ofs-delta", "want "+head, "have "+strings.Repeat("1", 40))
	var reused []bool
	post := func() string {
		req, err := http.NewRequest("POST", srv.URL+"/alice/pub.git/git-upload-pack", strings.NewReader(round))
		is.NoErr(err)
		req.Header.Set("Content-Type", "application/x-git-upload-pack-request")
		req.Header.Set("Git-Protocol", "version=2")
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			GotConn: func(i httptrace.GotConnInfo) { reused = append(reused, i.Reused) },
		}))
		resp, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		defer resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusOK)
		is.True(!resp.Close)
		body, err := io.ReadAll(resp.Body)
		is.NoErr(err)
		return string(body)
	}
	first := post()
	is.Equal(first, "0014acknowledgments\n0008NAK\n0000")
	time.Sleep(1500 * time.Millisecond)
	is.Equal(post(), first)
	is.Equal(len(reused), 2)
	is.True(reused[1]) // the same connection
}
