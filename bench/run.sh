#!/usr/bin/env bash
# Benchmarks, side by side in one run: our release server (SQLite, per-address limit off), the
# better-auth peer and the Argon2id limit of this machine from ../shared/peers, all loaded with
# wrk from this machine. Prints a table of each figure, the peer or limit beside it and the
# ratio; asserts nothing (timing goals live here, never in the tests).
#   bench/run.sh                 # everything (the peer installs itself: ~2 min the first time)
#   PEER=0 bench/run.sh          # ours and the hash limit only
#   DATABASE=postgres bench/run.sh   # ours on a fresh PostgreSQL database (TEST_POSTGRES_URL)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
PEERS="${PEERS:-$ROOT/../shared/peers}"
PEER="${PEER:-1}"
DATABASE="${DATABASE:-sqlite}"
PORT="${PORT:-18080}"
BASE="http://127.0.0.1:$PORT"
HOT_CONN="${HOT_CONN:-64}"; HOT_DUR="${HOT_DUR:-15}"
HASH_CONN="${HASH_CONN:-16}"; HASH_DUR="${HASH_DUR:-15}"
export CARGO_TERM_COLOR=never

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
cargo build --release -q -p api
CARGO_TARGET_DIR="$ROOT/target/peers" cargo build --release -q --manifest-path "$PEERS/argon2-limit/Cargo.toml"

work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill $server 2>/dev/null; rm -rf "$work"' EXIT

case "$DATABASE" in
  sqlite) database_url="sqlite://$work/bench.db?mode=rwc" ;;
  postgres)
    admin_url="${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
    name="bench_$$"
    psql "$admin_url" -qc "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" >/dev/null
    database_url="${admin_url%/*}/$name" ;;
  *) echo "DATABASE is sqlite or postgres" >&2; exit 2 ;;
esac

SERVER_ENV=(PATH="$PATH" HOME="$HOME"
  APP_ENV=local APP_NAME="Talent Suite" JWT_SECRET=bench-secret-bench-secret-bench-secret
  MAIN_PLATFORM_URL="$BASE" HIRE_PLATFORM_URL="$BASE/hire" CAMPUS_PLATFORM_URL="$BASE/campus"
  CAREER_PLATFORM_URL="$BASE/career" BIND_ADDR="127.0.0.1:$PORT" RATE_LIMIT_PER_IP=0
  DATABASE_URL="$database_url" RUST_LOG=warn CLIENT_DIST_DIR="$ROOT/client/dist")
start_server() {
  # env execs the server, so $! is the server's own PID (its memory is read from /proc).
  env -i "${SERVER_ENV[@]}" ./target/release/api serve >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 100); do curl -fs "$BASE/healthz" >/dev/null && return; sleep 0.1; done
  echo "the server did not start" >&2; cat "$work/server.log" >&2; exit 1
}
json() { curl -fs -XPOST "$BASE$1" -H 'content-type: application/json' ${3:+-H "authorization: Bearer $3"} -d "$2"; }
token_of() { sed 's/.*"token":"\([^"]*\)".*/\1/'; }
kib() { awk -v k="$1" 'BEGIN{printf "%.0f", k/1024}'; }
status_kb() { awk -v f="$2:" '$1==f {print $2}' "/proc/$1/status"; }

# A wrk script per scenario, each ending with the peer's RESULT line format.
report='done = function(summary, latency, requests)
  local secs = summary.duration / 1e6
  io.write(string.format("RESULT requests=%d rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d\n",
    summary.requests, summary.requests / secs, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, summary.errors.status))
end'
post_script() {  # file body
  printf 'wrk.method = "POST"\nwrk.headers["content-type"] = "application/json"\nwrk.body = %s\n%s\n' "$2" "$report" >"$1"
}
printf '%s\n' "$report" >"$work/get.lua"
cat >"$work/signup.lua" <<LUA
local counter, tag = 0, tostring(os.time()) .. tostring(math.random(1000000))
local thread_ix = 0
setup = function(thread) thread:set("tix", thread_ix); thread_ix = thread_ix + 1 end
request = function()
  counter = counter + 1
  local body = string.format('{"name":"Bench","email":"u%s-%d-%d@bench.example.com","countryCode":"+91","phone":"9876543210","password":"benchPass42","role":"career"}', tag, tix or 0, counter)
  return wrk.format("POST", "/api/auth/register", { ["content-type"] = "application/json" }, body)
