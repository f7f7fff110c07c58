package http

import (
	"net/http"
	"time"
)

// repoTopics serves the topics of repositories and the topic search (catalogue 4.5).
type repoTopics struct{ *kernel }

// repoTopicRoutes are the rows of repoTopics.
func (s *kernel) repoTopicRoutes() []route {
	h := repoTopics{s}
	return []route{
		{"GET", "/topics/search", scopes(catRepo), "-", h.searchTopics},
		{"GET", R + "/topics", scopes(catRepo), "AR", h.listTopics},
		{"PUT", R + "/topics", scopes(catRepo), "T,RA,AR,NA", h.replaceTopics},
		{"PUT", R + "/topics/{topic}", scopes(catRepo), "T,RA,NA", h.addTopic},
		{"DELETE", R + "/topics/{topic}", scopes(catRepo), "T,RA,NA", h.deleteTopic},
	}
}

// listTopics answers GET R/topics.
func (s repoTopics) listTopics(q *request) error {
	topics := q.repo.Repo.Topics
	if topics == nil {
		topics = []string{}
	}
	q.json(http.StatusOK, map[string][]string{"topics": topics})
	return nil
}

// replaceTopics answers PUT R/topics.
func (s repoTopics) replaceTopics(q *request) error {
	var b struct {
		Topics []string `json:"topics"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	return noContent(q, s.repos.Topics().Replace(q.r.Context(), q.repo, b.Topics))
}

// addTopic answers PUT R/topics/{topic}.
func (s repoTopics) addTopic(q *request) error {
	return noContent(q, s.repos.Topics().Add(q.r.Context(), q.repo, q.var_("topic")))
}

// deleteTopic answers DELETE R/topics/{topic}.
func (s repoTopics) deleteTopic(q *request) error {
	return noContent(q, s.repos.Topics().Remove(q.r.Context(), q.repo, q.var_("topic")))
}

// searchTopics answers GET /topics/search.
func (s repoTopics) searchTopics(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Topics().Search(q.r.Context(), q.r.URL.Query().Get("q"), opts)
	if err != nil {
		return err
	}
	out := make([]topicDTO, len(list))
	for i, t := range list {
		out[i] = topicDTO{ID: t.ID, Name: t.Name, RepoCount: t.RepoCount, Created: t.Created.UTC(), Updated: t.Updated.UTC()}
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, map[string]any{"topics": out})
	return nil
}

// topicDTO is Gitea's TopicResponse.
type topicDTO struct {
	ID        int64     `json:"id"`
	Name      string    `json:"topic_name"`
	RepoCount int       `json:"repo_count"`
	Created   time.Time `json:"created"`
	Updated   time.Time `json:"updated"`
}
