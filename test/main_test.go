package test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/depothq/depot/adapters/githttp"
	"github.com/depothq/depot/test/testserver"
)

// TestMain lets this test binary stand in for the depot executable in the
// push hooks: the in-process server runs git with the running executable as
// the hook program, which here is the test binary. After the tests it drops
// the migrated database the Postgres servers were copied from.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "hook" {
		if err := githttp.RunHook(context.Background(), os.Args[2], os.Getenv, os.Stdin); err != nil {
			fmt.Fprintln(os.Stderr, "depot:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if err := testserver.DropTemplate(); err != nil {
		fmt.Fprintln(os.Stderr, "drop the template database:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}
