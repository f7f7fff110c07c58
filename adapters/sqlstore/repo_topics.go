package sqlstore

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var topicMapping = mapping{op: "topic", missingRef: "repository does not exist"}

var _ ports.TopicStore = (*TopicStore)(nil)

// TopicStore is the SQL implementation of ports.TopicStore.
type TopicStore struct{ c conn }

// Replace sets the repository's topics in one transaction: it creates the
// topics not seen before, swaps the repository's links, recounts every
// topic it gained or lost, and rewrites the repository's topics column that
// reads use. Topics are normalised, de-duplicated and sorted on the way in;
// validating them is the caller's job.
func (s *TopicStore) Replace(ctx context.Context, repoID int64, topics []string) error {
	names := normalizeTopicNames(topics)
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		// Writing the column first also locks the repository, so two
		// replacements of one repository's topics run one after the other.
		res, err := tx.NewUpdate().Model((*repoRow)(nil)).Set("topics = ?", strings.Join(names, ",")).
			Where("id = ?", repoID).Exec(ctx)
		if err := repoMapping.affected(res, err); err != nil {
			return err
		}
		var affected []int64
		err = tx.NewSelect().Model((*repoTopicRow)(nil)).Column("topic_id").Where("rt.repo_id = ?", repoID).Scan(ctx, &affected)
		if err != nil {
			return topicMapping.mapErr(err)
		}
		var newIDs []int64
		if len(names) > 0 {
			t := now()
			rows := make([]topicRow, len(names))
			for i, n := range names {
				rows[i] = topicRow{Name: n, Created: t, Updated: t}
			}
			// Sorted names make concurrent creators wait for each other in
			// one order rather than deadlock.
			if _, err := tx.NewInsert().Model(&rows).ExcludeColumn("id").On("CONFLICT (name) DO NOTHING").Exec(ctx); err != nil {
				return topicMapping.mapErr(err)
			}
			err = tx.NewSelect().Model((*topicRow)(nil)).Column("id").Where("tp.name IN (?)", bun.List(names)).Scan(ctx, &newIDs)
			if err != nil {
				return topicMapping.mapErr(err)
			}
		}
		affected = append(affected, newIDs...)
		if err := lockRows(ctx, tx, "topics", affected); err != nil {
			return topicMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*repoTopicRow)(nil)).Where("repo_id = ?", repoID).Exec(ctx); err != nil {
			return topicMapping.mapErr(err)
		}
		if len(newIDs) > 0 {
			links := make([]repoTopicRow, len(newIDs))
			for i, id := range newIDs {
				links[i] = repoTopicRow{RepoID: repoID, TopicID: id}
			}
			if _, err := tx.NewInsert().Model(&links).Exec(ctx); err != nil {
				return topicMapping.mapErr(err)
			}
		}
		return recountTopics(ctx, tx, affected)
	})
}

func normalizeTopicNames(topics []string) []string {
	seen := make(map[string]bool, len(topics))
	names := make([]string, 0, len(topics))
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

// recountTopics recomputes the repository count of the topics listed from
// their links, in one statement.
func recountTopics(ctx context.Context, tx bun.IDB, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := tx.NewUpdate().Model((*topicRow)(nil)).
		Set("repo_count = (SELECT count(*) FROM repo_topics AS x WHERE x.topic_id = tp.id)").
		Set("updated = ?", now()).
		Where("tp.id IN (?)", bun.List(ids)).
		Exec(ctx)
	return topicMapping.mapErr(err)
}

// Search lists the topics in use whose name contains keyword (all when it
// is empty), most used first and then by name, one page, and the total.
func (s *TopicStore) Search(ctx context.Context, keyword string, opts ports.ListOptions) ([]ports.TopicCount, int64, error) {
	var rows []topicRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("tp.repo_count > 0")
	if kw := strings.ToLower(strings.TrimSpace(keyword)); kw != "" {
		sel = sel.Where("tp.name LIKE ? ESCAPE '!'", likeContains(kw))
	}
	sel = sel.OrderExpr("tp.repo_count DESC").OrderExpr("tp.name ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, topicMapping.mapErr(err)
	}
	out := domainAll(rows, (*topicRow).toDomain)
	return out, total, nil
}

type topicRow struct {
	bun.BaseModel `bun:"table:topics,alias:tp"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Name      string    `bun:"name"`
	RepoCount int       `bun:"repo_count"`
	Created   time.Time `bun:"created,nullzero"`
	Updated   time.Time `bun:"updated,nullzero"`
}

type repoTopicRow struct {
	bun.BaseModel `bun:"table:repo_topics,alias:rt"`

	RepoID  int64 `bun:"repo_id,pk"`
	TopicID int64 `bun:"topic_id,pk"`
}

func (r *topicRow) toDomain() ports.TopicCount {
	return ports.TopicCount{
		ID: r.ID, Name: r.Name, RepoCount: r.RepoCount, Created: domainTime(r.Created), Updated: domainTime(r.Updated),
	}
}
