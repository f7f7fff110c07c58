package githttp

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestPktFramesWhole(t *testing.T) {
	cases := []struct {
		name   string
		chunks []string
		whole  bool
	}{
		{"nothing yet", nil, true},
		{"one packet", []string{"000aabcdef"}, true},
		{"packets and a flush", []string{"0008NAK\n", "0000"}, true},
		{"delim and response end", []string{"0001", "0002"}, true},
		{"header cut", []string{"00"}, false},
		{"header alone", []string{"0009"}, false},
		{"side-band header, then its data", []string{"0009\x01", "abcd"}, true},
		{"side-band header, data short", []string{"0009\x01", "abc"}, false},
		{"header split over reads", []string{"000", "5x"}, true},
		{"upper-case length", []string{"000Axxxxxx"}, true},
		{"pack without side-band", []string{"0008NAK\n", "PACK\x00\x00"}, true},
		{"raw stays raw", []string{"PACK", "00"}, true},
		{"empty packet", []string{"0004", "0006ab"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			var f pktFrames
			for _, c := range tc.chunks {
				f.feed([]byte(c))
			}
			is.Equal(f.whole(), tc.whole)
		})
	}
}

// TestStreamOutputCopiesAll: what a process writes, in pieces and beyond
// the copy buffer, reaches the client whole and in order, with the status
// and headers of an answer, and the process's exit status is returned.
func TestStreamOutputCopiesAll(t *testing.T) {
	is := is.New(t)
	// 600 KiB of side-band packets (each header written apart from its
	// data, as git does) and a flush packet.
	var want bytes.Buffer
	payload := bytes.Repeat([]byte("x"), 65515)
	for range 10 {
		want.WriteString("fff0\x01")
		want.Write(payload)
	}
	want.WriteString("0000")
	script := `i=0; while [ $i -lt 10 ]; do printf 'fff0\001'; head -c 65515 /dev/zero | tr '\0' x; i=$((i+1)); done; printf 0000; exit 3`
	ended := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stdout, gitOut, err := os.Pipe()
		if err != nil {
			ended <- err
			return
		}
		defer stdout.Close()
		growPipe(stdout)
		cmd := exec.Command("sh", "-c", script)
		cmd.Stdout = gitOut
		err = cmd.Start()
		_ = gitOut.Close()
		if err != nil {
			ended <- err
			return
		}
		out := &streamWriter{w: w, rc: http.NewResponseController(w), contentType: "application/x-test",
			preamble: []byte("pre")}
		ended <- streamOutput(cmd, stdout, out)
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	is.NoErr(err)
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusOK)
	is.Equal(resp.Header.Get("Content-Type"), "application/x-test")
	is.Equal(resp.Header.Get("Cache-Control"), "no-cache, max-age=0, must-revalidate")
	is.True(strings.HasPrefix(string(got), "pre"))
	is.Equal(len(got)-3, want.Len())
	is.True(bytes.Equal(got[3:], want.Bytes()))
	var exit *exec.ExitError
	is.True(errors.As(<-ended, &exit))
	is.Equal(exit.ExitCode(), 3)
}
