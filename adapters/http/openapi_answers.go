package http

import "reflect"

// rawBody stands for an answer that is not JSON (raw files, archives,
// diffs, rendered HTML, armoured keys).
type rawBody struct{}

// rawAnswer marks such an answer in the document (a file).
var rawAnswer = reflect.TypeFor[rawBody]()

// openapiAnswersByHand are the answers of the rows whose handlers answer
// something other than JSON, or pass their value through a helper that the
// generator cannot follow to a concrete type. A row listed here replaces
// the generated answers.
var openapiAnswersByHand = map[string][]operationAnswer{
	"GET /swagger":            {{303, nil}},
	"GET /version":            {{200, reflect.TypeFor[versionDTO]()}},
	"GET /signing-key.gpg":    {{200, rawAnswer}},
	"GET /user/gpg_key_token": {{200, rawAnswer}},
	"POST /markdown":          {{200, rawAnswer}},
	"POST /markdown/raw":      {{200, rawAnswer}},
	"POST /markup":            {{200, rawAnswer}},
}

func init() {
	raw := []operationAnswer{{200, rawAnswer}}
	for _, key := range []string{
		"GET " + R + "/signing-key.gpg",
		"GET " + R + "/archive/{archive:.*}",
		"GET " + R + "/{ball_type:tarball|zipball|bundle}/{ref:.*}",
		"GET " + R + "/raw/{filepath:.*}",
		"HEAD " + R + "/raw/{filepath:.*}",
		"GET " + R + "/media/{filepath:.*}",
		"HEAD " + R + "/media/{filepath:.*}",
		"GET " + R + "/pulls/{index:[0-9]+}.diff",
		"GET " + R + "/pulls/{index:[0-9]+}.patch",
		"POST " + R + "/markdown",
		"POST " + R + "/markdown/raw",
		"POST " + R + "/markup",
		"GET " + R + "/actions/jobs/{job_id}/logs",
		"GET " + R + "/actions/artifacts/{artifact_id}/zip/raw",
	} {
		openapiAnswersByHand[key] = raw
	}
	comments := []operationAnswer{{200, reflect.TypeFor[[]commentDTO]()}}
	for key, answers := range map[string][]operationAnswer{
		"GET " + R + "/issues/comments":                        comments,
		"GET " + R + "/issues/{index}/comments":                comments,
		"GET " + R + "/issues/{index}/timeline":                {{200, reflect.TypeFor[[]timelineDTO]()}},
		"DELETE " + R + "/issues/comments/{id}/reactions":      {{200, nil}},
		"DELETE " + R + "/issues/{index}/reactions":            {{200, nil}},
		"POST " + R + "/issues/{index}/stopwatch/start":        {{201, nil}},
		"POST " + R + "/issues/{index}/stopwatch/stop":         {{201, nil}},
		"DELETE " + R + "/issues/{index}/stopwatch/delete":     {{204, nil}},
		"PUT " + R + "/issues/{index}/subscriptions/{user}":    {{200, nil}, {201, nil}},
		"DELETE " + R + "/issues/{index}/subscriptions/{user}": {{200, nil}, {201, nil}},
		"GET " + R + "/actions/artifacts/{artifact_id}/zip":    {{302, nil}},
		"GET /activitypub/user-id/{user-id}":                   {{200, reflect.TypeFor[personDTO]()}},
		"GET /activitypub/user/{username}":                     {{200, reflect.TypeFor[personDTO]()}},
		"POST " + R + "/mirror-sync":                           {{200, nil}},
		"POST " + R + "/push_mirrors-sync":                     {{200, nil}},
		"POST " + R + "/pulls/{index}/merge":                   {{200, nil}},
		"POST " + R + "/pulls/{index}/update":                  {{200, nil}},
	} {
		openapiAnswersByHand[key] = answers
	}
}

// versionDTO is the answer of GET /version, which its handler writes from
// bytes made once.
type versionDTO struct {
	Version string `json:"version"`
}
