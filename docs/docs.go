// Package docs carries the project documents the server serves itself, so
// that what a running Depot links to (the url of every API error) is there
// in every build, without a network.
package docs

import _ "embed"

// API is docs/api.md, Depot's API conventions and coverage, served at
// /api/docs.
//
//go:embed api.md
var API []byte
