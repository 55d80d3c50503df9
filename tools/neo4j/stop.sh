#!/usr/bin/env bash
# Stop the Neo4j that tools/neo4j/start.sh started for $TKG_NEO4J_HOME (or the home given as $1).
#
#   TKG_NEO4J_HOME=/tmp/tkg-neo4j-dev bash tools/neo4j/stop.sh
#
# SIGTERM lets the launcher's shutdown hook checkpoint and close the stores; after
# TKG_NEO4J_STOP_TIMEOUT seconds (default 60) the process gets SIGKILL. Stopping an instance that
# is not running is not an error, so this is safe in a trap. The home directory is left in place.
set -euo pipefail

NEO_HOME=${1:-${TKG_NEO4J_HOME:-}}
[[ -n $NEO_HOME ]] || { echo "usage: TKG_NEO4J_HOME=DIR $0  (or: $0 DIR)" >&2; exit 2; }
TIMEOUT=${TKG_NEO4J_STOP_TIMEOUT:-60}
PID_FILE=$NEO_HOME/neo4j.pid
say() { echo "tools/neo4j/stop.sh: $*" >&2; }
# Running and not a zombie (a zombie whose parent has not reaped it yet has already exited).
alive() { kill -0 "$1" 2>/dev/null && [[ $(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) != Z ]]; }

if [[ ! -f $PID_FILE ]]; then
  say "no pid file in $NEO_HOME; nothing to stop"
  exit 0
fi
pid=$(cat "$PID_FILE")
# Only signal our launcher: a stale pid file may name a recycled pid.
if ! [[ $pid =~ ^[0-9]+$ ]] || ! grep -qsF tkg.neo4j.Launcher "/proc/$pid/cmdline"; then
  say "pid $pid from $PID_FILE is not running a tkg Neo4j; removing the stale pid file"
  rm -f "$PID_FILE"
  exit 0
fi

kill -TERM "$pid" 2>/dev/null || true
start=$SECONDS
while alive "$pid"; do
  if ((SECONDS - start >= TIMEOUT)); then
    say "pid $pid still running after ${TIMEOUT}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    while alive "$pid"; do sleep 0.1; done
    break
  fi
  sleep 0.2
done
rm -f "$PID_FILE"
say "stopped Neo4j pid $pid ($NEO_HOME) after $((SECONDS - start))s"
