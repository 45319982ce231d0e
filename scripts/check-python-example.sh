#!/usr/bin/env bash
# Runs docs/examples/python/app.py (Authlib) against a real Talent Suite server, following
# docs/sso.md's steps: the client is registered from the repository root with the document's
# `oauth-client create` command, then the example signs a person in. It runs the binary
# `cargo test` built (in CARGO_TARGET_DIR when set) instead of `cargo run`, whose build
# without the test dependencies' features would compile the server a second time. On failure
# the server's and the example's logs are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-examples
[ -x "$venv/bin/python" ] || { echo "examples: $venv is missing; run scripts/test-deps.sh" >&2; exit 1; }
work=$(mktemp -d)
server=""
platform=""
finish() {
  local status=$?
  for pid in $server $platform; do kill "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    for log in "$work"/*.log; do
      [ -f "$log" ] && { echo "--- $(basename "$log")" >&2; cat "$log" >&2; }
    done
  fi
  rm -rf "$work"
  exit "$status"
}
trap finish EXIT
api_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
app_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export APP_ENV=local APP_NAME="Talent Suite" BIND_ADDR="127.0.0.1:$api_port"
export DATABASE_URL="sqlite://$work/db.sqlite?mode=rwc" JWT_SECRET="example-check-secret-example-check-secret"
export MAIN_PLATFORM_URL="http://127.0.0.1:$api_port" HIRE_PLATFORM_URL="http://localhost:8081"
export CAMPUS_PLATFORM_URL="http://localhost:8082" CAREER_PLATFORM_URL="http://localhost:8083"
export CLIENT_DIST_DIR="$work/no-site"
bin="${CARGO_TARGET_DIR:-target}/debug/api"
[ -x "$bin" ] || { echo "examples: $bin is missing; run cargo test --workspace --no-run first" >&2; exit 1; }
creds=$("$bin" oauth-client create --name "Python platform" --first-party \
  --redirect-uri "http://127.0.0.1:$app_port/callback" --post-logout-redirect-uri "http://127.0.0.1:$app_port/" \
  2>"$work/register.log")
"$bin" serve >"$work/server.log" 2>&1 &
server=$!
TALENT_ISSUER="$MAIN_PLATFORM_URL" BASE_URL="http://127.0.0.1:$app_port" \
  CLIENT_ID=$(sed -n 's/^client_id: //p' <<<"$creds") CLIENT_SECRET=$(sed -n 's/^client_secret: //p' <<<"$creds") \
  "$venv/bin/python" docs/examples/python/app.py >"$work/app.log" 2>&1 &
platform=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$api_port/healthz" >/dev/null && curl -sf "http://127.0.0.1:$app_port/" >/dev/null && break
  sleep 0.2
done
TALENT_ISSUER="$MAIN_PLATFORM_URL" BASE_URL="http://127.0.0.1:$app_port" "$venv/bin/python" docs/examples/python/check_sign_in.py
