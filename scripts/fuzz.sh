#!/usr/bin/env bash
# Fuzzing from the contract: schemathesis generates requests from /api/openapi.json (every
# path and method, valid and invalid bodies, stateful sequences where the document links
# operations) and from the GraphQL schema, against a fresh server on 127.0.0.1 (its site named
# localhost, so passkeys are on). It fails on a
# 5xx, a response the document does not describe, a request that hangs, and (REST) on data the
# document calls valid being refused or data it calls invalid being accepted; the few
# answers only the server can give to well-formed values are in scripts/schemathesis.toml.
#
# Uses the debug binary `cargo test --workspace --no-run` built; schemathesis lives in
# .venv-fuzz (scripts/test-deps.sh installs it). Knobs: FUZZ_EXAMPLES (per operation),
# FUZZ_SEED, FUZZ_MAX_TIME (seconds per pass).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
BIN="$TARGET/debug/api"
ST="$ROOT/.venv-fuzz/bin/st"
EXAMPLES="${FUZZ_EXAMPLES:-100}"
SEED="${FUZZ_SEED:-20261124}"
MAX_TIME="${FUZZ_MAX_TIME:-60}"
# The REST passes together, and the GraphQL passes together, must generate at least this many
# requests; a slow machine gets further rounds of two passes (other seeds, the same time each)
# until it has, at most three.
MIN_REQUESTS="${FUZZ_MIN_REQUESTS:-5000}"
MAX_ROUNDS=3

[ -x "$BIN" ] || { echo "fuzz: $BIN is missing; run cargo test --workspace --no-run first" >&2; exit 1; }
[ -x "$ST" ] || { echo "fuzz: schemathesis is missing; run scripts/test-deps.sh" >&2; exit 1; }

