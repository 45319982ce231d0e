#!/usr/bin/env bash
# Makes sure what the test suite needs is on this machine: the client's npm packages,
# Debian's Chromium for the browser tests, a running PostgreSQL for the second database, and
# the Python environments of the fuzzer and the single sign-on example.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then
    apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if [ ! -x /usr/bin/chromium ]; then
  echo "==> installing Debian's Chromium for the browser tests"
  apt_install chromium
fi

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "==> installing PostgreSQL"
  apt_install postgresql
fi
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "==> starting PostgreSQL"
  for version in $(ls /etc/postgresql); do
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  done
  for _ in $(seq 1 30); do
    pg_isready -h 127.0.0.1 -p 5432 -q && break
    sleep 1
  done
fi
# Tests connect as postgres over TCP without a password, as on the developers' machines.
if ! psql -h 127.0.0.1 -U postgres -Atc 'select 1' >/dev/null 2>&1; then
  echo "PostgreSQL is running but does not accept 'postgres' on 127.0.0.1 without a password." >&2
  echo "Set TEST_POSTGRES_URL to a server the tests may create databases on." >&2
  exit 1
fi

# schemathesis, for the contract fuzzing (scripts/fuzz.sh), in a virtualenv of its own.
SCHEMATHESIS_VERSION=4.32.5
if ! .venv-fuzz/bin/st --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  echo "==> installing schemathesis $SCHEMATHESIS_VERSION"
  python3 -m venv .venv-fuzz
  .venv-fuzz/bin/pip install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# Authlib and Flask, for the single sign-on example (scripts/check-python-example.sh).
if [ ! -x .venv-examples/bin/python ] || ! .venv-examples/bin/python -c 'import authlib, flask' 2>/dev/null; then
  echo "==> installing the Python example's packages"
  python3 -m venv .venv-examples
  .venv-examples/bin/pip install -q --disable-pip-version-check -r docs/examples/python/requirements.txt
fi

if [ ! -d client/node_modules ] || [ client/package-lock.json -nt client/node_modules/.package-lock.json ]; then
  echo "==> installing the client's npm packages"
  npm --prefix client ci --no-audit --no-fund --loglevel=error
fi
