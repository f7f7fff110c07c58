package sqlstore

import "github.com/depothq/depot/ports"

var _ ports.MirrorStore = (*MirrorStore)(nil)

// MirrorStore is the SQL implementation of ports.MirrorStore.
type MirrorStore struct{ c conn }

var _ ports.PushMirrorStore = (*PushMirrorStore)(nil)

// PushMirrorStore is the SQL implementation of ports.PushMirrorStore.
type PushMirrorStore struct{ c conn }
