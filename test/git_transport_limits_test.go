package test

// Limits and malformed input of the Git transports, beyond git_http_test.go and
// git_ssh_test.go: a 50 MB push over HTTP, huge request headers, and more
// malformed and truncated requests over HTTP and SSH, each followed by a
// check that nothing moved and that the repository passes git fsck.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// serverObjectCounts is git count-objects -v of the server's copy of owner/name:
// what a refused push must leave as it was.
func serverObjectCounts(t *testing.T, srv *testserver.Server, owner, name string) string {
	t.Helper()
	var keep []string
	for _, line := range strings.Split(httpGitOK(t, repoDir(srv, owner, name), "count-objects", "-v"), "\n") {
		if k, _, _ := strings.Cut(line, ":"); k == "count" || k == "in-pack" || k == "packs" || k == "garbage" {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "; ")
}

// checkNoQuarantine fails when a push left a quarantine directory behind.
func checkNoQuarantine(t *testing.T, srv *testserver.Server, owner, name string) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(repoDir(srv, owner, name), "objects", "tmp_objdir-incoming-*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Fatalf("quarantine left behind: %v", left)
	}
}

// sendRawRequest sends raw bytes on a new connection to srv and returns the status
// code of the answer (0 when none could be read). Writing may fail once the
// server has answered and closed: the answer is what counts.
func sendRawRequest(t *testing.T, srv *testserver.Server, raw []byte) int {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	go func() { _, _ = conn.Write(raw) }()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// packBetween is a pack of the objects reachable from id but not from base,
// made in the work tree dir.
func packBetween(t *testing.T, dir, id, base string) []byte {
	t.Helper()
	cmd := exec.Command("git", "pack-objects", "--stdout", "--revs", "-q")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(id + "\n^" + base + "\n")
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("pack-objects: %v", err)
	}
	return data
}

func TestGitHTTPLargePush(t *testing.T) {
	is := is.New(t)
	srv, alice := httpGitSetup(t)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "big", AutoInit: true})
	work := httpGitClone(t, httpGitURL(srv, "alice", "big", "alice", userPassword))

	// 50 MB that no compression shrinks, in one blob: the pack is as big.
	const size = 50 << 20
	f, err := os.Create(filepath.Join(work, "big.bin"))
	is.NoErr(err)
	rng := rand.NewChaCha8([32]byte{5, 0})
	buf := make([]byte, 1<<20)
	for range size / len(buf) {
		_, _ = rng.Read(buf)
		_, err := f.Write(buf)
		is.NoErr(err)
	}
	is.NoErr(f.Close())
	httpGitOK(t, work, "add", "big.bin")
	httpGitOK(t, work, "commit", "-q", "-m", "fifty megabytes")
	id := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))
	blob := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD:big.bin"))

	httpGitOK(t, work, "push", "-q", "origin", "main")
	is.Equal(httpGitRef(t, srv, "alice", "big", "refs/heads/main"), id)
	dir := repoDir(srv, "alice", "big")
	is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "main:big.bin")), blob) // the same content
	is.Equal(strings.TrimSpace(httpGitOK(t, dir, "cat-file", "-s", blob)), fmt.Sprint(size))
	r, _, err := alice.GetRepo("alice", "big")
	is.NoErr(err)
	is.True(r.Size >= size>>10) // the post-receive hook measured it (KiB)
	c, _, err := alice.GetSingleCommit("alice", "big", "main")
	is.NoErr(err)
	is.Equal(c.SHA, id) // and the API reads it
	checkNoQuarantine(t, srv, "alice", "big")
	httpGitFsck(t, srv, "alice", "big")

	// It comes back whole over HTTP too (a shallow fetch of the one commit).
	back := httpGitClone(t, srv.URL+"/alice/big.git", "--depth", "1", "--bare")
	is.Equal(strings.TrimSpace(httpGitOK(t, back, "rev-parse", "HEAD:big.bin")), blob)
	httpGitOK(t, back, "fsck", "--no-progress")
}

