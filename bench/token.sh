#!/usr/bin/env bash
# The OpenID Provider's token endpoint beside panva's oidc-provider (bench/peers/oidc-provider,
# the most used OpenID Provider library for Node), in one run on this machine: our release
# server on SQLite and on PostgreSQL, then the peer, each loaded with wrk at CONNS connections
# for DUR seconds with
#   1. the authorization-code exchange: grant_type=authorization_code, PKCE S256, a
#      confidential client authenticated with client_secret_basic, a fresh code per request;
#   2. refresh-token rotation: grant_type=refresh_token, a fresh refresh token per request
#      (rotation makes each one single-use);
#   3. the authorize endpoint that issues the codes: one signed-in session asking again and
#      again, each answer a redirect with a new code.
# Both sides sign their ID tokens with the same key (made here, given to our server as its
# signing key and to the peer as its JWKS, same kid): RS256 with a 2048-bit RSA key, or with
# ALG=EdDSA an Ed25519 key and a client registered for it on both sides. Both put the same
# claims in them (scope `openid email profile`). Prints one table with requests/s, p50, p99, the CPU
# each answer cost the server (and PostgreSQL, which shares the two cores) and the ratios
# ours/peer; asserts nothing on timing, but stops when any answer is not 2xx (a failed exchange
# is fast, and would pass for speed) or a pool of codes or tokens ran out.
#   bench/token.sh                           # both databases and the peer (~7 min); make bench-token
#   DATABASES=sqlite PEER=0 bench/token.sh   # ours on SQLite only
#   DATABASES= bench/token.sh                # the peer alone
#   CONNS="16" DUR=5 bench/token.sh          # one connection count, shorter runs
#   ALG=EdDSA bench/token.sh                 # ID tokens signed EdDSA (Ed25519) on both sides
#   BUILD=0 bench/token.sh                   # no cargo build: the release server as built
#   KEEP_LOGS=/tmp/logs SERVER_LOG=warn,api::oidc=debug bench/token.sh   # keep the server's log
#
# Codes and refresh tokens are minted before each run, by a real authorize request each (and,
# for refresh tokens, a real exchange): ours at GET /oauth2/authorize with a signed-in
# session's bearer token, the peer at GET /auth with its session cookie (its one login per
# account goes through an interaction, see server.mjs). A code lives 60 s on both sides, so a
# pool of codes is minted right before the run that uses it; wrk takes them one per request
# and never reuses one. A pool that runs out voids the run (wrk divides by the whole duration):
# it is minted again, sized from the rate the run kept until it ran out, and the run repeated.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
PEER_DIR="$ROOT/bench/peers/oidc-provider"
DATABASES="${DATABASES-${DATABASE-sqlite postgres}}"  # empty: the peer alone
PEER="${PEER:-1}"
CONNS="${CONNS:-16 64}"
DUR="${DUR:-10}"               # seconds a figure; minting + DUR must stay under a code's 60 s
PROBE="${PROBE:-8000}"         # codes for the 2 s warm-up that sizes the first pool
POOL="${POOL:-40000}"          # the first pool when the warm-up used up its codes
SESSIONS="${SESSIONS:-8}"      # signed-in accounts the codes are spread over
PORT="${PORT:-18200}"          # ours; the peer listens on the next port
ALG="${ALG:-RS256}"            # the ID tokens' algorithm: RS256 or EdDSA
BASE="http://127.0.0.1:$PORT"
PEER_PORT=$((PORT + 1))
# Registered on both sides and never followed: the minting reads the code from the Location.
REDIRECT_URI="http://127.0.0.1:9/callback"
REDIRECT_URI_ENCODED="http%3A%2F%2F127.0.0.1%3A9%2Fcallback"   # the same, percent-encoded for a query
export PGOPTIONS="--client-min-messages=warning"
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)

command -v openssl >/dev/null || { echo "bench: openssl (the command) makes the shared key" >&2; exit 1; }
case "$ALG" in RS256 | EdDSA) ;; *) echo "bench: ALG is RS256 or EdDSA, not $ALG" >&2; exit 1 ;; esac
bench_prepare
if [ "$PEER" = 1 ] && { [ ! -d "$PEER_DIR/node_modules" ] || [ "$PEER_DIR/package-lock.json" -nt "$PEER_DIR/node_modules/.package-lock.json" ]; }; then
  npm --prefix "$PEER_DIR" ci --no-audit --no-fund --loglevel=error
