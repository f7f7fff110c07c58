package ports

// CommitSigner signs the commits Depot writes itself.
type CommitSigner interface {
	// SignCommit returns the ASCII-armoured detached OpenPGP signature of a
	// commit object's content (what git verify-commit checks).
	SignCommit(content []byte) (string, error)
	// PublicKey returns the ASCII-armoured public key that verifies them.
	PublicKey() []byte
}
