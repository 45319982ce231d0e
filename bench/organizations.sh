#!/usr/bin/env bash
# Organizations at size (issue 21): the first members page (PAGE people, default 10) of an
# organization with 10 members against one with MEMBERS (default 10,000), and one invitation call of 500 addresses
# to each. Prints a table with the ratios; asserts nothing (the goal: within 1.5×, and 500
# invitations in one call under a second on SQLite).
#   bench/organizations.sh                       # SQLite
#   DATABASE=postgres bench/organizations.sh     # a fresh PostgreSQL database (TEST_POSTGRES_URL)
#   BUILD=0 bench/organizations.sh               # no cargo build: the release server as built
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
DATABASE="${DATABASE:-sqlite}"
MEMBERS="${MEMBERS:-10000}"
PORT="${PORT:-18095}"
BASE="http://127.0.0.1:$PORT"
CONN="${CONN:-32}"; DUR="${DUR:-10}"
INVITE_ROUNDS="${INVITE_ROUNDS:-5}"
# The page size: the small organization's whole list, so both pages carry the same people.
PAGE="${PAGE:-10}"

bench_prepare
bench_database "$DATABASE" orgs
bench_env
bench_serve "$PORT"

# `count` accounts made members of the organization named `org`, in bulk.
seed_members() {  # org count prefix
  if [ "$DATABASE" = postgres ]; then
    psql "$database_url" -q <<SQL
WITH seeded AS (
  INSERT INTO users (id, name, email, country_code, phone, role, status, email_verified, two_factor_enabled,
    notify_email, notify_sms, notify_push, theme, created_at, updated_at)
  SELECT gen_random_uuid(), '$3 ' || g, '$3' || g || '@seed.example', '+91', '+919876543210', 'career', 'active',
    true, false, true, false, true, 'dark', now(), now() FROM generate_series(1, $2) g
  RETURNING id, name)
INSERT INTO organization_members (organization_id, user_id, role, rank, name_key, joined_at)
SELECT (SELECT id FROM organizations WHERE name = '$1'), id, 'member', 1, lower(name), now() FROM seeded;
ANALYZE users; ANALYZE organization_members;
SQL
  else
    python3 - "$(sqlite_file)" "$1" "$2" "$3" <<'PY'
import sqlite3, sys, uuid, datetime
db, org, count, prefix = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f000+00:00")
c = sqlite3.connect(db)
org_id = c.execute("SELECT id FROM organizations WHERE name = ?", (org,)).fetchone()[0]
users, members = [], []
for g in range(1, count + 1):
    uid = uuid.uuid4().bytes
    users.append((uid, f"{prefix} {g}", f"{prefix}{g}@seed.example", stamp, stamp))
    members.append((org_id, uid, f"{prefix} {g}".lower(), stamp))
c.executemany("INSERT INTO users (id, name, email, country_code, phone, role, status, email_verified, two_factor_enabled, "
              "notify_email, notify_sms, notify_push, theme, created_at, updated_at) VALUES (?, ?, ?, '+91', '+919876543210', "
              "'career', 'active', 1, 0, 1, 0, 1, 'dark', ?, ?)", users)
c.executemany("INSERT INTO organization_members (organization_id, user_id, role, rank, name_key, joined_at) "
              "VALUES (?, ?, 'member', 1, ?, ?)", members)
c.commit(); c.execute("ANALYZE"); c.commit()
PY
  fi
}

# The owner: a Hire account, verified by its mailed code.
token=$(verified_account Owner owner@bench.example hire)
org_id() { json /api/orgs "{\"name\":\"$1\"}" "$token" | sed 's/.*"organization":{"id":"\([^"]*\)".*/\1/'; }
small=$(org_id Small)
large=$(org_id Large)
seed_members Small 9 small
seed_members Large "$((MEMBERS - 1))" large

cat >"$work/get.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
done = function(summary, latency, requests)
  io.write(string.format("RESULT rps=%.1f p99_ms=%.2f non2xx=%d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(99) / 1000, summary.errors.status))
end
LUA
page() { wrk -t2 -c"$CONN" -d"${DUR}s" --timeout 30s --latency -s "$work/get.lua" "$BASE/api/orgs/$1/members?limit=$PAGE" | grep '^RESULT'; }
page_small=$(page "$small")
page_large=$(page "$large")

# One call of 500 new addresses, timed end to end; the median of INVITE_ROUNDS calls (the
# day's invitations are cleared between calls, so the cap does not count them).
invite_ms() {  # org id
  local times=()
  for round in $(seq 1 "$INVITE_ROUNDS"); do
    sql "DELETE FROM organization_invitations" >/dev/null
    body=$(python3 -c "import json,sys; print(json.dumps({'emails': [f'p{i}.r$round@invite.example' for i in range(500)]}))")
    t=$(curl -fs -o /dev/null -w '%{time_total}' -XPOST "$BASE/api/orgs/$1/invitations" \
      -H 'content-type: application/json' -H "authorization: Bearer $token" -d "$body")
    times+=("$(awk -v t="$t" 'BEGIN{printf "%.1f", t*1000}')")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'
}
invite_small=$(invite_ms "$small")
invite_large=$(invite_ms "$large")

echo "Organizations at size — $(date -u +%F), $(nproc) cores, release build, $DATABASE"
echo
echo "| figure | 10 members | $MEMBERS members | ratio |"
echo "|---|---|---|---|"
echo "| members page ($PAGE people), $CONN connections | $(field "$page_small" rps) req/s, p99 $(field "$page_small" p99_ms) ms | $(field "$page_large" rps) req/s, p99 $(field "$page_large" p99_ms) ms | $(ratio "$(field "$page_small" rps)" "$(field "$page_large" rps)") the time |"
echo "| one invitation call of 500 addresses (median of $INVITE_ROUNDS) | $invite_small ms | $invite_large ms | $(ratio "$invite_large" "$invite_small") |"
