# Talent Suite: `make run` starts the whole product, `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# The tests create and drop their own databases here (trust auth, as on the dev machines).
TEST_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/postgres
export TEST_POSTGRES_URL

.PHONY: help fmt build run run-release client-deps build-client build-server test test-deps lint lint-rust lint-client test-rust soak fuzz examples test-client e2e schema bench bench-growth bench-lighthouse bench-organizations bench-admin bench-token

help:
	@echo "make run     install what is needed, build the site, serve everything on http://localhost:8080"
	@echo "make test    every test: format, lint, Rust on SQLite and PostgreSQL, client unit, browser end to end"
	@echo "make schema  re-export schema.graphql after changing the GraphQL schema"

client-deps:
	@if [ ! -d client/node_modules ] || [ client/package-lock.json -nt client/node_modules/.package-lock.json ]; then \
		npm --prefix client ci --no-audit --no-fund --loglevel=error; fi

build-client: client-deps
	npm --prefix client run build

## The product: server + built site, SQLite in data/, mail kept for http://localhost:8080/dev/mailbox.
# APP_ENV=local is what lets the server read the checked-in .env (a process with no APP_ENV
# refuses to start, so a production host never picks up a stray .env).
# The site is installed and built while Rust compiles: they share nothing until the server starts.
run:
	@$(MAKE) --no-print-directory -j2 build-client build-server
	APP_ENV=local cargo run -q -p api -- serve

# The release build, with jemalloc (the allocator the benchmarks measure).
run-release:
	@$(MAKE) --no-print-directory -j2 build-client build-server CARGO_PROFILE="--release --features jemalloc"
	APP_ENV=local cargo run -q --release --features jemalloc -p api -- serve

build-server:
	cargo build $(CARGO_PROFILE) -p api

# Each suite in turn, timed, so the slow one is visible at the end. Suites joined by + run side
# by side at the same priority (the soak holds its load for a fixed minute, the fuzzer and the
# browser suite wait on one server: the client's unit tests, the Python example and ESLint
# share the two cores with them), and --beside runs one from the first suite to the last under
# `nice`.
#
# Clippy lints inside the test build: with clippy-driver as cargo's workspace wrapper, each of
# our own crates is compiled and linted in one pass (every warning an error, as `cargo clippy
# --all-targets -- -D warnings`), and the dependencies are compiled once, by rustc, instead of a
# second time as Clippy's check-only artifacts. Every cargo call of the run sees these two
# variables; without them our crates would be compiled again, unlinted (cargo keeps the two
# builds apart, so neither undoes the other).
LINT_IN_BUILD := RUSTC_WORKSPACE_WRAPPER=clippy-driver CLIPPY_ARGS=-Dwarnings
#
# What the suites need (scripts/test-deps.sh: Chromium, PostgreSQL, schemathesis, the Python
# example's packages, the npm packages) is installed while the test binaries build: the install
# is mostly pip and npm, the build leaves a core idle at its start and its end. A subset names
# what it needs, e.g. `make test SUITES="test-deps fmt test-rust"`.
SUITES ?= test-deps+build fmt test-rust soak+test-client+examples fuzz+lint-client e2e
test:
	@$(LINT_IN_BUILD) ./scripts/run-suites.sh $(SUITES)

test-deps:
	./scripts/test-deps.sh

## The test binaries and the server's (which the soak, fuzz, example and browser suites run):
## one build for every suite.
build:
	cargo test --workspace --no-run

lint: lint-rust lint-client

fmt:
	cargo fmt --all --check

# Clippy on its own (`make test` lints inside its build instead), in a target directory of its
# own: its artifacts are check-only and share nothing with the build's, and it never waits on
# the build's lock.
lint-rust: fmt
	CARGO_TARGET_DIR=target/lint cargo clippy --all-targets -- -D warnings

lint-client: client-deps
	npm --prefix client run lint

# The tests wait on PostgreSQL, SMTP and their servers far more than they compute: with one
# thread per core (the default) the 383 integration tests kept under half a core busy. Eight
# at a time fill the two cores (see BENCHMARKS.md, "Build and test time").
TEST_THREADS ?= 8
test-rust:
	cargo test --workspace -- --skip soak_ --test-threads=$(TEST_THREADS)

## Two server processes on one PostgreSQL under a mixed load, alone so nothing else skews it.
SOAK_SECONDS ?= 60
export SOAK_SECONDS
soak:
	cargo test -p api --test api soak_ -- --nocapture

## schemathesis against /api/openapi.json and /api/graphql on a fresh server (the test binary).
fuzz:
	cargo test --workspace --no-run -q
	./scripts/fuzz.sh

## docs/sso.md's Python example (Authlib) signs a person in against a real server.
examples:
	cargo test --workspace --no-run -q
	./scripts/check-python-example.sh

test-client:
	npm --prefix client test

e2e: build-client
	# The binary `cargo test` built (same features), so the browser suite adds no second build.
	cargo test --workspace --no-run -q
	npm --prefix client run e2e

## Hot calls, hashing and memory beside the peer; organizations at size; the admin console; the
## OpenID token endpoint beside oidc-provider; then Lighthouse on the five public routes.
bench: build-client
	./bench/run.sh
	$(MAKE) --no-print-directory bench-organizations
	$(MAKE) --no-print-directory bench-admin
	$(MAKE) --no-print-directory bench-token
	./bench/lighthouse.sh

## The members page and a 500-address invitation: 10 members against 10,000 (both databases).
bench-organizations:
	DATABASE=sqlite ./bench/organizations.sh
	DATABASE=postgres ./bench/organizations.sh

## The admin console: user search over 1,000,000 accounts, the 100,000-row CSV export (both databases).
bench-admin:
	DATABASE=sqlite ./bench/admin.sh
	DATABASE=postgres ./bench/admin.sh

## The OpenID token endpoint (code exchange with PKCE, refresh rotation) beside oidc-provider,
## same RS256 key, ours on both databases and the peer in one run.
bench-token:
	./bench/token.sh

## Lighthouse (mobile, Debian's Chromium) on /, /login, /register, /platforms/hire and /about.
bench-lighthouse: build-client
	./bench/lighthouse.sh

## Verify, sign-in and the news list with a million accounts and sessions stored (both databases).
bench-growth:
	DATABASE=sqlite ./bench/growth.sh
	DATABASE=postgres ./bench/growth.sh

schema:
	cargo run -q -p api -- export-schema --out schema.graphql