end
$report
LUA
wrk_run() {  # conns seconds url [wrk args...] -> RESULT line
  local conns=$1 secs=$2 url=$3; shift 3
  wrk -t2 -c"$conns" -d"${secs}s" --timeout 30s --latency "$@" "$url" | grep '^RESULT'
}
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p; s/^RESULT $2=\([^ ]*\).*/\1/p" <<<"$1" | head -1; }

# ---- ours
start_server
sleep 1
idle_rss=$(status_kb "$server" VmRSS)
email="bench@example.com"
json /api/auth/register "{\"name\":\"Bench\",\"email\":\"$email\",\"countryCode\":\"+91\",\"phone\":\"9876543210\",\"password\":\"benchPass42\",\"role\":\"career\"}" >/dev/null
json /api/auth/send-otp-email "{\"email\":\"$email\"}" >/dev/null
code=$(curl -fs "$BASE/dev/mailbox" | grep -o 'verification code: [0-9]\{6\}' | head -1 | grep -o '[0-9]\{6\}')
token=$(json /api/auth/verify-otp-email "{\"email\":\"$email\",\"otp\":\"$code\"}" | token_of)
env -i "${SERVER_ENV[@]}" ADMIN_PASSWORD=adminPass42 ./target/release/api create-admin --email admin@example.com --name Admin >/dev/null
admin=$(json /api/auth/login '{"email":"admin@example.com","password":"adminPass42"}' | token_of)
for n in $(seq 1 60); do
  json /api/news "{\"title\":\"Story $n\",\"summary\":\"Summary $n\",\"body\":\"Body $n\",\"published\":true}" "$admin" >/dev/null
done
post_script "$work/me.lua" "'{\"query\":\"{ me { id email name role } }\"}'"
# Sign-ins spread over as many accounts as connections: many simultaneous sign-ins to one
# account from one address is what the throttle exists to refuse (see SECURITY.md).
for n in $(seq 1 "$HASH_CONN"); do
  json /api/auth/register "{\"name\":\"Bench\",\"email\":\"login$n@example.com\",\"countryCode\":\"+91\",\"phone\":\"9876543210\",\"password\":\"benchPass42\",\"role\":\"career\"}" >/dev/null
done
if [ "$DATABASE" = postgres ]; then
  psql "$database_url" -qc "UPDATE users SET email_verified = true, status = 'active'" >/dev/null
else
  sqlite3 "$work/bench.db" "UPDATE users SET email_verified = 1, status = 'active'" 2>/dev/null \
    || python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE users SET email_verified=1, status='active'\"); c.commit()" "$work/bench.db"
fi
cat >"$work/login.lua" <<LUA
local n = 0
local thread_ix = 0
setup = function(thread) thread:set("tix", thread_ix); thread_ix = thread_ix + 1 end
request = function()
  n = n + 1
  local account = ((tix or 0) * 7 + n) % $HASH_CONN + 1
  return wrk.format("POST", "/api/auth/login", { ["content-type"] = "application/json" },
    string.format('{"email":"login%d@example.com","password":"benchPass42"}', account))
end
$report
LUA

verify=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/auth/verify" -s "$work/get.lua" -H "authorization: Bearer $token")
me=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/graphql" -s "$work/me.lua" -H "authorization: Bearer $token")
news=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/news" -s "$work/get.lua")
login=$(wrk_run "$HASH_CONN" "$HASH_DUR" "$BASE/api/auth/login" -s "$work/login.lua")
login_peak=$(status_kb "$server" VmHWM)
# verify's p99 while a login storm runs beside it
wrk_run "$HASH_CONN" "$HASH_DUR" "$BASE/api/auth/login" -s "$work/login.lua" >/dev/null &
storm=$!
sleep 1
verify_storm=$(wrk_run 8 $((HASH_DUR - 3)) "$BASE/api/auth/verify" -s "$work/get.lua" -H "authorization: Bearer $token")
wait $storm || true
signup=$(wrk_run "$HASH_CONN" "$HASH_DUR" "$BASE/" -s "$work/signup.lua")
peak_rss=$(status_kb "$server" VmHWM)
kill "$server"; wait "$server" 2>/dev/null || true; server=""
[ "$DATABASE" = postgres ] && psql "${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}" -qc "DROP DATABASE IF EXISTS bench_$$" >/dev/null

