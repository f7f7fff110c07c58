package repos

// committedNotifier is implemented by an events port that queues work for
// background workers: told once the queuing transaction has ended, they
// need not wait for their next poll.
type committedNotifier interface{ Notify() }

// notifyEvents wakes the events port's workers after a transaction that
// may have queued deliveries. Waking them after one that failed costs a
// look at the queue and nothing else.
func (s *Service) notifyEvents() {
	if n, ok := s.events.(committedNotifier); ok {
		n.Notify()
	}
}
