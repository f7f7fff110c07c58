package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The server under measurement: a depot child process, its start, its
// memory and CPU as /proc shows them, and its stop.

// server is a depot child process.
type server struct {
	cmd         *exec.Cmd
	url         string
	logPath     string
	firstAnswer time.Duration
	done        chan struct{}
	waitErr     error
}

// startServer starts depot serve on a free loopback port with log level warn
// and returns once /api/v1/version answers, timing process start to answer.
func startServer(ctx context.Context, depot, dataDir, logPath string) (*server, error) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd := exec.Command(depot, "serve", "--listen", addr, "--data-dir", dataDir, "--log-level", "warn")
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = withoutDepotEnv(os.Environ())
	s := &server{cmd: cmd, url: "http://" + addr, logPath: logPath, done: make(chan struct{})}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { s.waitErr = cmd.Wait(); close(s.done) }()

	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	deadline := start.Add(30 * time.Second)
	for {
		resp, err := client.Get(s.url + "/api/v1/version")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				s.firstAnswer = time.Since(start)
				return s, nil
			}
		}
		select {
		case <-s.done:
			log, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("depot exited before answering (%v):\n%s", s.waitErr, log)
		case <-ctx.Done():
			s.kill()
			return nil, ctx.Err()
		default:
		}
		if time.Now().After(deadline) {
			s.kill()
			return nil, errors.New("depot did not answer within 30s")
		}
		time.Sleep(time.Millisecond) // polling resolution of the start-up time
	}
}

var passwordLine = regexp.MustCompile(`administrator account created: username admin, password (\S+)`)

// adminPassword reads the generated password from the server's log.
func (s *server) adminPassword() (string, error) {
	log, err := os.ReadFile(s.logPath)
	if err != nil {
		return "", err
	}
	m := passwordLine.FindSubmatch(log)
	if m == nil {
		return "", fmt.Errorf("no administrator password in the log:\n%s", log)
	}
	return string(m[1]), nil
}

// memory returns VmRSS and VmHWM (peak) in bytes.
func (s *server) memory() (rss, peak int64) {
	st := s.status()
	return st["VmRSS"], st["VmHWM"]
}

// anon returns RssAnon in bytes: resident memory that is the process's own,
// not pages of files it maps (the executable, libraries).
func (s *server) anon() int64 { return s.status()["RssAnon"] }

// status reads the sizes of /proc/<pid>/status, in bytes.
func (s *server) status() map[string]int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return nil
	}
	sizes := map[string]int64{}
	for line := range strings.SplitSeq(string(b), "\n") {
		name, value, _ := strings.Cut(line, ":")
		f := strings.Fields(value)
		if len(f) == 2 && f[1] == "kB" {
			kb, _ := strconv.ParseInt(f[0], 10, 64)
			sizes[name] = kb * 1024
		}
	}
	return sizes
}

// cpu returns the user+system time the server has used so far.
func (s *server) cpu() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces; the fields after it are fixed.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("unreadable /proc stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
}

// stop sends SIGTERM and waits up to 20 s for the exit code.
func (s *server) stop() (int, error) {
	select {
	case <-s.done:
	default:
		if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			return -1, err
		}
		select {
		case <-s.done:
		case <-time.After(20 * time.Second):
			s.kill()
			return -1, errors.New("depot did not stop within 20s of SIGTERM")
		}
	}
	var exit *exec.ExitError
	if errors.As(s.waitErr, &exit) {
		return exit.ExitCode(), nil
	}
	return 0, s.waitErr
}

// kill ends the process if it still runs.
func (s *server) kill() {
	select {
	case <-s.done:
	default:
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}
