package content

import (
	"context"
	"strings"

	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/ports"
)

// FirstUnverified returns the id of the first of list whose signature is
// not verified, "" when every one is, as the commits API says (verify):
// made by one of its committer's keys or by serverKey, the public key
// Depot signs its own commits with (nil when it signs none). It is the
// check of the branch protection's "require signed commits".
func (s Commits) FirstUnverified(ctx context.Context, list []ports.CommitDetail, serverKey []byte) (string, error) {
	addrs := make([]string, 0, len(list))
	for _, c := range list {
		addrs = append(addrs, c.Committer.Email)
	}
	accounts, err := s.usersByEmails(ctx, addrs)
	if err != nil {
		return "", err
	}
	keys := map[int64]*users.CommitKeys{}
	for _, c := range list {
		if c.Signature == nil {
			return c.ID, nil
		}
		v, err := s.verify(ctx, c, accounts[strings.ToLower(c.Committer.Email)], keys, serverKey)
		if err != nil {
			return "", err
		}
		if !v.Verified {
			return c.ID, nil
		}
	}
	return "", nil
}
