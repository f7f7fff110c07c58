package contract

import "testing"

// mirrorTests is the contract of MirrorStore/PushMirrorStore.
var mirrorTests = map[string]func(t *testing.T, f *fixture){}
