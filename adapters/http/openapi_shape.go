package http

import "reflect"

//go:generate go run ./openapigen/cmd/openapigen -o openapi_types_gen.go

// operationShape is what a row's handler decodes and answers, as the
// generator (openapigen) found it in the handler's code.
type operationShape struct {
	// body is the JSON body the handler decodes; nil when it reads none.
	body reflect.Type
	// answers are its success answers.
	answers []operationAnswer
}

// operationAnswer is one success status and the type encoded with it (nil:
// no body).
type operationAnswer struct {
	status int
	typ    reflect.Type
}
