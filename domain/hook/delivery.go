package hook

import "time"

// Delivery is one event's payload queued for one hook, and the record of
// sending it. It is written in the transaction of the change that caused the
// event (an outbox) and updated after each attempt.
type Delivery struct {
	ID int64
	// UUID names the delivery to the receiver (X-Service-Delivery); it stays
	// the same across retries, so a receiver can drop a repeated delivery.
	UUID   string
	HookID int64
	// RepoID is the repository the event happened in.
	RepoID int64
	// Event is Gitea's event name (push, create, delete, …), sent as
	// X-Service-Event; EventType is the finer type sent as
	// X-Service-Event-Type (Gitea's issue sub-events report "issues" as the
	// event and e.g. "issue_assign" as the type).
	Event, EventType string
	// Payload is the body rendered for the hook's kind, before the content
	// type's encoding (a form hook sends it as the payload= field).
	Payload []byte
	// Attempts counts the tries made so far.
	Attempts int
	// Last is what the last try did; zero before the first.
	Last    Attempt
	Created time.Time
}

// Attempt is what one try of sending a delivery did.
type Attempt struct {
	// Request is the request as sent (the Authorization header masked).
	RequestURL     string
	RequestMethod  string
	RequestHeaders map[string]string
	// ResponseStatus is 0 when no response came (a network error or a
	// refusal by the outbound guard; ResponseBody then says why).
	ResponseStatus  int
	ResponseHeaders map[string]string
	// ResponseBody is at most MaxResponseBody bytes of the answer.
	ResponseBody string
	Success      bool
	Delivered    time.Time
}

// MaxResponseBody bounds the stored part of a receiver's answer.
const MaxResponseBody = 16 << 10