work=$(mktemp -d)
server=""
jwks=""
cleanup() { for pid in $server $jwks; do kill "$pid" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
# Google sign-in configured against a local key set with no keys: every token is refused
# with 401, as a real deployment refuses a forged one.
jwks_port=$(free_port)
mkdir -p "$work/idp" && echo '{"keys":[]}' >"$work/idp/jwks.json"
python3 -m http.server "$jwks_port" --bind 127.0.0.1 --directory "$work/idp" >/dev/null 2>&1 &
jwks=$!
base="http://127.0.0.1:$port"
env -i PATH="$PATH" HOME="$HOME" APP_ENV=local APP_NAME="Talent Suite" \
  JWT_SECRET=fuzz-secret-fuzz-secret-fuzz-secret-fuzz MAIN_PLATFORM_URL="http://localhost:$port" \
  HIRE_PLATFORM_URL=http://hire.localhost:8081 CAMPUS_PLATFORM_URL=http://campus.localhost:8082 CAREER_PLATFORM_URL=http://career.localhost:8083 \
  BIND_ADDR="127.0.0.1:$port" RATE_LIMIT_PER_IP=0 DATABASE_URL="sqlite://$work/fuzz.db?mode=rwc" \
  GOOGLE_CLIENT_ID=fuzz-client GOOGLE_ISSUER="http://127.0.0.1:$jwks_port" \
  GOOGLE_JWKS_URL="http://127.0.0.1:$jwks_port/jwks.json" \
  CLIENT_DIST_DIR="$work/no-site" RUST_LOG=error "$BIN" serve >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fs "$base/healthz" >/dev/null && break; sleep 0.1; done

# Signed-in members, one for each pass that runs at a time (two REST, then two GraphQL), so the
# fuzzer reaches past the 401s and no pass's account is changed under another. One of each two
# is a recruiter (Hire), who may create organizations; the other a job seeker (Career).
sign_in() { # EMAIL ROLE: prints a working session token, or stops the run
  local email=$1 role=$2 code token
  curl -fs -XPOST "$base/api/auth/register" -H 'content-type: application/json' \
    -d "{\"name\":\"Fuzz\",\"email\":\"$email\",\"countryCode\":\"+91\",\"phone\":\"9876543210\",\"password\":\"fuzzPass42\",\"role\":\"$role\"}" >/dev/null
  curl -fs -XPOST "$base/api/auth/send-otp-email" -H 'content-type: application/json' -d "{\"email\":\"$email\"}" >/dev/null
  # The mailbox lists the newest mail first: this member's code.
  code=$(curl -fs "$base/dev/mailbox" | grep -o 'verification code: [0-9]\{6\}' | head -1 | grep -o '[0-9]\{6\}')
  token=$(curl -fs -XPOST "$base/api/auth/verify-otp-email" -H 'content-type: application/json' \
    -d "{\"email\":\"$email\",\"otp\":\"$code\"}" | sed 's/.*"token":"\([^"]*\)".*/\1/')
  # Without a working token every authenticated call would be fuzzed as a 401: stop instead.
  if ! [[ "$token" =~ ^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$ ]] \
    || ! curl -fs -H "Authorization: Bearer $token" "$base/api/auth/verify" >/dev/null; then
    echo "fuzz: the sign-in of $email gave no working session token (got: ${token:0:80})" >&2
    cat "$work/server.log" >&2
    exit 1
  fi
  echo "$token"
}
rest_first=$(sign_in fuzz-rest-1@example.com career)
rest_second=$(sign_in fuzz-rest-2@example.com hire)
graphql_first=$(sign_in fuzz-graphql-1@example.com career)
graphql_second=$(sign_in fuzz-graphql-2@example.com hire)

# The number schemathesis reports as generated in a pass's output, or fail: a run whose
# count cannot be read has not shown that it fuzzed anything.
generated() {
  local n
  n=$(grep -o '[0-9][0-9,]* generated' "$1" | tail -1 | grep -o '^[0-9,]*' | tr -d ,)
  [ -n "$n" ] || { echo "fuzz: no request count in $1" >&2; exit 1; }
  echo "$n"
}

# Runs one kind of pass until MIN_REQUESTS were generated; prints the total. Passes run two at
# a time, each with its own seed and member: schemathesis keeps one core busy and the server
# little more (one pass at a time left a core of this 2-core machine idle).
passes() { # KIND FIRST_TOKEN SECOND_TOKEN COMMAND...
  local kind=$1 tokens=("$2" "$3"); shift 3
  local total=0 pass=0 slot failed out pids outs
  while [ "$total" -lt "$MIN_REQUESTS" ]; do
    if [ "$pass" -ge "$((2 * MAX_ROUNDS))" ]; then
      echo "fuzz: $kind generated only $total requests in $pass passes (floor $MIN_REQUESTS)" >&2
      exit 1
    fi
    pids=() outs=() failed=""
    for slot in 0 1; do
      pass=$((pass + 1))
      outs+=("$work/$kind-$pass.txt")
      "$@" --seed "$((SEED + pass - 1))" -H "Authorization: Bearer ${tokens[$slot]}" >"${outs[$slot]}" 2>&1 &
      pids+=($!)
    done
    for slot in 0 1; do wait "${pids[$slot]}" || failed=1; done
    for out in "${outs[@]}"; do
      echo "==> $(basename "$out" .txt)" >&2
      cat "$out" >&2
    done
    [ -z "$failed" ] || exit 1
    for out in "${outs[@]}"; do total=$((total + $(generated "$out"))); done
  done
  echo "$total"
}

# One worker per pass: the passes themselves run two at a time (a pass's threads raced in
# Python 3.11's parser once: "AST constructor recursion depth mismatch").
common=(--max-examples "$EXAMPLES" --request-timeout 20 --no-color
  --suppress-health-check all --generation-database none --workers 1)

# Signing out, signing out one session by its id (the fuzzer takes its own from the list of
# sessions) and deleting an account (its own, whose id it reads from /auth/verify, just after
# signing in) end the fuzzer's session: every call after them would be fuzzed as a 401. They
# are left to the integration tests (api/tests/api/), and so are their GraphQL mutations.
echo "==> REST: $base/api/openapi.json"
rest=$(passes rest "$rest_first" "$rest_second" "$ST" --config-file "$ROOT/scripts/schemathesis.toml" run "$base/api/openapi.json" "${common[@]}" --max-time "$MAX_TIME" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance,ignored_auth,positive_data_acceptance,negative_data_rejection \
  --exclude-path-regex '/auth/logout$' --exclude-name 'DELETE /users/sessions/{id}' --exclude-name 'DELETE /users/{id}')

echo "==> GraphQL: $base/api/graphql"
graphql=$(SCHEMATHESIS_HOOKS=fuzz_hooks PYTHONPATH="$ROOT/scripts" \
  passes graphql "$graphql_first" "$graphql_second" "$ST" run "$base/api/graphql" "${common[@]}" --max-time "$MAX_TIME" \
  --checks graphql_no_internal_error --exclude-checks not_a_server_error \
  --exclude-name Mutation.logout --exclude-name Mutation.revokeSession --exclude-name Mutation.deleteUser)

# The server must still be up and sound after all of it.
curl -fs "$base/readyz" >/dev/null || { echo "fuzz: the server is no longer ready" >&2; cat "$work/server.log" >&2; exit 1; }
if grep -qi 'panicked' "$work/server.log"; then
  echo "fuzz: the server panicked" >&2; grep -i -A5 panicked "$work/server.log" >&2; exit 1
fi
echo "fuzz: $rest REST requests and $graphql GraphQL documents (floor $MIN_REQUESTS each), no 5xx, no response outside the contract"