# ---- the limit and the peer
limit=$("$ROOT/target/peers/release/argon2-limit" 200 2 argon2 2>/dev/null | grep 'threads=2' | head -1 || true)
limit_rate=$(sed -n 's/.*per_s=\([0-9.]*\).*/\1/p' <<<"$limit")
peer_verify=""; peer_signin=""; peer_signup=""
if [ "$PEER" = 1 ]; then
  mkdir -p "$work/peer" && cp -r "$PEERS/better-auth/." "$work/peer/" && rm -rf "$work/peer/node_modules" "$work/peer/data"
  peer_out=$(PEER_DIR="$work/peer" QUIET_MAX=30 COLD_RUNS=1 A_DUR="$HOT_DUR" A_CONN="$HOT_CONN" B_DUR="$HASH_DUR" B_CONN="$HASH_CONN" \
    bash "$PEERS/bench/bench-peer.sh" 2>&1 || true)
  mapfile -t peer_results < <(grep '^RESULT' <<<"$peer_out")
  peer_verify="${peer_results[0]:-}"; peer_signin="${peer_results[1]:-}"; peer_signup="${peer_results[2]:-}"
fi

# ---- the table
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b+0 > 0) printf "%.1f×", a/b; else print "—" }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b+0 > 0) printf "%.0f%%", 100*a/b; else print "—" }'; }
js_kib=$(cd client && node scripts/check-budget.mjs 2>/dev/null | sed -n 's/^JavaScript for \/: \([0-9.]*\) KiB gzip (\([0-9.]*\) KiB brotli.*/\1 KiB gzip (\2 KiB brotli as sent)/p' || true)
echo
echo "Talent Suite benchmarks — $(date -u +%F), $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), release build, $DATABASE, per-address limit off, wrk -t2 on the same machine"
echo "command: DATABASE=$DATABASE PEER=$PEER HOT_CONN=$HOT_CONN HOT_DUR=$HOT_DUR HASH_CONN=$HASH_CONN HASH_DUR=$HASH_DUR bench/run.sh"
echo
echo "| figure | ours | p99 | peer or limit, same run | ratio |"
echo "|---|---|---|---|---|"
echo "| \`GET /api/auth/verify\`, $HOT_CONN connections | $(field "$verify" rps) req/s | $(field "$verify" p99_ms) ms | better-auth get-session $(field "$peer_verify" rps) req/s (p99 $(field "$peer_verify" p99_ms) ms) | $(ratio "$(field "$verify" rps)" "$(field "$peer_verify" rps)") |"
echo "| GraphQL \`{ me { id email name role } }\`, $HOT_CONN connections | $(field "$me" rps) req/s | $(field "$me" p99_ms) ms | — | — |"
echo "| \`GET /api/news\` (20 items), $HOT_CONN connections | $(field "$news" rps) req/s | $(field "$news" p99_ms) ms | — | — |"
echo "| password login, $HASH_CONN connections | $(field "$login" rps)/s | $(field "$login" p99_ms) ms | Argon2id limit, 2 threads: ${limit_rate:-—}/s; better-auth sign-in $(field "$peer_signin" rps)/s | $(pct "$(field "$login" rps)" "$limit_rate") of the limit |"
echo "| sign-up, $HASH_CONN connections | $(field "$signup" rps)/s | $(field "$signup" p99_ms) ms | Argon2id limit: ${limit_rate:-—}/s; better-auth sign-up $(field "$peer_signup" rps)/s | $(pct "$(field "$signup" rps)" "$limit_rate") of the limit |"
echo "| verify p99 during a login storm (8 connections) | $(field "$verify_storm" rps) req/s | $(field "$verify_storm" p99_ms) ms | goal < 25 ms | — |"
echo "| resident memory: idle / peak after the login storm / peak overall | $(kib "$idle_rss") / $(kib "$login_peak") / $(kib "$peak_rss") MiB | | goal < 150 MiB peak | — |"
echo "| JavaScript for \`/\` | ${js_kib:-—} | | goal ≤ 100 KiB gzip | — |"
echo
echo "non-2xx answers: verify $(field "$verify" non2xx), me $(field "$me" non2xx), news $(field "$news" non2xx), login $(field "$login" non2xx), sign-up $(field "$signup" non2xx)"
