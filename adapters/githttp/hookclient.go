package githttp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/domain/repository"
)

// hookTimeout bounds one hook call (post-receive measures the repository).
const hookTimeout = 10 * time.Minute

// RunHook is `depot hook pre-receive|post-receive`, which git runs from the
// scripts the Runner installs: it reads git's ref updates from stdin and
// posts them, with the repository and pusher the runner put in the
// environment, to the service that started git. A returned error refuses
// the push (pre-receive) or warns the pusher (post-receive); git shows its
// text to the pusher.
func RunHook(ctx context.Context, name string, getenv func(string) string, stdin io.Reader) error {
	if name != "pre-receive" && name != "post-receive" {
		return fmt.Errorf("unknown hook %q (want pre-receive or post-receive)", name)
	}
	url, secret := getenv(EnvHookURL), getenv(EnvHookSecret)
	repoID, err1 := strconv.ParseInt(getenv(EnvRepoID), 10, 64)
	pusherID, err2 := strconv.ParseInt(getenv(EnvPusherID), 10, 64)
	if url == "" || secret == "" || err1 != nil || err2 != nil {
		return errors.New("push refused: the hook was not run by the Depot service")
	}
	req := hookRequest{RepoID: repoID, PusherID: pusherID}
	if v := getenv(EnvDeployKeyID); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return errors.New("push refused: the hook was not run by the Depot service")
		}
		req.DeployKeyID = id
	}
	if v := getenv(EnvTaskID); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return errors.New("push refused: the hook was not run by the Depot service")
		}
		req.TaskID = id
	}
	if q := getenv("GIT_QUARANTINE_PATH"); q != "" {
		req.Quarantine = filepath.Base(q)
	}
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		c, err := repository.ParseRefChange(sc.Text())
		if err != nil {
			return err
		}
		if len(req.Changes) == transport.MaxHookChanges {
			return fmt.Errorf("push refused: a push may update at most %d refs", transport.MaxHookChanges)
		}
		req.Changes = append(req.Changes, hookChange{Old: c.OldID, New: c.NewID, Ref: c.Ref})
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading the ref updates: %w", err)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, hookTimeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/"+name, bytes.NewReader(body))
	if err != nil {
		return err
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Authorization", "Bearer "+secret)
	// The service is on this host: never go through a proxy.
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	resp, err := client.Do(hr)
	if err != nil {
		return fmt.Errorf("the Depot service did not answer the %s hook: %w", name, err)
	}
	defer resp.Body.Close()
	var out hookResponse
	_ = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&out)
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	if out.Message == "" {
		out.Message = http.StatusText(resp.StatusCode)
	}
	return errors.New(out.Message)
}
