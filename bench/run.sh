#!/usr/bin/env bash
# Benchmarks, side by side in one run: our release server on SQLite and on PostgreSQL (the
# per-address limit off), the better-auth peer and the Argon2id limit of this machine from
# ../shared/peers, all loaded with wrk from this machine. Prints one table of each figure, the
# peer or limit beside it and the ratio; asserts nothing (timing goals live here, never in the
# tests).
#   bench/run.sh                        # everything (the peer installs itself: ~2 min the first time)
#   PEER=0 bench/run.sh                 # ours and the hash limit only
#   DATABASES=sqlite bench/run.sh       # one database (sqlite, postgres or both, the default)
#   BUILD=0 bench/run.sh                # no cargo build: the release server and the limit as built
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
PEERS="${PEERS:-$ROOT/../shared/peers}"
PEER="${PEER:-1}"
DATABASES="${DATABASES:-${DATABASE:-sqlite postgres}}"
PORT="${PORT:-18080}"
BASE="http://127.0.0.1:$PORT"
OTHER="http://127.0.0.1:$((PORT + 1))"
HOT_CONN="${HOT_CONN:-64}"; HOT_DUR="${HOT_DUR:-15}"
HASH_CONN="${HASH_CONN:-16}"; HASH_DUR="${HASH_DUR:-15}"
SESSIONS="${SESSIONS:-256}"

bench_prepare
[ "$BUILD" = 0 ] || CARGO_TARGET_DIR="$ROOT/target/peers" cargo build --release -q --manifest-path "$PEERS/argon2-limit/Cargo.toml"

kib() { awk -v k="$1" 'BEGIN{printf "%.0f", k/1024}'; }
status_kb() { awk -v f="$2:" '$1==f {print $2}' "/proc/$1/status"; }

# A wrk script per scenario, each ending with the peer's RESULT line format.
report='done = function(summary, latency, requests)
  local secs = summary.duration / 1e6
  io.write(string.format("RESULT requests=%d rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d\n",
    summary.requests, summary.requests / secs, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, summary.errors.status))
end'
printf '%s\n' "$report" >"$work/get.lua"
printf 'wrk.method = "POST"\nwrk.headers["content-type"] = "application/json"\nwrk.body = %s\n%s\n' \
  "'{\"query\":\"{ me { id email name role } }\"}'" "$report" >"$work/me.lua"
