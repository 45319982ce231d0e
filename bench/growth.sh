#!/usr/bin/env bash
# Cost growth: the session check and password sign-in with 1,000 accounts and sessions stored,
# then again with SIZE (default 1,000,000) of each, seeded in bulk; and the news list's page
# 5,000 against its page 1 with 100,020 items stored. Prints a table with the ratios; asserts
# nothing (issue 10's goal: within 1.5× on both databases).
#   bench/growth.sh                       # SQLite
#   DATABASE=postgres bench/growth.sh     # a fresh PostgreSQL database (TEST_POSTGRES_URL)
#   BUILD=0 bench/growth.sh               # no cargo build: the release server as built
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
DATABASE="${DATABASE:-sqlite}"
SIZE="${SIZE:-1000000}"
PORT="${PORT:-18090}"
BASE="http://127.0.0.1:$PORT"
HOT_CONN="${HOT_CONN:-64}"; HOT_DUR="${HOT_DUR:-10}"
HASH_CONN="${HASH_CONN:-16}"; HASH_DUR="${HASH_DUR:-10}"
SPREAD="${SPREAD:-1000}"

bench_prepare
bench_database "$DATABASE" growth
bench_env
bench_serve "$PORT"

report='done = function(summary, latency, requests)
  io.write(string.format("RESULT rps=%.1f p99_ms=%.2f non2xx=%d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(99) / 1000, summary.errors.status))
end'
printf '%s\n' "$report" >"$work/get.lua"
wrk_run() { local conns=$1 secs=$2 url=$3; shift 3; wrk -t2 -c"$conns" -d"${secs}s" --timeout 30s --latency "$@" "$url" | grep '^RESULT'; }

# Accounts with sessions, `count` more, in bulk (no password: they are there to be stored).
seed_accounts() {  # from to
  if [ "$DATABASE" = postgres ]; then
    psql "$database_url" -q <<SQL
WITH seeded AS (
  INSERT INTO users (id, name, email, country_code, phone, role, status, email_verified, two_factor_enabled,
    notify_email, notify_sms, notify_push, theme, created_at, updated_at)
  SELECT gen_random_uuid(), 'Seed ' || g, 'seed' || g || '@seed.example', '+91', '+919876543210', 'career', 'active',
    true, false, true, false, true, 'dark', now(), now() FROM generate_series($1, $2) g
  RETURNING id)
INSERT INTO sessions (id, user_id, user_agent, ip, created_at, expires_at, last_seen_at)
SELECT gen_random_uuid(), id, 'seed', '127.0.0.1', now(), now() + interval '30 days', now() FROM seeded;
ANALYZE users; ANALYZE sessions;
SQL
  else
    python3 - "$(sqlite_file)" "$1" "$2" <<'PY'
import sqlite3, sys, uuid, datetime
db, start, end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
now = datetime.datetime.now(datetime.timezone.utc)
stamp = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.%f000+00:00")
created, expires = stamp(now), stamp(now + datetime.timedelta(days=30))
c = sqlite3.connect(db)
batch = 50_000
for lo in range(start, end + 1, batch):
    users, sessions = [], []
    for g in range(lo, min(lo + batch, end + 1)):
        uid = uuid.uuid4().bytes
        users.append((uid, f"Seed {g}", f"seed{g}@seed.example", created, created))
        sessions.append((uuid.uuid4().bytes, uid, created, expires, created))
    c.executemany("INSERT INTO users (id, name, email, country_code, phone, role, status, email_verified, two_factor_enabled, "
                  "notify_email, notify_sms, notify_push, theme, created_at, updated_at) VALUES (?, ?, ?, '+91', '+919876543210', "
                  "'career', 'active', 1, 0, 1, 0, 1, 'dark', ?, ?)", users)
    c.executemany("INSERT INTO sessions (id, user_id, user_agent, ip, created_at, expires_at, last_seen_at) "
                  "VALUES (?, ?, 'seed', '127.0.0.1', ?, ?, ?)", sessions)
    c.commit()
c.execute("ANALYZE"); c.commit()
PY
  fi
}

seed_news() {  # count
  if [ "$DATABASE" = postgres ]; then
    psql "$database_url" -qc "INSERT INTO news (id, title, summary, body, published, published_at, created_at, updated_at)
      SELECT gen_random_uuid(), 'Story ' || g, 'Summary ' || g, 'Body ' || g, true, now(), now() - g * interval '1 second', now()
      FROM generate_series(1, $1) g; ANALYZE news;"
  else
    python3 - "$(sqlite_file)" "$1" <<'PY'
import sqlite3, sys, uuid, datetime
c = sqlite3.connect(sys.argv[1]); n = int(sys.argv[2])
now = datetime.datetime.now(datetime.timezone.utc)
stamp = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.%f000+00:00")
rows = [(uuid.uuid4().bytes, f"Story {g}", f"Summary {g}", f"Body {g}", stamp(now), stamp(now - datetime.timedelta(seconds=g)), stamp(now)) for g in range(1, n + 1)]
c.executemany("INSERT INTO news (id, title, summary, body, published, published_at, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)", rows)
c.commit(); c.execute("ANALYZE"); c.commit()
PY
  fi
}

# The person whose session is checked, an admin (the news list uncached), sign-in accounts.
token=$(verified_account Growth growth@example.com career)
env -i "${BENCH_ENV[@]}" ADMIN_PASSWORD=adminPass42 ./target/release/api create-admin --email admin@example.com --name Admin >/dev/null
admin=$(json /api/auth/login '{"email":"admin@example.com","password":"adminPass42"}' | token_of)
for n in $(seq 1 "$HASH_CONN"); do
  json /api/auth/register "{\"name\":\"Bench\",\"email\":\"login$n@example.com\",\"countryCode\":\"+91\",\"phone\":\"9876543210\",\"password\":\"benchPass42\",\"role\":\"career\"}" >/dev/null
done
sql "UPDATE users SET email_verified = true, status = 'active' WHERE email LIKE 'login%'" >/dev/null
cat >"$work/login.lua" <<LUA
local n, thread_ix = 0, 0
setup = function(thread) thread:set("tix", thread_ix); thread_ix = thread_ix + 1 end
request = function()
  n = n + 1
  return wrk.format("POST", "/api/auth/login", { ["content-type"] = "application/json" },
    string.format('{"email":"login%d@example.com","password":"benchPass42"}', ((tix or 0) * 7 + n) % $HASH_CONN + 1))
end
$report
LUA

# Checks of $SPREAD sessions drawn at random from all those stored, one after another: each
# check reads a different row, so no figure rests on one hot row.
cat >"$work/many.lua" <<LUA
local tokens = {}
for line in io.lines("$work/tokens.txt") do tokens[#tokens + 1] = line end
local n, thread_ix = 0, 0
setup = function(thread) thread:set("tix", thread_ix); thread_ix = thread_ix + 1 end
request = function()
  n = n + 1
  return wrk.format("GET", "/api/auth/verify", { ["authorization"] = "Bearer " .. tokens[((tix or 0) * 101 + n) % #tokens + 1] })
end
$report
LUA
draw_sessions() {
  if [ "$DATABASE" = postgres ]; then
    sql "SELECT replace(id::text, '-', '') || '|' || replace(user_id::text, '-', '') FROM sessions WHERE user_agent = 'seed' ORDER BY random() LIMIT $SPREAD"
  else
    sql "SELECT lower(hex(id)) || '|' || lower(hex(user_id)) FROM sessions WHERE user_agent = 'seed' ORDER BY random() LIMIT $SPREAD"
  fi | python3 bench/mint_tokens.py "$BENCH_JWT_SECRET" >"$work/tokens.txt"
}

measure() {
  draw_sessions
  # The pool opens its connections under the first load: that is not what is measured.
  wrk_run "$HOT_CONN" 2 "$BASE/api/auth/verify" -s "$work/get.lua" -H "authorization: Bearer $token" >/dev/null
  verify=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/auth/verify" -s "$work/get.lua" -H "authorization: Bearer $token")
  spread=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/auth/verify" -s "$work/many.lua")
  login=$(wrk_run "$HASH_CONN" "$HASH_DUR" "$BASE/api/auth/login" -s "$work/login.lua")
  sql "DELETE FROM login_throttles" >/dev/null
}

seed_accounts 1 1000
measure; small_verify=$verify; small_spread=$spread; small_login=$login
started=$(date +%s)
seed_accounts 1001 "$SIZE"
seeded=$(( $(date +%s) - started ))
measure; large_verify=$verify; large_spread=$spread; large_login=$login
accounts=$(sql "SELECT COUNT(*) FROM users"); sessions=$(sql "SELECT COUNT(*) FROM sessions")

seed_news 100020
# The cursor after item 99,980 is the start of page 5,000 (20 items a page).
if [ "$DATABASE" = postgres ]; then
  position=$(sql "SELECT (extract(epoch from created_at) * 1000000)::bigint || '|' || id FROM news ORDER BY created_at DESC, id DESC OFFSET 99979 LIMIT 1")
else
  position=$(python3 - "$(sqlite_file)" <<'PY'
import sqlite3, sys, uuid, datetime
c = sqlite3.connect(sys.argv[1])
created, raw = c.execute("SELECT created_at, id FROM news ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET 99979").fetchone()
t = datetime.datetime.fromisoformat(created[:26] + created[-6:])
print(f"{int(t.timestamp() * 1_000_000)}|{uuid.UUID(bytes=raw)}")
PY
)
fi
cursor=$(printf '%s' "$position" | base64 -w0 | tr '+/' '-_' | tr -d '=')
curl -fs "$BASE/api/news?cursor=$cursor" -H "authorization: Bearer $admin" | grep -q '"items":\[{' || { echo "page 5,000 is empty" >&2; exit 1; }
page1=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/news" -s "$work/get.lua" -H "authorization: Bearer $admin")
page5000=$(wrk_run "$HOT_CONN" "$HOT_DUR" "$BASE/api/news?cursor=$cursor" -s "$work/get.lua" -H "authorization: Bearer $admin")

echo
echo "Cost growth — $(date -u +%F), $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), release build, $DATABASE"
echo "command: DATABASE=$DATABASE SIZE=$SIZE bench/growth.sh   ($accounts accounts and $sessions sessions stored at the end; seeding took ${seeded} s)"
echo
echo "| figure | 1,000 stored | $SIZE stored | p99 growth | rate ratio |"
echo "|---|---|---|---|---|"
echo "| \`GET /api/auth/verify\`, $HOT_CONN connections | $(field "$small_verify" rps) req/s, p99 $(field "$small_verify" p99_ms) ms | $(field "$large_verify" rps) req/s, p99 $(field "$large_verify" p99_ms) ms | $(ratio "$(field "$large_verify" p99_ms)" "$(field "$small_verify" p99_ms)") | $(ratio "$(field "$large_verify" rps)" "$(field "$small_verify" rps)") |"
echo "| \`GET /api/auth/verify\`, $SPREAD stored sessions drawn at random, in turn, $HOT_CONN connections | $(field "$small_spread" rps) req/s, p99 $(field "$small_spread" p99_ms) ms | $(field "$large_spread" rps) req/s, p99 $(field "$large_spread" p99_ms) ms | $(ratio "$(field "$large_spread" p99_ms)" "$(field "$small_spread" p99_ms)") | $(ratio "$(field "$large_spread" rps)" "$(field "$small_spread" rps)") |"
echo "| password login, $HASH_CONN connections | $(field "$small_login" rps)/s, p99 $(field "$small_login" p99_ms) ms | $(field "$large_login" rps)/s, p99 $(field "$large_login" p99_ms) ms | $(ratio "$(field "$large_login" p99_ms)" "$(field "$small_login" p99_ms)") | $(ratio "$(field "$large_login" rps)" "$(field "$small_login" rps)") |"
echo
echo "| news list (admin, uncached), 100,020 items | page 1 | page 5,000 | p99 growth | rate ratio |"
echo "|---|---|---|---|---|"
echo "| \`GET /api/news\`, $HOT_CONN connections | $(field "$page1" rps) req/s, p99 $(field "$page1" p99_ms) ms | $(field "$page5000" rps) req/s, p99 $(field "$page5000" p99_ms) ms | $(ratio "$(field "$page5000" p99_ms)" "$(field "$page1" p99_ms)") | $(ratio "$(field "$page5000" rps)" "$(field "$page1" rps)") |"
echo
echo "non-2xx: verify $(field "$small_verify" non2xx)/$(field "$large_verify" non2xx), spread $(field "$small_spread" non2xx)/$(field "$large_spread" non2xx), login $(field "$small_login" non2xx)/$(field "$large_login" non2xx), news $(field "$page1" non2xx)/$(field "$page5000" non2xx)"
