package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestAnswerKind(t *testing.T) {
	is := is.New(t)
	get := httptest.NewRequest(http.MethodGet, "/admin/r.git/info/refs?service=git-upload-pack", nil)
	is.Equal(answerKind(get, nil), answerAdvertisement)
	post := func(body []byte, gz bool) string {
		r := httptest.NewRequest(http.MethodPost, "/admin/r.git/git-upload-pack", nil)
		if gz {
			var b bytes.Buffer
			z := gzip.NewWriter(&b)
			_, _ = z.Write(body)
			_ = z.Close()
			body = b.Bytes()
			r.Header.Set("Content-Encoding", "gzip")
		}
		return answerKind(r, body)
	}
	is.Equal(post([]byte("0014command=ls-refs\n0000"), false), answerLsRefs)
	is.Equal(post([]byte("0012command=fetch\n0000"), false), answerFetch)
	is.Equal(post([]byte("0012command=fetch\n0000"), true), answerFetch) // git compresses large requests
	is.Equal(post([]byte("not gzip"), true), "")
	is.Equal(post([]byte("0016command=bundle-uri\n0000"), false), "")
	push := httptest.NewRequest(http.MethodPost, "/admin/r.git/git-receive-pack", nil)
	is.Equal(answerKind(push, []byte("command=fetch")), "")
}

// TestGitRecordingServe: the replaying server answers each kind of request
// with its recorded answer and type, and anything else with 404.
func TestGitRecordingServe(t *testing.T) {
	is := is.New(t)
	g := &gitRecording{answers: map[string]recordedAnswer{
		answerAdvertisement: {contentType: "application/x-git-upload-pack-advertisement", body: []byte("000eversion 2\n0000")},
		answerFetch:         {contentType: "application/x-git-upload-pack-result", body: []byte("000dpackfile\n0000")},
	}}
	base, stop, err := g.serve()
	is.NoErr(err)
	defer stop()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(base + "/admin/r.git/info/refs?service=git-upload-pack")
	is.NoErr(err)
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	is.Equal(resp.Header.Get("Content-Type"), "application/x-git-upload-pack-advertisement")
	is.Equal(string(body), "000eversion 2\n0000")

	resp, err = client.Post(base+"/admin/r.git/git-upload-pack", "application/x-git-upload-pack-request",
		strings.NewReader("0012command=fetch\n0000"))
	is.NoErr(err)
	body, _ = io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	is.Equal(resp.ContentLength, int64(len("000dpackfile\n0000")))
	is.Equal(string(body), "000dpackfile\n0000")

	resp, err = client.Post(base+"/admin/r.git/git-upload-pack", "application/x-git-upload-pack-request",
		strings.NewReader("0014command=ls-refs\n0000")) // not recorded
	is.NoErr(err)
	_ = resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusNotFound)
}
