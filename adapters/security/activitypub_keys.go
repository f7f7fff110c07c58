package security

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"

	"github.com/depothq/depot/ports"
)

var _ ports.ActorKeyPairs = ActorKeyPairs{}

// actorKeyBits is the size of an actor's RSA key: 2048 bits, what the
// ActivityPub servers (Mastodon among them) make and every one accepts;
// Gitea makes 4096, which costs seconds to generate on first need.
const actorKeyBits = 2048

// ActorKeyPairs implements ports.ActorKeyPairs with RSA.
type ActorKeyPairs struct{}

// NewActorKeyPair returns a new pair as PEM blocks.
func (ActorKeyPairs) NewActorKeyPair() (publicPEM, privatePEM string, err error) {
	key, err := rsa.GenerateKey(rand.Reader, actorKeyBits)
	if err != nil {
		return "", "", err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return "", "", err
	}
	publicPEM = string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}))
	privatePEM = string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	return publicPEM, privatePEM, nil
}
