#!/usr/bin/env bash
# `make test`'s runner. Each argument is a suite (a make target), or suites joined by `+` that
# run side by side, at the same priority (their output kept apart and shown when all have
# ended). `--beside SUITE` runs SUITE from the start to the end of the whole run, under `nice`:
# it takes only the CPU the others leave idle (a browser waiting on pages, a fuzzer waiting on
# its server). The members of a group are not niced: a niced Vitest beside the soak's fixed
# minute of load got almost no CPU, and its tests' 5 s timeouts fired. Stops at the first
# failure; prints every suite's time at the end, so the slow one is visible.
#   scripts/run-suites.sh --beside lint-rust test-rust soak+test-client fuzz e2e
set -uo pipefail
cd "$(dirname "$0")/.."

NICE=15
logs=$(mktemp -d)
beside=()
background=() # every suite started in the background, the --beside ones first
report=""
line() { report+=$(printf '  %-40s %5d s' "$1" "$2")$'\n'; }

# Each suite in the background leads a process group of its own, so that a failure elsewhere
# or an interrupt stops it with everything it started (cargo, rustc, a server).
stop_background() {
  for pid in "${background[@]}"; do kill -- "-$pid" 2>/dev/null; done
}
trap 'stop_background; rm -rf "$logs"' EXIT
trap 'exit 130' INT TERM

# Runs one suite in the background into its log, then writes its time. A new session is a
# scheduling group of its own (Linux's autogroup), which `nice` alone does not lower against
# the other groups: the group's own nice is set too, else the suite takes half the CPU.
start() { # SUITE PRIORITY
  setsid bash -c '
    [ "$2" -eq 0 ] || echo "$2" >/proc/self/autogroup 2>/dev/null || true
    begun=$(date +%s)
    nice -n "$2" make --no-print-directory "$1" >"$3/$1.log" 2>&1
    status=$?
    echo $(($(date +%s) - begun)) >"$3/$1.time"
    exit "$status"' _ "$1" "$2" "$logs" &
  background+=($!)
}

# Waits for the given suites (their PIDs in the same order); shows their output; fails with
# the names of those that failed.
finish() { # LABEL SUITE... -- PID...
  local label=$1 names=() pids=() failed=""
  shift
  while [ "$1" != -- ]; do names+=("$1"); shift; done
  shift
  pids=("$@")
  for i in "${!names[@]}"; do
    wait "${pids[$i]}" || failed+=" ${names[$i]}"
  done
  for suite in "${names[@]}"; do
    echo "==> $suite ($label)"
    cat "$logs/$suite.log"
  done
  if [ -n "$failed" ]; then
    echo "make test:$failed failed after $(($(date +%s) - run_started)) s"
    exit 1
  fi
  for suite in "${names[@]}"; do line "$suite" "$(cat "$logs/$suite.time")"; done
}

run_started=$(date +%s)
while [ "${1:-}" = --beside ]; do
  beside+=("$2")
  start "$2" "$NICE"
  shift 2
done

for group in "$@"; do
  started=$(date +%s)
  IFS=+ read -ra suites <<<"$group"
  if [ "${#suites[@]}" -eq 1 ]; then
    if ! make --no-print-directory "$group"; then
      echo "make test: $group failed after $(($(date +%s) - started)) s"
      exit 1
    fi
    line "$group" $(($(date +%s) - started))
    continue
  fi
  pids=()
  for suite in "${suites[@]}"; do
    start "$suite" 0
    pids+=($!)
  done
  finish "side by side with the rest of $group" "${suites[@]}" -- "${pids[@]}"
  line "($group, together)" $(($(date +%s) - started))
done

if [ "${#beside[@]}" -gt 0 ]; then
  finish "beside every other suite" "${beside[@]}" -- "${background[@]:0:${#beside[@]}}"
fi
line "(all)" $(($(date +%s) - run_started))
echo "make test: every suite passed"
printf '%s' "$report"
