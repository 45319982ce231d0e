#!/usr/bin/env bash
# Benchmarks: start the release server on a temp SQLite database, seed it, and load it with
# wrk from this machine. Prints requests/s and latency per scenario; asserts nothing.
#   bench/run.sh            # 10 s per scenario, 2 threads, 32 connections
#   DURATION=30s CONNECTIONS=64 bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-32}"
PORT="${PORT:-18080}"
BASE="http://127.0.0.1:$PORT"

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
cargo build --release -q -p api

work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
env -i PATH="$PATH" HOME="$HOME" \
  APP_ENV=local APP_NAME="Talent Suite" JWT_SECRET=bench-secret-bench-secret-bench-secret \
  MAIN_PLATFORM_URL="$BASE" HIRE_PLATFORM_URL="$BASE/hire" CAMPUS_PLATFORM_URL="$BASE/campus" \
  CAREER_PLATFORM_URL="$BASE/career" BIND_ADDR="127.0.0.1:$PORT" RATE_LIMIT_PER_IP=0 \
  DATABASE_URL="sqlite://$work/bench.db?mode=rwc" RUST_LOG=warn \
  ./target/release/api serve >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 50); do curl -fs "$BASE/healthz" >/dev/null && break; sleep 0.2; done

# A verified account (code from the outbox) and an admin's news for the feed.
email="bench@example.com"
curl -fs -XPOST "$BASE/api/auth/register" -H 'content-type: application/json' \
  -d "{\"name\":\"Bench\",\"email\":\"$email\",\"countryCode\":\"+91\",\"phone\":\"9876543210\",\"password\":\"benchPass42\",\"role\":\"career\"}" >/dev/null
curl -fs -XPOST "$BASE/api/auth/send-otp-email" -H 'content-type: application/json' -d "{\"email\":\"$email\"}" >/dev/null
code=$(curl -fs "$BASE/dev/mailbox" | grep -o 'verification code: [0-9]\{6\}' | head -1 | grep -o '[0-9]\{6\}')
token=$(curl -fs -XPOST "$BASE/api/auth/verify-otp-email" -H 'content-type: application/json' \
  -d "{\"email\":\"$email\",\"otp\":\"$code\"}" | sed 's/.*"token":"\([^"]*\)".*/\1/')
env -i PATH="$PATH" HOME="$HOME" APP_ENV=local APP_NAME=x JWT_SECRET=x MAIN_PLATFORM_URL="$BASE" \
  HIRE_PLATFORM_URL="$BASE" CAMPUS_PLATFORM_URL="$BASE" CAREER_PLATFORM_URL="$BASE" \
  DATABASE_URL="sqlite://$work/bench.db?mode=rwc" ADMIN_PASSWORD=adminPass42 \
  ./target/release/api create-admin --email admin@example.com --name Admin >/dev/null
admin=$(curl -fs -XPOST "$BASE/api/auth/login" -H 'content-type: application/json' \
  -d '{"email":"admin@example.com","password":"adminPass42"}' | sed 's/.*"token":"\([^"]*\)".*/\1/')
for n in $(seq 1 60); do
  curl -fs -XPOST "$BASE/api/news" -H "authorization: Bearer $admin" -H 'content-type: application/json' \
    -d "{\"title\":\"Story $n\",\"summary\":\"Summary $n\",\"body\":\"Body $n\",\"published\":true}" >/dev/null
done

cat >"$work/login.lua" <<LUA
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.body = '{"email":"$email","password":"benchPass42"}'
LUA
cat >"$work/wrong.lua" <<LUA
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.body = '{"email":"nobody@example.com","password":"benchPass42"}'
LUA

run() {
  local name=$1; shift
  local out
  out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$@")
  local rps p50 p99 non2xx
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1=="50%" {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  printf '%-34s %10s req/s   p50 %8s   p99 %8s   non-2xx %s\n' "$name" "$rps" "$p50" "$p99" "${non2xx:-0}"
}

echo "Talent Suite benchmarks: $(nproc) cores, wrk -t2 -c$CONNECTIONS -d$DURATION, release build, SQLite"
run "GET /healthz" "$BASE/healthz"
run "GET /api/news (20 items)" "$BASE/api/news"
run "GET /api/auth/verify (bearer)" -H "authorization: Bearer $token" "$BASE/api/auth/verify"
run "GET / (site, gzip)" -H 'accept-encoding: gzip' "$BASE/"
run "POST /api/auth/login (Argon2id)" -s "$work/login.lua" "$BASE/api/auth/login"
# An unknown email answers 401 after the same Argon2 work as a right password.
run "POST /api/auth/login (unknown email)" -s "$work/wrong.lua" "$BASE/api/auth/login"
