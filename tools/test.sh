#!/usr/bin/env bash
# The test command: install tkg, lint, start a throwaway Neo4j, run pytest, stop Neo4j.
#
#   bash tools/test.sh                      # the whole suite
#   bash tools/test.sh tests/test_x.py -q   # arguments go to pytest
#   TKG_SKIP_LINT=1 bash tools/test.sh ...  # skip ruff and mypy
#   TKG_TEST_WORKERS=0 bash tools/test.sh   # one process (default: 2 pytest-xdist workers, a file each)
#
# Why one script: a fresh machine (and CI) must get from a clean clone to a real Neo4j-backed test
# run with nothing installed by hand. Neo4j failing to start is a failure, never a skip; pytest's
# exit 5 (no tests collected) is a failure too. TKG_NEO4J_PORT picks the Bolt port (default 7687,
# or any free port when 7687 is taken, e.g. by a development instance).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
say() { echo "== tools/test.sh: $*" >&2; }
fail() { echo "== tools/test.sh: FAILED: $*" >&2; exit 1; }

say "installing tkg and its [local,torch,dev] extras"
python3 -m pip install -q --root-user-action=ignore -e ".[local,torch,dev]" || fail "pip install -e .[local,torch,dev] failed"

if [[ ${TKG_SKIP_LINT:-0} == 1 ]]; then
  say "TKG_SKIP_LINT=1: skipping ruff and mypy"
else
  say "ruff check ."
  python3 -m ruff check . || fail "ruff found problems"
  say "mypy"
  python3 -m mypy || fail "mypy found problems"
fi

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port_busy() { timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }
if [[ -n ${TKG_NEO4J_PORT:-} ]]; then
  port=$TKG_NEO4J_PORT
elif port_busy 7687; then
  port=$(free_port)
  say "port 7687 is taken; using $port for the test Neo4j"
else
  port=7687
fi

NEO_HOME=$(mktemp -d "${TMPDIR:-/tmp}/tkg-test-neo4j.XXXXXX")
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  TKG_NEO4J_HOME=$NEO_HOME bash tools/neo4j/stop.sh || true
  rm -rf "$NEO_HOME"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "starting Neo4j on 127.0.0.1:$port (home $NEO_HOME)"
# The test instance runs without auth, whatever the caller's TKG_NEO4J_PASSWORD says.
if ! uri=$(env -u TKG_NEO4J_PASSWORD TKG_NEO4J_HOME="$NEO_HOME" TKG_NEO4J_PORT="$port" \
             bash tools/neo4j/start.sh | tail -n 1) || [[ $uri != bolt://* ]]; then
  fail "Neo4j did not start (see the messages above); the suite needs it and is not run"
fi
export TKG_TEST_NEO4J_URI=$uri
say "TKG_TEST_NEO4J_URI=$uri"

set +e
# Two workers, each running whole files (module fixtures are built once): the suite's wall time on
# 2 cores is about two thirds of one process's.
python3 -m pytest -n "${TKG_TEST_WORKERS:-2}" --dist loadfile "$@"
rc=$?
set -e
if [[ $rc == 5 ]]; then
  fail "pytest collected no tests"
fi
if [[ $rc != 0 ]]; then
  say "pytest exited with $rc"
fi
exit "$rc"
