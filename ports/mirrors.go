package ports

// MirrorStore persists pull-mirror settings and sync state (the mirrors
// helper defines its methods).
type MirrorStore interface{}

// PushMirrorStore persists push mirrors (the mirrors helper defines its
// methods).
type PushMirrorStore interface{}