func TestGitHTTPHugeHeaders(t *testing.T) {
	t.Parallel()
	srv, alice := httpGitSetup(t)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", AutoInit: true, Private: true})
	head := httpGitRef(t, srv, "alice", "code", "refs/heads/main")
	info := "/alice/code.git/info/refs?service=git-upload-pack"
	big := strings.Repeat("a", 2<<20)     // over net/http's 1 MB header limit
	large := strings.Repeat("b", 900<<10) // under it

	t.Run("OverTheLimit", func(t *testing.T) {
		is := is.New(t)
		for _, req := range []string{
			"GET " + info + " HTTP/1.1\r\nHost: x\r\nX-Padding: " + big + "\r\n\r\n",
			"POST /alice/code.git/git-receive-pack HTTP/1.1\r\nHost: x\r\nAuthorization: Basic " + big +
				"\r\nContent-Type: application/x-git-receive-pack-request\r\nContent-Length: 4\r\n\r\n0000",
			"GET " + info + " HTTP/1.1\r\nHost: x\r\n" + strings.Repeat("X-Many: yes\r\n", 200_000) + "\r\n",
			"GET /" + big + ".git/info/refs?service=git-upload-pack HTTP/1.1\r\nHost: x\r\n\r\n", // a huge request line
		} {
			is.Equal(sendRawRequest(t, srv, []byte(req)), http.StatusRequestHeaderFieldsTooLarge)
		}
	})

	t.Run("LargeButAllowed", func(t *testing.T) {
		is := is.New(t)
		// A header the server accepts, however large, is judged like any:
		// Basic credentials that do not decode are no credentials (as for
		// the API), so a private repository asks for some; a password that
		// large is wrong; a token that large is unknown; a Git-Protocol
		// that is no protocol is dropped; a padding header is ignored.
		secret := "/alice/secret.git/info/refs?service=git-upload-pack"
		r := srv.Do("GET", srv.URL+secret, nil, "Authorization", "Basic "+large)
		is.Equal(r.Status, http.StatusUnauthorized)
		is.Equal(r.Header.Get("WWW-Authenticate"), `Basic realm="Depot"`)
		r = srv.Do("GET", srv.URL+secret, nil, "Authorization", testserver.Basic("alice", large[:600<<10]))
		is.Equal(r.Status, http.StatusUnauthorized)
		r = srv.Do("GET", srv.URL+info, nil, "Authorization", "token "+large)
		is.Equal(r.Status, http.StatusUnauthorized)
		r = srv.Do("GET", srv.URL+info, nil, "Git-Protocol", "version=2:"+large)
		is.Equal(r.Status, http.StatusOK)
		is.True(strings.HasPrefix(string(r.Body), "001e# service=git-upload-pack\n")) // version 0
		r = srv.Do("GET", srv.URL+info, nil, "X-Padding", large)
		is.Equal(r.Status, http.StatusOK)
		r = srv.Do("POST", srv.URL+"/alice/code.git/git-upload-pack", "0000", "Content-Type", "application/x-"+large)
		is.Equal(r.Status, http.StatusUnsupportedMediaType)
		r = srv.Do("GET", srv.URL+"/alice/"+strings.Repeat("c", 64<<10)+".git"+strings.TrimPrefix(info, "/alice/code.git"), nil)
		is.True(r.Status == http.StatusNotFound || r.Status == http.StatusUnauthorized) // no such repository
	})

	// The server still serves, and nothing moved.
	is := is.New(t)
	dir := httpGitClone(t, srv.URL+"/alice/code.git")
	is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), head)
	httpGitFsck(t, srv, "alice", "code")
}

