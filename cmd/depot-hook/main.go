// Command depot-hook is the small program git runs for the push hooks of a
// repository Depot serves (`depot-hook hook pre-receive|post-receive`). It
// does what `depot hook` does, without the server's packages: a push runs
// it twice, and the full executable's start-up (its language data alone
// takes tens of milliseconds to initialise) showed in every push's time.
// The server uses it when it finds it next to its own executable.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/depothq/depot/adapters/githttp"
)

func main() {
	if len(os.Args) != 3 || os.Args[1] != "hook" {
		fmt.Fprintln(os.Stderr, "usage: depot-hook hook pre-receive|post-receive (run by git during a push)")
		os.Exit(2)
	}
	if err := githttp.RunHook(context.Background(), os.Args[2], os.Getenv, os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "depot:", err)
		os.Exit(1)
	}
}
