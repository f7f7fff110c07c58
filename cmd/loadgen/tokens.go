package main

// The credentials the suite's loads send: tokens of the administrator, whose
// password the server logs on its first start, and of an ordinary user the
// administrator creates.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// otherUser is the ordinary user the suite creates; it owns no repository
// and collaborates on none, so its searches see the public ones.
const otherUser = "someone"

// makeTokens creates the tokens of every tokenKind.
func makeTokens(ctx context.Context, base, adminPassword string) (map[tokenKind]string, error) {
	tokens := map[tokenKind]string{}
	var err error
	if tokens[userToken], err = createToken(ctx, base, "admin", adminPassword, "bench", "read:user"); err != nil {
		return nil, err
	}
	repoScopes := []string{"write:repository", "read:user"}
	if tokens[repoToken], err = createToken(ctx, base, "admin", adminPassword, "bench-repos", repoScopes...); err != nil {
		return nil, err
	}
	pw, err := createUser(ctx, base, adminPassword, otherUser)
	if err != nil {
		return nil, err
	}
	if tokens[otherToken], err = createToken(ctx, base, otherUser, pw, "bench-repos", repoScopes...); err != nil {
		return nil, err
	}
	return tokens, nil
}

// createUser makes an active account that need not change its password,
// with the administrator's Basic auth, and returns its password.
func createUser(ctx context.Context, base, adminPassword, name string) (string, error) {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	pw := "Bench-" + hex.EncodeToString(b) + "-1a"
	no := false
	_, err := basicPost(ctx, base+"/api/v1/admin/users", "admin", adminPassword, map[string]any{
		"username": name, "email": name + "@bench.invalid", "password": pw, "must_change_password": &no,
	})
	if err != nil {
		return "", fmt.Errorf("creating user %s: %w", name, err)
	}
	return pw, nil
}

// createToken makes a token with the scopes for user, with Basic auth.
func createToken(ctx context.Context, base, user, password, name string, scopes ...string) (string, error) {
	data, err := basicPost(ctx, base+"/api/v1/users/"+user+"/tokens", user, password,
		map[string]any{"name": name, "scopes": scopes})
	if err != nil {
		return "", fmt.Errorf("creating a token for %s: %w", user, err)
	}
	var t struct {
		SHA1 string `json:"sha1"`
	}
	if err := json.Unmarshal(data, &t); err != nil || t.SHA1 == "" {
		return "", fmt.Errorf("creating a token for %s: no secret in %s", user, data)
	}
	return t.SHA1, nil
}

// basicPost sends body as JSON with Basic auth and returns the answer's
// body, or an error unless the answer is 201 Created.
func basicPost(ctx context.Context, url, user, password string, body any) ([]byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(user, password)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("%s: %s", resp.Status, data)
	}
	return data, nil
}

// signIns sends n GET /api/v1/user with the administrator's password at
// once (each an Argon2id verification) and wants 200 from each.
func signIns(ctx context.Context, base, password string, n int) error {
	errs := make(chan error, n)
	for range n {
		go func() {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/v1/user", nil)
			if err != nil {
				errs <- err
				return
			}
			req.SetBasicAuth("admin", password)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs <- err
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("sign-in: GET /api/v1/user answered %d", resp.StatusCode)
			}
			errs <- err
		}()
	}
	var first error
	for range n {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}
