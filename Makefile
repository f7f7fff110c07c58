# Depot — make targets. `make run` and `make test` work on a fresh Debian 12
# machine with only Go installed: `deps` installs the system packages.

BIN        := bin/depot
GO         ?= go
APT_PKGS   := libgit2-dev pkg-config git openssh-client gnupg
PG_DSN     ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build run test test-short generate check-generate bench bench-dump fuzz vet fmt clean

all: build

## deps: install the Debian packages the build and the tests need, when missing
deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

## build: compile bin/depot and bin/depot-hook (the push hooks' small program)
build: deps
	$(GO) build -o $(BIN) ./cmd/depot
	$(GO) build -o bin/depot-hook ./cmd/depot-hook

## run: build and start the server on 127.0.0.1:3000 (Git over SSH on
## 127.0.0.1:2222) with SQLite under ./data
run: build
	./$(BIN) serve --ssh-listen 127.0.0.1:2222 --rate-limit $(ARGS)

## test: every test — unit, store (SQLite and Postgres) and end to end
test: deps
	DEPOT_TEST_POSTGRES_DSN="$${DEPOT_TEST_POSTGRES_DSN:-$(PG_DSN)}" $(GO) test -count=1 -parallel 4 -timeout 40m ./...

## generate: regenerate wire/wire_gen.go and adapters/http/openapi_types_gen.go
generate:
	$(GO) tool wire gen ./wire
	$(GO) generate ./adapters/http

## check-generate: fail when wire_gen.go is stale
check-generate:
	@out=$$($(GO) tool wire diff ./wire 2>&1); status=$$?; \
	if [ $$status -ne 0 ] && [ -n "$$out" ]; then echo "$$out"; echo "wire_gen.go is stale: run make generate"; exit 1; fi

## bench: start bin/depot, measure start-up, idle memory and throughput with
## bin/loadgen and with wrk, run the Go benchmarks, and write docs/benchmarks.md
## (BENCH_ARGS passes loadgen flags, e.g. BENCH_ARGS='-d 3s -quiet-wait 0').
## wrk is installed when missing; without it the suite measures with loadgen only.
bench: build
	@dpkg -s wrk >/dev/null 2>&1 || { \
		echo "installing: wrk"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; \
	} || echo "bench: could not install wrk; measuring with loadgen only"
	$(GO) build -o bin/loadgen ./cmd/loadgen
	./bin/loadgen -suite -depot $(BIN) -go $(GO) -c 32 -d 10s -out docs/benchmarks.md $(BENCH_ARGS)

# bench-dump times `depot dump` of 1,000 repositories and 100,000 issues
# (target: under 60 s; DEPOT_BENCH_POSTGRES=1 for Postgres).
bench-dump: deps
	$(GO) test ./test -run '^$$' -bench '^BenchmarkSiteDump$$' -benchtime 1x -timeout 30m

## fuzz: run every fuzz target (func Fuzz… in a _test.go file) for FUZZTIME
## each, one at a time; FUZZFLAGS passes more flags (e.g. -parallel 1).
## An input that fails is kept in the package's testdata/fuzz/<Name>/ and
## then runs in `make test` as a regression case. `make test` runs every
## target on its seeds and kept inputs only.
FUZZTIME  ?= 30s
FUZZFLAGS ?=
fuzz: deps
	@set -e; for dir in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
		for name in $$($(GO) test -list '^Fuzz' $$dir | grep '^Fuzz'); do \
			echo "== $$dir $$name ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $(FUZZFLAGS) $$dir; \
		done; \
	done

vet:
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin
