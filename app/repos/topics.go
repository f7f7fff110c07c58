package repos

import (
	"context"
	"strings"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Topics are the use cases of repository topics.
type Topics struct{ *Service }

// Topics returns the topic use cases.
func (s *Service) Topics() Topics { return Topics{s} }

// Replace sets a's topics. Each is trimmed and lower-cased first, so
// that, as in Gitea, a refusal lists the invalid topics as they would have
// been stored rather than as typed.
func (s Topics) Replace(ctx context.Context, a *Access, topics []string) error {
	trimmed := make([]string, len(topics))
	for i, t := range topics {
		trimmed[i] = repository.NormalizeTopic(t)
	}
	norm, err := repository.NormalizeTopics(trimmed)
	if err != nil {
		return err
	}
	return s.writeTopics(ctx, a.Repo.ID, norm)
}

// Add adds one topic to a.
func (s Topics) Add(ctx context.Context, a *Access, topic string) error {
	t := repository.NormalizeTopic(topic)
	if !repository.ValidTopic(t) {
		return repository.InvalidTopic(t)
	}
	for _, have := range a.Repo.Topics {
		if have == t {
			return nil
		}
	}
	if len(a.Repo.Topics) >= repository.MaxTopics {
		return repository.TopicLimitError()
	}
	norm, err := repository.NormalizeTopics(append(append([]string(nil), a.Repo.Topics...), t))
	if err != nil {
		return err
	}
	return s.writeTopics(ctx, a.Repo.ID, norm)
}

// Remove removes one topic from a; removing one it lacks is a no-op.
func (s Topics) Remove(ctx context.Context, a *Access, topic string) error {
	t := repository.NormalizeTopic(topic)
	if !repository.ValidTopic(t) {
		return repository.InvalidTopic(t)
	}
	var keep []string
	for _, have := range a.Repo.Topics {
		if have != t {
			keep = append(keep, have)
		}
	}
	if len(keep) == len(a.Repo.Topics) {
		return nil
	}
	return s.writeTopics(ctx, a.Repo.ID, keep)
}

func (s Topics) writeTopics(ctx context.Context, repoID int64, topics []string) error {
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.Topics.Replace(ctx, repoID, topics)
	})
}

// Search lists topics containing keyword, most used first.
func (s Topics) Search(ctx context.Context, keyword string, opts ports.ListOptions) ([]ports.TopicCount, int64, error) {
	return s.stores.Topics.Search(ctx, strings.ToLower(strings.TrimSpace(keyword)), opts)
}