fi

# ---- the shared signing key, in the PEM api/src/oidc/keys.rs makes: PKCS#1 for RS256 (2048
# bits), PKCS#8 for EdDSA (Ed25519).
if [ "$ALG" = EdDSA ]; then
  openssl genpkey -algorithm ed25519 -out "$work/key.pem" 2>/dev/null
else
  openssl genrsa -traditional -out "$work/key.pem" 2048 2>/dev/null
fi
KID="bench-$(openssl rand -hex 6)"

# ---- the peer's sign-in (Python, standard library only); the codes and tokens themselves are
# minted by bench/mint_codes.mjs.
cat >"$work/sign_in_peer.py" <<'PY'
"""sign_in_peer.py BASE CLIENT_ID REDIRECT_URI ACCOUNT -> "cookie: ..." (the peer's session)."""
import base64, hashlib, http.cookiejar, secrets, sys
import urllib.error, urllib.parse, urllib.request


def authorize_query(client_id, redirect_uri, challenge, login_hint=None):
    params = {
        "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri,
        "scope": "openid email profile", "state": secrets.token_urlsafe(12),
        "nonce": secrets.token_urlsafe(12), "code_challenge": challenge,
        "code_challenge_method": "S256",
    }
    if login_hint:
        params["login_hint"] = login_hint
    return urllib.parse.urlencode(params)


