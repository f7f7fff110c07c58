// Command openapigen writes adapters/http/openapi_types_gen.go (see package
// openapigen); `go generate ./adapters/http` runs it.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/depothq/depot/adapters/http/openapigen"
)

func main() {
	out := flag.String("o", "openapi_types_gen.go", "file to write")
	flag.Parse()
	src, err := openapigen.Generate(".")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
