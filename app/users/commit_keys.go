package users

import (
	"context"
	"strings"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// sshSignaturePrefix starts an SSH signature in a commit's gpgsig header
// (git's gpg.format=ssh); anything else is taken for OpenPGP.
const sshSignaturePrefix = "-----BEGIN SSH SIGNATURE-----"

// sshGitNamespace is the namespace git signs commits in.
const sshGitNamespace = "git"

// CommitKeys are an account's GPG keys, SSH keys and addresses, read once
// to check the signatures of the commits it committed.
type CommitKeys struct {
	keys  []*user.GPGKey
	ssh   []string // "ssh-ed25519 AAAA…"
	owned []*user.Email
	gpg   ports.GPGKeys
	sshv  ports.SSHKeys
}

// CommitKeys reads accountID's keys and addresses.
func (s GPGKeys) CommitKeys(ctx context.Context, accountID int64) (*CommitKeys, error) {
	if s.gpg == nil || s.stores.GPGKeys == nil { // use-case tests wire neither
		return &CommitKeys{}, nil
	}
	keys, _, err := s.stores.GPGKeys.List(ctx, accountID, ports.ListOptions{})
	if err != nil {
		return nil, err
	}
	var sshKeys []string
	if s.sshKeys != nil && s.stores.PublicKeys != nil {
		list, _, err := s.stores.PublicKeys.List(ctx, accountID, "", ports.ListOptions{})
		if err != nil {
			return nil, err
		}
		for _, k := range list {
			sshKeys = append(sshKeys, k.Content)
		}
	}
	if len(keys) == 0 && len(sshKeys) == 0 {
		return &CommitKeys{}, nil
	}
	owned, err := s.stores.Emails.ListByUser(ctx, accountID)
	if err != nil {
		return nil, err
	}
	return &CommitKeys{keys: keys, ssh: sshKeys, owned: owned, gpg: s.gpg, sshv: s.sshKeys}, nil
}

// Signer returns the id of the key that made signature over payload, for a
// commit whose committer address is committerEmail, or "" when none of the
// keys that may vouch for that address made it. An OpenPGP signature's is
// the key id of a GPG key that may vouch for the address
// (user.GPGKeyVouchesFor); an SSH signature's is the SHA256 fingerprint of
// one of the account's SSH keys, when the address is one of the account's
// activated ones (Gitea's check; Depot counts every key the account added,
// as it has no separate proof of holding an SSH key).
func (k *CommitKeys) Signer(committerEmail, signature, payload string) string {
	if strings.HasPrefix(strings.TrimSpace(signature), sshSignaturePrefix) {
		if k.sshv == nil || len(k.ssh) == 0 || !user.AddressActivated(committerEmail, k.owned) {
			return ""
		}
		fp, err := k.sshv.SignerOf(k.ssh, sshGitNamespace, signature, payload)
		if err != nil {
			return ""
		}
		return fp
	}
	for _, key := range k.keys {
		if !user.GPGKeyVouchesFor(key, committerEmail, k.owned) {
			continue
		}
		signer, err := k.gpg.SignerOf(key.Armored, signature, []string{payload})
		if err == nil && signer == key.KeyID {
			return key.KeyID
		}
	}
	return ""
}

// ServerSigner returns the id of the key that made signature over payload
// when it is the armoured OpenPGP public key given (Depot's own signing
// key, which vouches for the commits Depot writes), "" otherwise.
func (s GPGKeys) ServerSigner(armored []byte, signature, payload string) string {
	if s.gpg == nil || len(armored) == 0 || strings.HasPrefix(strings.TrimSpace(signature), sshSignaturePrefix) {
		return ""
	}
	id, err := s.gpg.SignerOf(string(armored), signature, []string{payload})
	if err != nil {
		return ""
	}
	return id
}
