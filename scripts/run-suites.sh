#!/usr/bin/env bash
# `make test`'s runner: each argument is a suite (a make target), or suites joined by `+` that
# run side by side (their output kept apart and shown when all have ended). Stops at the first
# failure; prints every suite's time at the end, so the slow one is visible.
#   scripts/run-suites.sh lint test-rust soak+test-client fuzz
set -uo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
report=""
line() { report+=$(printf '  %-28s %5d s' "$1" "$2")$'\n'; }

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
    (
      begun=$(date +%s)
      make --no-print-directory "$suite" >"$logs/$suite.log" 2>&1
      status=$?
      echo $(($(date +%s) - begun)) >"$logs/$suite.time"
      exit "$status"
    ) &
    pids+=($!)
  done
  failed=""
  for i in "${!suites[@]}"; do
    wait "${pids[$i]}" || failed+=" ${suites[$i]}"
  done
  for suite in "${suites[@]}"; do
    echo "==> $suite (side by side with the rest of $group)"
    cat "$logs/$suite.log"
  done
  if [ -n "$failed" ]; then
    echo "make test:$failed failed after $(($(date +%s) - started)) s"
    exit 1
  fi
  for suite in "${suites[@]}"; do line "$suite" "$(cat "$logs/$suite.time")"; done
  line "($group, together)" $(($(date +%s) - started))
done
echo "make test: every suite passed"
printf '%s' "$report"
