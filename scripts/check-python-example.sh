#!/usr/bin/env bash
# Runs docs/examples/python/app.py (Authlib) against a real Talent Suite server: the Python
# example of docs/sso.md must sign a person in. Uses the debug binary `cargo test` built.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-examples
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import authlib, flask' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r docs/examples/python/requirements.txt
fi
work=$(mktemp -d)
api_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
app_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export APP_ENV=local APP_NAME="Talent Suite" BIND_ADDR="127.0.0.1:$api_port"
export DATABASE_URL="sqlite://$work/db.sqlite?mode=rwc" JWT_SECRET="example-check-secret-example-check-secret"
export MAIN_PLATFORM_URL="http://127.0.0.1:$api_port" HIRE_PLATFORM_URL="http://127.0.0.1:$api_port/hire"
export CAMPUS_PLATFORM_URL="http://127.0.0.1:$api_port/campus" CAREER_PLATFORM_URL="http://127.0.0.1:$api_port/career"
export CLIENT_DIST_DIR="$work/no-site"
bin=target/debug/api
creds=$("$bin" oauth-client create --name "Python platform" --first-party \
  --redirect-uri "http://127.0.0.1:$app_port/callback" --post-logout-redirect-uri "http://127.0.0.1:$app_port/" 2>/dev/null)
"$bin" serve >"$work/server.log" 2>&1 &
server=$!
TALENT_ISSUER="$MAIN_PLATFORM_URL" BASE_URL="http://127.0.0.1:$app_port" \
  CLIENT_ID=$(sed -n 's/^client_id: //p' <<<"$creds") CLIENT_SECRET=$(sed -n 's/^client_secret: //p' <<<"$creds") \
  "$venv/bin/python" docs/examples/python/app.py >"$work/app.log" 2>&1 &
platform=$!
trap 'kill $server $platform 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$api_port/healthz" >/dev/null && curl -sf "http://127.0.0.1:$app_port/" >/dev/null && break
  sleep 0.2
done
TALENT_ISSUER="$MAIN_PLATFORM_URL" BASE_URL="http://127.0.0.1:$app_port" "$venv/bin/python" docs/examples/python/check_sign_in.py
