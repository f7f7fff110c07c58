package actions

import (
	"context"
	"errors"
	"strconv"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// RunnerTokens are the use cases of runner registration tokens, one per
// scope: an account's, a repository's, or the site's (the zero scope).
type RunnerTokens struct{ *Service }

// RunnerTokens returns the runner registration token use cases.
func (s *Service) RunnerTokens() RunnerTokens { return RunnerTokens{s} }

// runnerTokenLabel binds a sealed token to its scope.
func runnerTokenLabel(scope actions.Scope) string {
	return "runner-token:" + strconv.FormatInt(scope.OwnerID, 10) + ":" + strconv.FormatInt(scope.RepoID, 10)
}

// Current returns the scope's registration token, making one when the
// scope has none yet (Gitea's GET …/registration-token).
func (s RunnerTokens) Current(ctx context.Context, scope actions.Scope) (string, error) {
	t, err := s.stores.ActionRunnerTokens.Latest(ctx, scope)
	if errors.Is(err, errs.ErrNotFound) {
		return s.Reset(ctx, scope)
	}
	if err != nil {
		return "", err
	}
	plain, err := s.box.Open(t.Sealed, runnerTokenLabel(scope))
	if err != nil {
		// A token sealed under a key since rotated cannot be shown: a new one replaces it.
		return s.Reset(ctx, scope)
	}
	return string(plain), nil
}

// Reset replaces the scope's registration token with a new one, which it
// returns; the old one no longer registers runners.
func (s RunnerTokens) Reset(ctx context.Context, scope actions.Scope) (string, error) {
	secret := actions.NewRunnerTokenSecret()
	sealed, err := s.box.Seal([]byte(secret), runnerTokenLabel(scope))
	if err != nil {
		return "", err
	}
	t := &actions.RunnerToken{Scope: scope, Hash: actions.HashRunnerToken(secret), Sealed: sealed, Created: s.clock.Now()}
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.ActionRunnerTokens.Replace(ctx, t)
	}); err != nil {
		return "", err
	}
	return secret, nil
}