def pkce():
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def code_from(location):
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(location or "").query)
    if "code" not in query:
        raise SystemExit(f"mint: the authorize endpoint answered no code: {(location or '')[:300]}")
    return query["code"][0]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def sign_in_peer(base, client_id, redirect_uri, account):
    """The peer's interaction once (server.mjs logs in login_hint): its session cookie."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    url = f"{base}/auth?{authorize_query(client_id, redirect_uri, pkce()[1], account)}"
    for _ in range(5):
        try:
            opener.open(url)
            raise SystemExit("mint: the peer's sign-in did not redirect")
        except urllib.error.HTTPError as answer:
            if answer.code not in (302, 303):
                raise SystemExit(f"mint: the peer's sign-in answered {answer.code}: {answer.read()[:300]}")
            url = urllib.parse.urljoin(url, answer.headers["location"])
        if url.startswith(redirect_uri):
            code_from(url)
            print("cookie: " + "; ".join(f"{c.name}={c.value}" for c in jar if c.path == "/"))
            return
    raise SystemExit("mint: the peer's sign-in never came back with a code")


def main():
    base, client_id, redirect_uri, account = sys.argv[1:5]
    sign_in_peer(base.rstrip("/"), client_id, redirect_uri, account)


if __name__ == "__main__":
    main()
PY

# ---- the wrk script: one fresh body a request from <pool>.<thread>, never one twice. A thread
# whose pool runs out stops and says so (exhausted=…), since wrk divides by the whole -d.
wrk_script() {  # path basic pool -> script on stdout
  cat <<LUA
local path, basic, pool = "$1", "$2", "$3"
local threads, thread_ix = {}, 0
setup = function(thread)
  thread:set("tix", thread_ix); thread_ix = thread_ix + 1
  table.insert(threads, thread)
end
local bodies, n = {}, 0
out, used, started_ms, out_after_ms = 0, 0, 0, 0
-- Wall-clock milliseconds (wrk's Lua has no clock of its own); read twice a thread at most.
local function now_ms()
  local date = io.popen("date +%s%3N")
  local ms = tonumber(date:read("*l"))
  date:close()
  return ms
end
init = function(args)
  for line in io.lines(pool .. "." .. tix) do bodies[#bodies + 1] = line end
end
local headers = { ["authorization"] = "Basic " .. basic, ["content-type"] = "application/x-www-form-urlencoded" }
request = function()
  n = n + 1
  if n == 1 then started_ms = now_ms() end
  local body = bodies[n]
  if not body then
    if out == 0 then out_after_ms = now_ms() - started_ms end
    out = 1
    wrk.thread:stop()
    return wrk.format("GET", "/healthz")
  end
  used = n
  return wrk.format("POST", path, headers, body)
end
-- A thread that ran out says how fast it went until then; rate_before_out is their mean, times
-- the threads, so that the next pool is sized from it rather than guessed.
done = function(summary, latency, requests)
  local exhausted, rate_before_out = 0, 0
  for _, t in ipairs(threads) do
    exhausted = exhausted + t:get("out")
    if t:get("out") == 1 and t:get("out_after_ms") > 0 then
      rate_before_out = rate_before_out + t:get("used") * 1000 / t:get("out_after_ms")
    end
  end
  if exhausted > 0 then rate_before_out = rate_before_out * #threads / exhausted end
  local e = summary.errors
  io.write(string.format("RESULT requests=%d rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d socket_errors=%d exhausted=%d rate_before_out=%.1f\n",
    summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, e.status, e.connect + e.read + e.write + e.timeout, exhausted, rate_before_out))
end
LUA
}

# CPU time (clock ticks, user + system) of a process with all its threads (PostgreSQL's:
# database_ticks, bench/lib.sh).
process_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
per_request() {  # ticks-before ticks-after requests -> milliseconds of CPU per request
  awk -v a="$1" -v b="$2" -v n="$3" -v hz="$(getconf CLK_TCK)" 'BEGIN{ if (n > 0) printf "%.2f", (b - a) / hz * 1000 / n; else print "" }'
}

declare -A R      # R[<side>.<grant>.<conns>] = RESULT line
declare -A NEXT   # NEXT[<side>.<grant>] = the pool size the measured rate asks for
declare -A PEAK   # PEAK[<side>] = the server's peak resident memory (KiB) after its runs

# Mint a pool of SIZE and load it for SECS seconds: the RESULT line in $LINE.
# side grant(code|refresh) conns secs size base auth_path token_path client_id basic sessions_file
load_pool() {
  local side=$1 grant=$2 conns=$3 secs=$4 size=$5 base=$6 auth=$7 token=$8 client=$9 basic=${10} sessions=${11}
  local minted_at
  minted_at=$(date +%s)
  if [ "$grant" = code ]; then
    node bench/mint_codes.mjs codes "$base" "$auth" "$token" "$client" "$REDIRECT_URI" "$sessions" "$size" >"$work/pool"
  else
    node bench/mint_codes.mjs refresh "$base" "$auth" "$token" "$client" "$REDIRECT_URI" "$sessions" "$size" "$basic" >"$work/pool"
  fi
  rm -f "$work"/pool.[0-9]*
  awk -v p="$work/pool" '{ print > (p "." (NR - 1) % 2) }' "$work/pool"
  wrk_script "$token" "$basic" "$work/pool" >"$work/run.lua"
  echo "bench: $side $grant, $conns connections: $size minted in $(( $(date +%s) - minted_at )) s, loading for $secs s" >&2
  local db_before="" server_before
  [ "$side" = postgres ] && db_before=$(database_ticks)
  server_before=$(process_ticks "$server")
  LINE=$(wrk -t2 -c"$conns" -d"${secs}s" --timeout 30s --latency -s "$work/run.lua" "$base" | grep '^RESULT') \
    || { echo "bench: wrk gave no result for $side $grant" >&2; exit 1; }
  # CPU per answered request: the server's own, and PostgreSQL's beside it.
  local requests
  requests=$(field "$LINE" requests)
  LINE="$LINE server_cpu_ms=$(per_request "$server_before" "$(process_ticks "$server")" "$requests")"
  [ -n "$db_before" ] && LINE="$LINE db_cpu_ms=$(per_request "$db_before" "$(database_ticks)" "$requests")"
  return 0
}

# A figure of refused exchanges is no figure: any non-2xx answer or socket error stops the run.
require_clean() {  # what result-line
  if [ "$(field "$2" non2xx)" != 0 ] || [ "$(field "$2" socket_errors)" != 0 ]; then
    echo "bench: $1 failed: $2" >&2
    echo "bench: (non2xx counts answers that were not 2xx: an expired or reused code, a refused client…)" >&2
    exit 1
  fi
}

max() { if [ "$1" -gt "$2" ]; then echo "$1"; else echo "$2"; fi; }

# The next pool: RATE for DUR seconds, and a quarter as much again (wrk's two threads do not
# share the work evenly), never smaller than the last one. A pool takes longer to mint than to
# use (authorize costs the server more than the exchange), and a code lives 60 s.
next_pool() {  # side grant rate
  NEXT[$1.$2]=$(awk -v r="$3" -v d="$DUR" -v s="${NEXT[$1.$2]:-0}" 'BEGIN{ n = int(r * d * 1.25) + 1000; if (s > n) n = s; print n }')
}

# One measured run: a pool sized from the fastest rate measured so far on this side (the code
# exchanges run first at each connection count, and refreshes go about as fast), and, if it ran
# out, again from the rate the run kept until it did.
# side grant conns base auth_path token_path client_id basic sessions_file
run_pooled() {
  local side=$1 grant=$2 conns=$3 size
  size=$(max "${NEXT[$1.$2]:-0}" "${NEXT[$1.code]:-$POOL}")
  shift 3
  for _ in 1 2 3; do
    load_pool "$side" "$grant" "$conns" "$DUR" "$size" "$@"
    [ "$(field "$LINE" exhausted)" = 0 ] && break
    size=$(awk -v r="$(field "$LINE" rate_before_out)" -v d="$DUR" -v s="$size" \
      'BEGIN{ n = int(r * d * 1.25) + 1000; if (n < s * 1.25) n = int(s * 2); print n }')
    echo "bench: $side $grant: the pool ran out before $DUR s, at $(field "$LINE" rate_before_out) req/s; minting $size" >&2
  done
  [ "$(field "$LINE" exhausted)" = 0 ] || { echo "bench: $side $grant at $conns connections: every pool ran out" >&2; exit 1; }
  require_clean "$side $grant at $conns connections" "$LINE"
  R[$side.$grant.$conns]=$LINE
  next_pool "$side" "$grant" "$(field "$LINE" rps)"
}

# The authorize endpoint: one signed-in session asks for a code again and again with one fixed
# request (RFC 7636's example challenge; the codes are never exchanged). One request before the
# run and one after must each come back with a code, and wrk counts any 4xx or 5xx.
# side conns base auth_path client_id sessions_file
authorize_run() {
  local side=$1 conns=$2 url header server_before db_before="" requests
  url="$3$4?response_type=code&client_id=$5&redirect_uri=$REDIRECT_URI_ENCODED"
  url="$url&scope=openid%20email%20profile&state=bench-state&nonce=bench-nonce"
  url="$url&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGN8Fpxr1M&code_challenge_method=S256"
  header=$(head -1 "$6")
  gives_code() { curl -s -o /dev/null -w '%{redirect_url}' -H "$header" "$url" | grep -q '[?&]code='; }
  gives_code || { echo "bench: $side's authorize endpoint answered no code" >&2; exit 1; }
  cat >"$work/authorize.lua" <<'LUA'
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT requests=%d rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d socket_errors=%d exhausted=0\n",
    summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
LUA
  [ "$side" = postgres ] && db_before=$(database_ticks)
  server_before=$(process_ticks "$server")
  LINE=$(wrk -t2 -c"$conns" -d"${DUR}s" --timeout 30s --latency -s "$work/authorize.lua" -H "$header" "$url" | grep '^RESULT') \
    || { echo "bench: wrk gave no result for $side authorize" >&2; exit 1; }
  requests=$(field "$LINE" requests)
  LINE="$LINE server_cpu_ms=$(per_request "$server_before" "$(process_ticks "$server")" "$requests")"
  [ -n "$db_before" ] && LINE="$LINE db_cpu_ms=$(per_request "$db_before" "$(database_ticks)" "$requests")"
  require_clean "$side authorize at $conns connections" "$LINE"
  gives_code || { echo "bench: $side's authorize endpoint answered no code after its run" >&2; exit 1; }
  R[$side.authorize.$conns]=$LINE
}

# Both grants at each connection count, after a warm-up (Node's JIT, our pools and caches)
# that also sizes the first pool: 2 s of code exchanges from a pool of PROBE codes.
measure_side() {  # side base auth_path token_path client_id client_secret sessions_file
  local side=$1 base=$2 auth=$3 token=$4 client=$5 secret=$6 sessions=$7 basic conns
  basic=$(printf '%s:%s' "$client" "$secret" | base64 -w0)
  load_pool "$side" code "${CONNS%% *}" 2 "$PROBE" "$base" "$auth" "$token" "$client" "$basic" "$sessions"
  require_clean "$side warm-up" "$LINE"
  [ "$(field "$LINE" exhausted)" = 0 ] && next_pool "$side" code "$(field "$LINE" rps)"
  for conns in $CONNS; do
    run_pooled "$side" code "$conns" "$base" "$auth" "$token" "$client" "$basic" "$sessions"
    run_pooled "$side" refresh "$conns" "$base" "$auth" "$token" "$client" "$basic" "$sessions"
  done
  # Last, so that its unused codes do not sit in the tables the exchanges use.
  for conns in $CONNS; do
    authorize_run "$side" "$conns" "$base" "$auth" "$client" "$sessions"
  done
  PEAK[$side]=$(awk '/^VmHWM:/ {print $2}' "/proc/$server/status")
}

# ---- ours, once per database
measure_ours() {  # database
  local db=$1 client secret n token
  bench_database "$db" token_bench
  bench_env
  env -i "${BENCH_ENV[@]}" ./target/release/api migrate >/dev/null
  # The shared key as our current key of its algorithm, stored in plain text: the server seals
  # it under its key-encryption key when it starts (keys.rs, reseal_all), as for a key stored
  # before sealing existed. No other key of that algorithm exists, so it is the one that signs.
  if [ "$db" = postgres ]; then
    psql "$database_url" -q -v kid="$KID" -v alg="$ALG" -v pem="$(cat "$work/key.pem")" \
      <<<"INSERT INTO signing_keys (kid, alg, private_pem, created_at, retired_at) VALUES (:'kid', :'alg', :'pem', now(), NULL);"
  else
    python3 - "$(sqlite_file)" "$KID" "$ALG" "$work/key.pem" <<'PY'
import datetime, sqlite3, sys
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f000+00:00")
c = sqlite3.connect(sys.argv[1])
c.execute("INSERT INTO signing_keys (kid, alg, private_pem, created_at, retired_at) VALUES (?, ?, ?, ?, NULL)",
          (sys.argv[2], sys.argv[3], open(sys.argv[4]).read(), now))
c.commit()
PY
  fi
  # A first-party confidential client (no consent screen), as `make run`'s operators make them.
  env -i "${BENCH_ENV[@]}" ./target/release/api oauth-client create \
    --name "Token bench" --redirect-uri "$REDIRECT_URI" --first-party --id-token-alg "$ALG" >"$work/client.txt" 2>/dev/null
  client=$(sed -n 's/^client_id: //p' "$work/client.txt")
  secret=$(sed -n 's/^client_secret: //p' "$work/client.txt")
  bench_serve "$PORT" ${SERVER_LOG:+RUST_LOG=$SERVER_LOG}
  curl -fs "$BASE/oauth2/jwks" | grep -q "\"kid\":\"$KID\"" \
    || { echo "bench: our server does not publish the shared key $KID" >&2; cat "$work/server-$PORT.log" >&2; exit 1; }
  # SESSIONS accounts, each signed in once: the codes go round their sessions.
  for n in $(seq 1 "$SESSIONS"); do
    json /api/auth/register "{\"name\":\"Bench\",\"email\":\"user-$n@bench.example.com\",\"countryCode\":\"+91\",\"phone\":\"9876543210\",\"password\":\"benchPass42\",\"role\":\"career\"}" >/dev/null
  done
  sql "UPDATE users SET email_verified = true, status = 'active'" >/dev/null
  : >"$work/sessions-ours"
  for n in $(seq 1 "$SESSIONS"); do
    token=$(json /api/auth/login "{\"email\":\"user-$n@bench.example.com\",\"password\":\"benchPass42\"}" | token_of)
    [[ "$token" =~ ^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$ ]] || { echo "bench: user-$n could not sign in" >&2; exit 1; }
    echo "authorization: Bearer $token" >>"$work/sessions-ours"
  done
  measure_side "$db" "$BASE" /oauth2/authorize /oauth2/token "$client" "$secret" "$work/sessions-ours"
  bench_stop
  bench_drop_database
}
for db in $DATABASES; do measure_ours "$db"; done

# ---- the peer: oidc-provider, one Node process, in-memory storage (see server.mjs)
if [ "$PEER" = 1 ]; then
  # Credentials of the same shape as ours (16 and 32 random bytes, base64url).
  peer_client=$(python3 -c 'import secrets; print(secrets.token_urlsafe(16))')
  peer_secret=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
  ( exec env -i PATH="$PATH" HOME="$HOME" NODE_ENV=production PORT="$PEER_PORT" KEY_PEM="$work/key.pem" KID="$KID" ALG="$ALG" \
      CLIENT_ID="$peer_client" CLIENT_SECRET="$peer_secret" REDIRECT_URI="$REDIRECT_URI" \
      node "$PEER_DIR/server.mjs" ) >>"$work/peer.log" 2>&1 &
  server=$!
  servers+=("$server")
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PEER_PORT/healthz" >/dev/null && break; sleep 0.1; done
  curl -fs "http://127.0.0.1:$PEER_PORT/jwks" | grep -q "\"kid\":\"$KID\"" \
    || { echo "bench: the peer does not publish the shared key $KID" >&2; cat "$work/peer.log" >&2; exit 1; }
  : >"$work/sessions-peer"
  for n in $(seq 1 "$SESSIONS"); do
    python3 "$work/sign_in_peer.py" "http://127.0.0.1:$PEER_PORT" "$peer_client" "$REDIRECT_URI" "user-$n" >>"$work/sessions-peer"
  done
  measure_side peer "http://127.0.0.1:$PEER_PORT" /auth /token "$peer_client" "$peer_secret" "$work/sessions-peer"
fi

# ---- the table
name() {
  case "$1" in
    postgres) echo "ours, PostgreSQL" ;;
    sqlite) echo "ours, SQLite" ;;
    *) echo "oidc-provider $(node -p "require('$PEER_DIR/node_modules/oidc-provider/package.json').version" 2>/dev/null)" ;;
  esac
}
echo
echo "The token endpoint beside oidc-provider — $(date -u +%F), $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), release build, Node $(node --version), wrk -t2 on the same machine, $( [ "$ALG" = EdDSA ] && echo "EdDSA (one shared Ed25519 key)" || echo "RS256 (one shared 2048-bit key)")"
echo "load average at the start: $LOAD_AT_START (others' work on this machine skews the figures)"
echo "command: DATABASES=\"$DATABASES\" PEER=$PEER CONNS=\"$CONNS\" DUR=$DUR SESSIONS=$SESSIONS ALG=$ALG bench/token.sh"
echo
echo "| grant | conns | server | req/s | p50 ms | p99 ms | CPU ms per request | req/s ours/peer | p99 ours/peer |"
echo "|---|---|---|---|---|---|---|---|---|"
sides="$DATABASES"; [ "$PEER" = 1 ] && sides="$sides peer"
for grant in code refresh authorize; do
  case "$grant" in
    code) label="authorization_code + PKCE" ;;
    refresh) label="refresh_token, rotated" ;;
    *) label="authorize: a new code (302/303)" ;;
  esac
  for conns in $CONNS; do
    peer=${R[peer.$grant.$conns]:-}
    for side in $sides; do
      r=${R[$side.$grant.$conns]:-}
      cpu="$(field "$r" server_cpu_ms)"
      [ -n "$(field "$r" db_cpu_ms)" ] && cpu="$cpu + PostgreSQL $(field "$r" db_cpu_ms)"
      if [ "$side" = peer ] || [ -z "$peer" ]; then rr="—"; pr="—"
      else rr=$(ratio "$(field "$r" rps)" "$(field "$peer" rps)"); pr=$(ratio "$(field "$r" p99_ms)" "$(field "$peer" p99_ms)"); fi
      echo "| $label | $conns | $(name "$side") | $(field "$r" rps) | $(field "$r" p50_ms) | $(field "$r" p99_ms) | $cpu | $rr | $pr |"
    done
  done
done
echo
for side in $sides; do
  echo "peak resident memory, $(name "$side"): $(( ${PEAK[$side]:-0} / 1024 )) MiB"
done
echo "Every run: 0 non-2xx answers (authorize: every answer a redirect, none 4xx or 5xx), 0 socket errors, no code or token used twice (the script stops otherwise)."
