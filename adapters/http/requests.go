package http

import (
	"encoding/base64"
	"strconv"

	"github.com/depothq/depot/domain/errs"
)

// What several resources read from requests: numbers in paths and query
// parameters, and the base64 image of the avatar routes.

// itoa formats an id for a URL.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// queryBool reads an optional boolean query parameter; a malformed one is a 400.
func queryBool(q *request, name string) (*bool, error) {
	v := q.r.URL.Query().Get(name)
	if v == "" {
		return nil, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return nil, errs.BadRequest(name + ": must be true or false")
	}
	return &b, nil
}

// queryInt reads an optional integer query parameter; a malformed one is a 400.
func queryInt(q *request, name string) (int64, error) {
	v := q.r.URL.Query().Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, errs.BadRequest(name + ": must be an integer")
	}
	return n, nil
}

// parsePositive reads a positive decimal integer.
func parsePositive(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, errs.BadRequest("must be a positive integer")
	}
	return n, nil
}

// pathID reads a positive integer path variable; anything else is a 404, as
// no such resource can exist.
func pathID(q *request, name string) (int64, error) {
	id, err := parsePositive(q.var_(name))
	if err != nil {
		return 0, errs.NotFound("not found")
	}
	return id, nil
}

// avatarImage reads Gitea's UpdateUserAvatarOption / UpdateRepoAvatarOption:
// 422 without an image, 400 when it is not base64 (as Gitea answers).
func avatarImage(q *request) ([]byte, error) {
	var b struct {
		Image string `json:"image"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return nil, err
	}
	if b.Image == "" {
		return nil, errs.Invalid("Required", "Image")
	}
	img, err := base64.StdEncoding.DecodeString(b.Image)
	if err != nil {
		return nil, errs.BadRequest("image: invalid base64")
	}
	return img, nil
}
