# Shared by the bench scripts, sourced right after `cd "$(dirname "$0")/.."` (under set -euo pipefail):
#   bench_prepare            wrk if missing, then bench_build
#   bench_build              the release server (cargo build --release -q -p api --features jemalloc); BUILD=0 uses target/release/api as it is
#   bench_database DB NAME   $database_url: sqlite ($work/NAME.db) or postgres (a fresh database NAME_$$)
#   bench_drop_database      drops the PostgreSQL database bench_database made (the exit trap does it otherwise)
#   bench_env                BENCH_ENV: the server's environment for the current $BASE and $database_url
#   bench_serve PORT [VAR=value ...]   the release server on PORT (VAR=value over BENCH_ENV), its PID in $server
#   bench_stop               stops every server started, waits for them
#   verified_account NAME EMAIL ROLE   signs up and verifies by the mailed code: the session token on stdout
#   json PATH BODY [TOKEN]   a POST to $BASE, the answer on stdout
#   token_of                 the "token" of a JSON answer on stdin
#   field LINE KEY           the value of KEY=value in a RESULT line
#   ratio A B [DECIMALS]     A/B as "1.23×" (2 decimals by default), "—" when either is missing
#   sql STATEMENT            on the bench database, the rows on stdout, columns joined by |
#   sqlite_file              the bench database's SQLite file (from $database_url)
#   database_ticks           CPU clock ticks used so far by this machine's PostgreSQL processes
# It sets ROOT (the repository), work (a temp folder), servers, server, pg_database, and an
# exit trap that stops the servers, drops the PostgreSQL database and removes $work (after
# copying the servers' logs to $KEEP_LOGS, when set).

ROOT="$(pwd)"
BUILD="${BUILD:-1}"
BENCH_PG_URL="${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
# The server signs sessions with it; growth.sh mints session tokens with it too.
BENCH_JWT_SECRET=bench-secret-bench-secret-bench-secret
export CARGO_TERM_COLOR=never

work=$(mktemp -d)
servers=()
server=""
pg_database=""
database_url=""
bench_cleanup() {
  # Stopped and waited for first: PostgreSQL refuses to drop a database a server is still connected to.
  bench_stop
  if [ -n "$pg_database" ]; then
    psql "$BENCH_PG_URL" -qc "DROP DATABASE IF EXISTS $pg_database" >/dev/null 2>&1 || true
  fi
  if [ -n "${KEEP_LOGS:-}" ]; then cp "$work"/*.log "$KEEP_LOGS"/ 2>/dev/null || true; fi
  rm -rf "$work"
}
trap bench_cleanup EXIT

bench_build() {
  if [ "$BUILD" = 0 ]; then
    # A missing binary would otherwise surface later as a server that never answers.
    [ -x target/release/api ] || { echo "bench: BUILD=0, but target/release/api is not built" >&2; exit 1; }
  else
    cargo build --release -q -p api --features jemalloc
  fi
}

bench_prepare() {
  command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
  bench_build
}

bench_database() {  # sqlite|postgres name
  case "$1" in
    sqlite)
      # The -wal and -shm files too: a reused name must start empty.
      rm -f "$work/$2.db"*
      database_url="sqlite://$work/$2.db?mode=rwc" ;;
    postgres)
      bench_drop_database
      # Registered before it exists, so the trap drops it even if the run stops right here.
      pg_database="$2_$$"
      psql "$BENCH_PG_URL" -qc "DROP DATABASE IF EXISTS $pg_database" -c "CREATE DATABASE $pg_database" >/dev/null
      database_url="${BENCH_PG_URL%/*}/$pg_database" ;;
    *) echo "bench: the database is sqlite or postgres, not '$1'" >&2; exit 2 ;;
  esac
}

bench_drop_database() {
  [ -n "$pg_database" ] || return 0
  psql "$BENCH_PG_URL" -qc "DROP DATABASE IF EXISTS $pg_database" >/dev/null
  pg_database=""
}

# The per-address limit is off: wrk sends everything from one address.
bench_env() {
  BENCH_ENV=(PATH="$PATH" HOME="$HOME" APP_ENV=local APP_NAME="Talent Suite" JWT_SECRET="$BENCH_JWT_SECRET"
    MAIN_PLATFORM_URL="$BASE" HIRE_PLATFORM_URL=http://localhost:8081 CAMPUS_PLATFORM_URL=http://localhost:8082
    CAREER_PLATFORM_URL=http://localhost:8083 RATE_LIMIT_PER_IP=0 RUST_LOG=warn CLIENT_DIST_DIR="$ROOT/client/dist"
    DATABASE_URL="$database_url")
}

bench_serve() {  # port [VAR=value ...]
  local port=$1
  shift
  # exec all the way down, so $! is the server's own PID (its memory is read from /proc).
  # With env -i the last assignment of a name wins, so the caller's VAR=value overrides BENCH_ENV.
  ( exec env -i "${BENCH_ENV[@]}" BIND_ADDR="127.0.0.1:$port" "$@" ./target/release/api serve ) \
    >>"$work/server-$port.log" 2>&1 &
  server=$!
  servers+=("$server")
  local _
  for _ in $(seq 1 300); do
    curl -fs "http://127.0.0.1:$port/healthz" >/dev/null && return 0
    kill -0 "$server" 2>/dev/null || break  # it exited: no point waiting out the 30 s
    sleep 0.1
  done
  echo "bench: the server on port $port did not start; its log:" >&2
  cat "$work/server-$port.log" >&2
  exit 1
}

bench_stop() {
  local pid
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  servers=()
  server=""
}

json() { curl -fs -XPOST "$BASE$1" -H 'content-type: application/json' ${3:+-H "authorization: Bearer $3"} -d "$2"; }
token_of() { sed 's/.*"token":"\([^"]*\)".*/\1/'; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p; s/^RESULT $2=\([^ ]*\).*/\1/p" <<<"$1" | head -1; }
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN{ if (a != "" && b+0 > 0) printf("%." d "f×", a/b); else print "—" }'; }

# The dev mailbox holds every code sent: callers verify one account per server. Each step
# returns on failure itself: inside $(...) bash clears set -e.
verified_account() {  # name email role -> session token
  json /api/auth/register "{\"name\":\"$1\",\"email\":\"$2\",\"countryCode\":\"+91\",\"phone\":\"9876543210\",\"password\":\"benchPass42\",\"role\":\"$3\"}" >/dev/null || return
  json /api/auth/send-otp-email "{\"email\":\"$2\"}" >/dev/null || return
  local code
  code=$(curl -fs "$BASE/dev/mailbox" | grep -o 'verification code: [0-9]\{6\}' | head -1 | grep -o '[0-9]\{6\}') || return
  json /api/auth/verify-otp-email "{\"email\":\"$2\",\"otp\":\"$code\"}" | token_of
}

sqlite_file() { local path=${database_url#sqlite://}; echo "${path%%\?*}"; }

# PostgreSQL through psql, SQLite through Python's sqlite3 (no sqlite3 command needed).
sql() {  # statement
  case "$database_url" in
    sqlite:*)
      python3 - "$(sqlite_file)" "$1" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); rows = c.execute(sys.argv[2]).fetchall(); c.commit()
for r in rows: print("|".join("" if v is None else str(v) for v in r))
PY
      ;;
    *) psql "$database_url" -qAtc "$1" ;;
  esac
}

# PostgreSQL runs on the same cores as the server and wrk: its CPU is part of each figure.
database_ticks() {
  local pid
  for pid in $(pgrep -u postgres postgres); do awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null; done |
    awk '{s += $1} END {print s + 0}'
}
