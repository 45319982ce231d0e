#!/usr/bin/env bash
# The admin console at size (issue 24): the user search over ACCOUNTS accounts (default
# 1,000,000) for a rotating set of name and email prefixes, at each of CONNS connections
# (default 1, 4 and 16: the curve shows where the tail is queueing on this machine's cores
# rather than the query), p99 printed (the goal: under 50 ms on SQLite and PostgreSQL); the first page with no query; and the
# audit log's CSV export of AUDIT_ROWS rows (default 100,000), its time and the server's peak
# memory while it streams, beside the memory at rest. Asserts nothing.
#   bench/admin.sh                       # SQLite
#   DATABASE=postgres bench/admin.sh     # a fresh PostgreSQL database (TEST_POSTGRES_URL)
#   BUILD=0 bench/admin.sh               # no cargo build: the release server as built
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
DATABASE="${DATABASE:-sqlite}"
ACCOUNTS="${ACCOUNTS:-1000000}"
AUDIT_ROWS="${AUDIT_ROWS:-100000}"
PORT="${PORT:-18096}"
BASE="http://127.0.0.1:$PORT"
CONNS="${CONNS:-${CONN:-1 4 16}}"; CONN="${CONNS##* }"; DUR="${DUR:-10}"
bench_prepare
bench_database "$DATABASE" admin_bench
bench_env
bench_serve "$PORT"

# The admin, verified by its mailed code, promoted, signed in again.
email="admin@bench.example"
verified_account Admin "$email" career >/dev/null
sql "UPDATE users SET role = 'admin' WHERE email = '$email'" >/dev/null
token=$(json /api/auth/login "{\"email\":\"$email\",\"password\":\"benchPass42\"}" | token_of)

# ACCOUNTS people with names drawn from 200 first and 200 last names, and AUDIT_ROWS events.
seeded_at=$(date +%s)
if [ "$DATABASE" = postgres ]; then
  psql "$database_url" -q <<SQL
INSERT INTO users (id, name, email, country_code, phone, role, status, email_verified, two_factor_enabled,
  notify_email, notify_sms, notify_push, theme, created_at, updated_at)
SELECT gen_random_uuid(),
  (ARRAY['Ada','Alan','Grace','Linus','Margaret','Dennis','Barbara','Ken','Frances','John'])[1 + g % 10] || ' ' || chr(65 + (g / 10) % 26) || 'son ' || g,
  'person' || g || '@' || (ARRAY['example.com','campus.test','hire.test','mail.test'])[1 + g % 4],
  '+91', '+919876543210', (ARRAY['career','campus','hire'])[1 + g % 3], (ARRAY['active','pending','suspended'])[1 + (g % 20 = 0)::int + (g % 97 = 0)::int],
  true, false, true, false, true, 'dark', now(), now() FROM generate_series(1, $ACCOUNTS) g;
INSERT INTO audit_events (id, at, kind, user_id, actor_id, ip, user_agent, detail)
SELECT gen_random_uuid(), now() - (g || ' seconds')::interval, (ARRAY['sign_in','sign_in_failed','code_sent'])[1 + g % 3],
  NULL, NULL, '203.0.113.' || (g % 250), 'Mozilla/5.0 (bench)', NULL FROM generate_series(1, $AUDIT_ROWS) g;
SQL
# A bulk load leaves every page for the first reader to mark (hint bits) and the visibility map
# empty, and its dirty pages for a checkpoint to write mid-run: a live table has been vacuumed
# and checkpointed. Without this the first reads of each prefix stall, and so do writes.
psql "$database_url" -q -c "VACUUM (ANALYZE) users" -c "VACUUM (ANALYZE) audit_events" -c "CHECKPOINT"
else
  python3 - "$(sqlite_file)" "$ACCOUNTS" "$AUDIT_ROWS" <<'PY'
import sqlite3, sys, uuid, datetime
db, count, audit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
now = datetime.datetime.now(datetime.timezone.utc)
stamp = now.strftime("%Y-%m-%dT%H:%M:%S.%f000+00:00")
firsts = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'John']
domains = ['example.com', 'campus.test', 'hire.test', 'mail.test']
c = sqlite3.connect(db)
def people():
    for g in range(1, count + 1):
        status = 'suspended' if g % 97 == 0 else ('pending' if g % 20 == 0 else 'active')
        yield (uuid.uuid4().bytes, f"{firsts[g % 10]} {chr(65 + (g // 10) % 26)}son {g}", f"person{g}@{domains[g % 4]}",
               ['career', 'campus', 'hire'][g % 3], status, stamp, stamp)