# Many people at once: each request checks the next of $SESSIONS sessions (tokens.txt).
cat >"$work/many.lua" <<LUA
local tokens = {}
for line in io.lines("$work/tokens.txt") do tokens[#tokens + 1] = line end
local n = 0
local thread_ix = 0
setup = function(thread) thread:set("tix", thread_ix); thread_ix = thread_ix + 1 end
request = function()
  n = n + 1
  local token = tokens[((tix or 0) * 101 + n) % #tokens + 1]
  return wrk.format("GET", "/api/auth/verify", { ["authorization"] = "Bearer " .. token })
end
$report
LUA
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
# Sign-ins spread over as many accounts as connections: many simultaneous sign-ins to one
# account from one address is what the throttle exists to refuse (see SECURITY.md).
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
wrk_run() {  # conns seconds url [wrk args...] -> RESULT line
  local conns=$1 secs=$2 url=$3 line; shift 3
  line=$(wrk -t2 -c"$conns" -d"${secs}s" --timeout 30s --latency "$@" "$url" | grep '^RESULT') \
    || { echo "bench: wrk gave no result for $url" >&2; exit 1; }
  # A figure of wrong answers is no figure: a scenario whose answers fail stops the run.
  local bad
  bad=$(sed -n 's/.* non2xx=\([0-9]*\).*/\1/p' <<<"$line")
  if [ "${bad:-1}" != 0 ]; then
    echo "bench: $url answered ${bad:-?} non-2xx responses; the figure would measure errors" >&2
    exit 1
  fi
  echo "$line"
}
# A session token or stop: a failed sign-in would make every authenticated scenario measure 401s.
require_token() {  # what token
  [[ "$2" =~ ^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$ ]] || { echo "bench: no session token for $1 (got: ${2:0:80})" >&2; exit 1; }
}
register() {  # email
  json /api/auth/register "{\"name\":\"Bench\",\"email\":\"$1\",\"countryCode\":\"+91\",\"phone\":\"9876543210\",\"password\":\"benchPass42\",\"role\":\"career\"}" >/dev/null
}

declare -A R  # results: R[<database>.<figure>] = RESULT line or value

# ---- ours, once per database
measure() {  # database
  local db=$1
  bench_database "$db" bench
  bench_env
  bench_serve "$PORT"
  sleep 1
  R[$db.idle_rss]=$(status_kb "$server" VmRSS)
  local email="bench@example.com" token admin
  token=$(verified_account Bench "$email" career)
  require_token "$email" "$token"
  env -i "${BENCH_ENV[@]}" ADMIN_PASSWORD=adminPass42 ./target/release/api create-admin --email admin@example.com --name Admin >/dev/null
  admin=$(json /api/auth/login '{"email":"admin@example.com","password":"adminPass42"}' | token_of)
  require_token admin@example.com "$admin"
  for n in $(seq 1 60); do
    json /api/news "{\"title\":\"Story $n\",\"summary\":\"Summary $n\",\"body\":\"Body $n\",\"published\":true}" "$admin" >/dev/null
  done
  for n in $(seq 1 "$HASH_CONN"); do register "login$n@example.com"; done
  sql "UPDATE users SET email_verified = true, status = 'active'" >/dev/null
  # $SESSIONS live sessions, signed in over the sixteen accounts.
  : >"$work/tokens.txt"
  local signing_in=()
  for n in $(seq 1 "$SESSIONS"); do
    # One write per line (the answer ends without a newline), so parallel sign-ins do not mix.
    ( line=$(json /api/auth/login "{\"email\":\"login$(( n % HASH_CONN + 1 ))@example.com\",\"password\":\"benchPass42\"}" | token_of)
      echo "$line" >>"$work/tokens.txt" ) &
    signing_in+=($!)
    if (( n % 8 == 0 )); then wait "${signing_in[@]}"; signing_in=(); fi
  done
  [ ${#signing_in[@]} -eq 0 ] || wait "${signing_in[@]}"

  # The HTTP stack's own ceiling on this server: routing, every middleware, a JSON answer.
  R[$db.ceiling]=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/healthz" -s "$work/get.lua")
  R[$db.verify]=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/auth/verify" -s "$work/get.lua" -H "authorization: Bearer $token")
  R[$db.many]=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/auth/verify" -s "$work/many.lua")
  R[$db.me]=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/graphql" -s "$work/me.lua" -H "authorization: Bearer $token")
  R[$db.news]=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/news" -s "$work/get.lua")
  local db_before=""
  if [ "$db" = postgres ]; then db_before=$(database_ticks); fi
  R[$db.login]=$(wrk_run "$HASH_CONN" "$HASH_DUR" "$BASE/api/auth/login" -s "$work/login.lua")
  R[$db.login_db_cores]=$(awk -v a="$db_before" -v b="$(database_ticks)" -v hz="$(getconf CLK_TCK)" -v s="$HASH_DUR" \
    'BEGIN{ if (a == "") print ""; else printf "%.2f", (b - a) / hz / s }')
  R[$db.login_rss]=$(status_kb "$server" VmHWM)
  # verify's p99 while a login storm runs beside it
  wrk_run "$HASH_CONN" "$HASH_DUR" "$BASE/api/auth/login" -s "$work/login.lua" >/dev/null &
  local storm=$!
  sleep 1
  R[$db.storm]=$(wrk_run 8 $((HASH_DUR - 3)) "$BASE/api/auth/verify" -s "$work/get.lua" -H "authorization: Bearer $token")
  wait $storm || true
  R[$db.signup]=$(wrk_run "$HASH_CONN" "$HASH_DUR" "$BASE/" -s "$work/signup.lua")
  R[$db.peak_rss]=$(status_kb "$server" VmHWM)
  # A second instance on the same database: a logout on the first, checks on the second.
  bench_serve "$((PORT + 1))"
  R[$db.revocation]=$(python3 bench/revocation.py --a "$BASE" --b "$OTHER" \
    --email login1@example.com --password benchPass42 --rounds 30 | grep '^RESULT') \
    || { echo "bench: the revocation measurement gave no result" >&2; exit 1; }
  local stale
  stale=$(field "${R[$db.revocation]}" stale)
  if [ "${stale:-1}" != 0 ]; then
    echo "bench: instance B accepted ${stale:-?} checks of a session A had logged out" >&2
    exit 1
  fi
  bench_stop
  bench_drop_database
}
for db in $DATABASES; do measure "$db"; done

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
pct() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b+0 > 0) printf "%.0f%%", 100*a/b; else print "—" }'; }
name() { [ "$1" = postgres ] && echo PostgreSQL || echo SQLite; }
js_kib=$(cd client && node scripts/check-budget.mjs 2>/dev/null | sed -n 's/^JavaScript for \/: \([0-9.]*\) KiB gzip (\([0-9.]*\) KiB brotli.*/\1 KiB gzip (\2 KiB brotli as sent)/p' || true)
peer_get="better-auth get-session $(field "$peer_verify" rps) req/s (p99 $(field "$peer_verify" p99_ms) ms)"
echo
echo "Talent Suite benchmarks — $(date -u +%F), $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), release build, per-address limit off, wrk -t2 on the same machine"
echo "command: DATABASES=\"$DATABASES\" PEER=$PEER HOT_CONN=$HOT_CONN HOT_DUR=$HOT_DUR HASH_CONN=$HASH_CONN HASH_DUR=$HASH_DUR SESSIONS=$SESSIONS bench/run.sh"
echo
echo "| figure | database | ours | p99 | peer or limit, same run | ratio |"
echo "|---|---|---|---|---|---|"
row() {  # label db key peer-text peer-rps
  local r=${R[$2.$3]:-}
  echo "| $1 | $(name "$2") | $(field "$r" rps) req/s | $(field "$r" p99_ms) ms | $4 | $(ratio "$(field "$r" rps)" "$5" 1) |"
}
for db in $DATABASES; do row "\`GET /api/auth/verify\`, one session, $HOT_CONN connections" "$db" verify "$peer_get" "$(field "$peer_verify" rps)"; done
for db in $DATABASES; do
  c=${R[$db.ceiling]:-}
  echo "| \`GET /api/auth/verify\` against \`GET /healthz\` (the same server's ceiling), $HOT_CONN connections | $(name "$db") | $(field "${R[$db.verify]:-}" rps) req/s | $(field "${R[$db.verify]:-}" p99_ms) ms | \`/healthz\` $(field "$c" rps) req/s (p99 $(field "$c" p99_ms) ms) | $(pct "$(field "${R[$db.verify]:-}" rps)" "$(field "$c" rps)") of the ceiling |"
done
for db in $DATABASES; do row "\`GET /api/auth/verify\`, $SESSIONS sessions in turn, $HOT_CONN connections" "$db" many "$peer_get" "$(field "$peer_verify" rps)"; done
for db in $DATABASES; do row "GraphQL \`{ me { id email name role } }\`, $HOT_CONN connections" "$db" me "$peer_get" "$(field "$peer_verify" rps)"; done
for db in $DATABASES; do row "\`GET /api/news\` (20 items), $HOT_CONN connections" "$db" news "—" ""; done
for db in $DATABASES; do
  r=${R[$db.login]:-}
  shared=""
  [ -n "${R[$db.login_db_cores]:-}" ] && shared=" (PostgreSQL's processes used ${R[$db.login_db_cores]} of the 2 cores)"
  echo "| password sign-in, $HASH_CONN connections | $(name "$db") | $(field "$r" rps)/s$shared | $(field "$r" p99_ms) ms | Argon2id limit, 2 threads: ${limit_rate:-—}/s; better-auth sign-in $(field "$peer_signin" rps)/s | $(pct "$(field "$r" rps)" "$limit_rate") of the limit; $(ratio "$(field "$r" rps)" "$(field "$peer_signin" rps)" 1) the peer |"
done
for db in $DATABASES; do
  r=${R[$db.signup]:-}
  echo "| sign-up, $HASH_CONN connections | $(name "$db") | $(field "$r" rps)/s | $(field "$r" p99_ms) ms | Argon2id limit: ${limit_rate:-—}/s; better-auth sign-up $(field "$peer_signup" rps)/s | $(pct "$(field "$r" rps)" "$limit_rate") of the limit; $(ratio "$(field "$r" rps)" "$(field "$peer_signup" rps)" 1) the peer |"
done
for db in $DATABASES; do
  r=${R[$db.storm]:-}
  echo "| verify during a sign-in storm (8 connections) | $(name "$db") | $(field "$r" rps) req/s | $(field "$r" p99_ms) ms | goal p99 < 25 ms | — |"
done
for db in $DATABASES; do
  echo "| resident memory: idle / peak after the sign-in storm / peak overall | $(name "$db") | $(kib "${R[$db.idle_rss]:-0}") / $(kib "${R[$db.login_rss]:-0}") / $(kib "${R[$db.peak_rss]:-0}") MiB | | goal < 150 MiB peak | — |"
done
for db in $DATABASES; do
  r=${R[$db.revocation]:-}
  echo "| logout on instance A, checks on instance B ($(field "$r" rounds) logouts, 8 threads checking) | $(name "$db") | $(field "$r" stale) stale of $(field "$r" checks_after_logout) checks after the logout | | B's first refusal $(field "$r" delay_p50_ms) ms after A answered (p50; max $(field "$r" delay_max_ms) ms) | — |"
done
echo "| JavaScript for \`/\` | — | ${js_kib:-—} | | goal ≤ 100 KiB gzip | — |"
echo
for db in $DATABASES; do
  echo "non-2xx answers, $(name "$db"): healthz $(field "${R[$db.ceiling]:-}" non2xx), verify $(field "${R[$db.verify]:-}" non2xx), many sessions $(field "${R[$db.many]:-}" non2xx), me $(field "${R[$db.me]:-}" non2xx), news $(field "${R[$db.news]:-}" non2xx), sign-in $(field "${R[$db.login]:-}" non2xx), sign-up $(field "${R[$db.signup]:-}" non2xx)"
done
