package main

import (
	"context"
	"errors"
	"os"

	"github.com/depothq/depot/adapters/githttp"
)

// cmdHook is `depot hook pre-receive|post-receive`, which git runs during a
// push served by Depot: it hands the ref updates on stdin to the running
// service. Its error, printed by main, is what the pusher sees.
func cmdHook(ctx context.Context, args []string, getenv func(string) string) error {
	if len(args) != 1 {
		return errors.New("usage: depot hook pre-receive|post-receive (run by git during a push)")
	}
	return githttp.RunHook(ctx, args[0], getenv, os.Stdin)
}