c.executemany("INSERT INTO users (id, name, email, country_code, phone, role, status, email_verified, two_factor_enabled, "
              "notify_email, notify_sms, notify_push, theme, created_at, updated_at) VALUES (?, ?, ?, '+91', '+919876543210', "
              "?, ?, 1, 0, 1, 0, 1, 'dark', ?, ?)", people())
def events():
    for g in range(1, audit + 1):
        at = (now - datetime.timedelta(seconds=g)).strftime("%Y-%m-%dT%H:%M:%S.%f000+00:00")
        yield (uuid.uuid4().bytes, at, ['sign_in', 'sign_in_failed', 'code_sent'][g % 3], f"203.0.113.{g % 250}")
c.executemany("INSERT INTO audit_events (id, at, kind, user_id, actor_id, ip, user_agent, detail) "
              "VALUES (?, ?, ?, NULL, NULL, ?, 'Mozilla/5.0 (bench)', NULL)", events())
c.commit(); c.execute("ANALYZE"); c.commit()
PY
fi
seed_s=$(( $(date +%s) - seeded_at ))

# The search: each request a different prefix, as a person typing would send.
cat >"$work/search.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
local queries = {"ada", "alan b", "grace", "linus k", "marg", "person12@", "person4567@hire", "dennis z", "barbara", "ken q", "frances", "john m", "person99999@mail.test"}
local n = 0
request = function()
  n = n + 1
  local q = queries[(n % #queries) + 1]:gsub(" ", "%%20")
  return wrk.format("GET", "/api/admin/users?limit=50&query=" .. q)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))
end
LUA
# Each query alone, warm: the median of five, so a slow one shows by name.
per_query=""
for q in "ada" "alan b" "grace" "linus k" "marg" "person12@" "person4567@hire" "dennis z" "barbara" "ken q" "frances" "john m" "person99999@mail.test"; do
  times=$(for _ in 1 2 3 4 5 6; do curl -fs -o /dev/null -w '%{time_total}\n' -H "authorization: Bearer $token" "$BASE/api/admin/users?limit=50&query=${q// /%20}"; done | tail -5 | sort -n | sed -n 3p)
  per_query+="$q $(awk -v t="$times" 'BEGIN{printf "%.1f", t*1000}') ms; "
done
searches=()
for conn in $CONNS; do
  searches+=("$conn $(wrk -t"$((conn < 2 ? 1 : 2))" -c"$conn" -d"${DUR}s" --timeout 30s --latency -s "$work/search.lua" "$BASE" | grep '^RESULT')")
done
cat >"$work/first.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
wrk.path = "/api/admin/users?limit=50&role=hire"
done = function(summary, latency, requests)
  io.write(string.format("RESULT rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))
end
LUA
first=$(wrk -t"$((CONN < 2 ? 1 : 2))" -c"$CONN" -d"${DUR}s" --timeout 30s --latency -s "$work/first.lua" "$BASE" | grep '^RESULT')

# The export: the whole log as CSV, while the server's resident memory is sampled.
rss() { awk '/VmRSS/ {print int($2/1024)}' "/proc/$server/status"; }
rest_mib=$(rss)
peak=0
( while kill -0 "$server" 2>/dev/null; do r=$(rss); echo "$r"; sleep 0.05; done ) >"$work/rss" &
sampler=$!
t0=$(date +%s.%N)
curl -fs -H "authorization: Bearer $token" "$BASE/api/admin/audit.csv" -o "$work/audit.csv"
t1=$(date +%s.%N)
kill $sampler 2>/dev/null || true
peak=$(sort -n "$work/rss" | tail -1)
rows=$(($(wc -l <"$work/audit.csv") - 1))
export_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}')

echo "Admin console at size — $(date -u +%F), $(nproc) cores, release build, $DATABASE (seeded in ${seed_s} s)"
echo
echo "| figure | value |"
echo "|---|---|"
for search in "${searches[@]}"; do
  echo "| user search over $ACCOUNTS accounts, 13 rotating prefixes, ${search%% *} connections | $(field "$search" rps) req/s, p50 $(field "$search" p50_ms) ms, p99 $(field "$search" p99_ms) ms, non-2xx $(field "$search" non2xx) |"
done
echo "| each query alone (median of 5) | ${per_query% } |"
echo "| first page of one role, no query, $CONN connections | $(field "$first" rps) req/s, p99 $(field "$first" p99_ms) ms |"
echo "| audit CSV export, $rows rows | ${export_s} s, peak RSS $peak MiB (at rest $rest_mib MiB) |"
