//go:build !linux

package githttp

import "os/exec"

// dieWithServer leaves git to exec's default elsewhere than Linux: cancelling
// kills git itself, and git sees its input end when the server dies.
func dieWithServer(cmd *exec.Cmd) {}
