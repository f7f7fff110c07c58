package memstore

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var _ ports.TopicStore = (*TopicStore)(nil)

// TopicStore is the in-memory ports.TopicStore. A topic's repository count
// is computed from the links on read.
type TopicStore struct{ d *DB }

func normalizeTopicNames(topics []string) []string {
	seen := map[string]bool{}
	names := []string{}
	for _, t := range topics {
		n := repository.NormalizeTopic(t)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// replaceTopics sets a repository's topics, creating the new ones.
func (s *state) replaceTopics(repoID int64, topics []string) {
	names := normalizeTopicNames(topics)
	now := dbTime(time.Now())
	touched := slices.Concat(s.repoTopics[repoID], names)
	for _, n := range names {
		if _, ok := s.topics[n]; !ok {
			s.topics[n] = topicRow{id: s.next("topics"), name: n, created: now, updated: now}
		}
	}
	for _, n := range touched {
		t := s.topics[n]
		t.updated = now
		s.topics[n] = t
	}
	if r, ok := s.repos[repoID]; ok {
		r.Topics = names
		s.repos[repoID] = r
	}
	if len(names) == 0 {
		delete(s.repoTopics, repoID)
		return
	}
	s.repoTopics[repoID] = names
}

func (s *state) topicCount(name string) int {
	n := 0
	for _, ts := range s.repoTopics {
		if slices.Contains(ts, name) {
			n++
		}
	}
	return n
}

func (s *TopicStore) Replace(ctx context.Context, repoID int64, topics []string) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.repos[repoID]; !ok {
		return errRepoNotFound
	}
	s.d.s.replaceTopics(repoID, topics)
	return nil
}

func (s *TopicStore) Search(ctx context.Context, keyword string, opts ports.ListOptions) ([]ports.TopicCount, int64, error) {
	defer s.d.lock(ctx)()
	kw := strings.ToLower(strings.TrimSpace(keyword))
	var list []ports.TopicCount
	for _, t := range s.d.s.topics {
		n := s.d.s.topicCount(t.name)
		if n == 0 || kw != "" && !strings.Contains(t.name, kw) {
			continue
		}
		list = append(list, ports.TopicCount{ID: t.id, Name: t.name, RepoCount: n, Created: t.created, Updated: t.updated})
	}
	slices.SortFunc(list, func(a, b ports.TopicCount) int {
		if c := cmp.Compare(b.RepoCount, a.RepoCount); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return page(list, opts), int64(len(list)), nil
}
