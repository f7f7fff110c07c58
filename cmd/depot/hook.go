package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/depothq/depot/adapters/githttp"
)

// cmdHook is `depot hook pre-receive|post-receive`, which git runs during a
// push served by Depot: it hands the ref updates on stdin to the running
// service. Its error, printed by main, is what the pusher sees.
func cmdHook(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	const hookUsage = "usage: depot hook pre-receive|post-receive (run by git during a push)"
	if len(args) == 1 && isHelp(args[0]) {
		fmt.Fprintln(stdout, hookUsage)
		return flag.ErrHelp
	}
	if len(args) != 1 {
		return errors.New(hookUsage)
	}
	return githttp.RunHook(ctx, args[0], getenv, os.Stdin)
}