func TestGitHTTPMalformedRequests(t *testing.T) {
	t.Parallel()
	srv, alice := httpGitSetup(t)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	head := httpGitRef(t, srv, "alice", "code", "refs/heads/main")
	work := httpGitClone(t, srv.URL+"/alice/code.git")
	id := httpGitCommit(t, work, "z.txt", strings.Repeat("z\n", 5000), "z")
	pack := packBetween(t, work, id, head)
	update := httpGitPkt(head+" "+id+" refs/heads/main\x00 report-status\n") + "0000"
	corrupt := []byte(string(pack))
	corrupt[len(corrupt)/2] ^= 0xff // a flipped byte inside the data
	badSum := []byte(string(pack))
	badSum[len(badSum)-1] ^= 0xff // the trailing checksum
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(update + string(pack)))
	_ = zw.Close()
	truncatedGzip := gz.Bytes()[:gz.Len()/2]
	before := serverObjectCounts(t, srv, "alice", "code")

	const (
		upload  = "application/x-git-upload-pack-request"
		receive = "application/x-git-receive-pack-request"
	)
	cases := []struct {
		name, service, body string
		header              []string
		status              int // 0: any 4xx, or 200 with the refusal told in-band
	}{
		{"UploadShortLength", "git-upload-pack", "00", nil, http.StatusBadRequest},
		{"UploadLengthBelowFour", "git-upload-pack", "0003", nil, http.StatusBadRequest},
		{"UploadLengthPastTheEnd", "git-upload-pack", "00ffwant " + head + "\n", nil, http.StatusBadRequest},
		{"UploadNotHex", "git-upload-pack", "00zzwant\n0000", nil, http.StatusBadRequest},
		{"UploadUnknownObject", "git-upload-pack", httpGitPkt("want "+strings.Repeat("1", 40)+"\n") + "0000" + httpGitPkt("done\n"), nil, 0},
		{"UploadNotAWant", "git-upload-pack", httpGitPkt("gimme everything\n") + "0000", nil, 0},
		{"UploadV2UnknownCommand", "git-upload-pack", httpGitPkt("command=rm-rf\n") + "0000", []string{"Git-Protocol", "version=2"}, 0},
		{"UploadV2TruncatedFetch", "git-upload-pack", httpGitPkt("command=fetch\n") + "0001" + httpGitPkt("want "+head+"\n"), []string{"Git-Protocol", "version=2"}, 0},
		{"ReceiveShortLength", "git-receive-pack", "00a", nil, http.StatusBadRequest},
		{"ReceiveUpdateWithoutPack", "git-receive-pack", update, nil, 0},
		{"ReceivePackSignatureOnly", "git-receive-pack", update + "PACK", nil, 0},
		{"ReceiveTruncatedPack", "git-receive-pack", update + string(pack[:len(pack)-100]), nil, 0},
		{"ReceiveCorruptPack", "git-receive-pack", update + string(corrupt), nil, 0},
		{"ReceiveBadChecksum", "git-receive-pack", update + string(badSum), nil, 0},
		{"ReceiveWrongObjectCount", "git-receive-pack", update + recountPack(pack, 1000), nil, 0},
		{"ReceiveTruncatedGzip", "git-receive-pack", string(truncatedGzip), []string{"Content-Encoding", "gzip"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			ct := upload
			if tc.service == "git-receive-pack" {
				ct = receive
			}
			h := append([]string{"Content-Type", ct}, basicAs("alice")...)
			r := srv.Do("POST", srv.URL+"/alice/code.git/"+tc.service, tc.body, append(h, tc.header...)...)
			if tc.status != 0 {
				is.Equal(r.Status, tc.status)
			} else {
				is.True(r.Status == http.StatusOK || (r.Status >= 400 && r.Status < 500)) // never a 5xx
			}
			is.True(!bytes.Contains(r.Body, []byte("ok refs/heads/main"))) // never accepted
			is.True(!bytes.Contains(r.Body, []byte("PACK")))               // and no pack sent back
			is.Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/main"), head)
			is.Equal(serverObjectCounts(t, srv, "alice", "code"), before) // nothing landed
			checkNoQuarantine(t, srv, "alice", "code")
		})
	}

	// The same pack, whole, is accepted: the cases above failed for what
	// they broke, not for what they carried.
	is := is.New(t)
	r := srv.Do("POST", srv.URL+"/alice/code.git/git-receive-pack", update+string(pack),
		append([]string{"Content-Type", receive}, basicAs("alice")...)...)
	is.Equal(r.Status, http.StatusOK)
	is.True(bytes.Contains(r.Body, []byte("ok refs/heads/main")))
	is.Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/main"), id)
	httpGitFsck(t, srv, "alice", "code")
}

// recountPack rewrites a pack's object count to n (and its checksum, so
// that only the count is wrong).
func recountPack(pack []byte, n uint32) string {
	p := []byte(string(pack[:len(pack)-sha1.Size]))
	p[8], p[9], p[10], p[11] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	sum := sha1.Sum(p)
	return string(p) + string(sum[:])
}

func TestGitSSHMalformedRequests(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSSH())
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	key, _ := sshGitUserKey(t, alice, "laptop")
	head := httpGitRef(t, srv, "alice", "code", "refs/heads/main")
	work := httpGitClone(t, srv.URL+"/alice/code.git")
	id := httpGitCommit(t, work, "z.txt", strings.Repeat("z\n", 5000), "z")
	pack := packBetween(t, work, id, head)
	update := httpGitPkt(head+" "+id+" refs/heads/main\x00 report-status\n") + "0000"
	before := serverObjectCounts(t, srv, "alice", "code")
	client, err := sshGitDial(t, srv, "git", key)
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct{ name, command, stdin string }{
		{"UploadGarbage", "git-upload-pack 'alice/code.git'", "zzzzgarbage"},
		{"UploadShortLength", "git-upload-pack 'alice/code.git'", "00"},
		{"ReceiveGarbage", "git-receive-pack 'alice/code.git'", "zzzzgarbage"},
		{"ReceiveTruncatedPack", "git-receive-pack 'alice/code.git'", update + string(pack[:len(pack)/2])},
		{"ReceiveSignatureOnly", "git-receive-pack 'alice/code.git'", update + "PACK"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			sess, err := client.NewSession()
			is.NoErr(err)
			defer sess.Close()
			sess.Stdin = strings.NewReader(tc.stdin)
			var out bytes.Buffer
			sess.Stdout = &out
			err = sess.Run(tc.command)
			// Git refuses: with its exit status, or, once it has read the
			// commands of a push, in its report (unpack error, ng).
			is.True(err != nil || strings.Contains(out.String(), "ng refs/heads/main unpacker error"))
			is.True(!strings.Contains(out.String(), "ok refs/heads/main"))
			is.Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/main"), head)
			is.Equal(serverObjectCounts(t, srv, "alice", "code"), before)
			checkNoQuarantine(t, srv, "alice", "code")
		})
	}
	httpGitFsck(t, srv, "alice", "code")
}
