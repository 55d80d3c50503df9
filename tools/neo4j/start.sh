#!/usr/bin/env bash
# Start an embedded Neo4j 5.26 Community (tools/neo4j/launcher) in the background.
#
# Why: tests and development need a real Neo4j with full-text and vector indexes on machines
# without Docker or tarball downloads; Maven Central is all this needs.
#
#   uri=$(TKG_NEO4J_HOME=/tmp/tkg-neo4j-dev bash tools/neo4j/start.sh | tail -n 1)
#   ...                                      # bolt://127.0.0.1:7687, auth disabled
#   TKG_NEO4J_HOME=/tmp/tkg-neo4j-dev bash tools/neo4j/stop.sh
#
# Environment (all optional):
#   TKG_NEO4J_HOME      data, logs, pid file (default: a fresh mktemp -d)
#   TKG_NEO4J_PORT      Bolt port on 127.0.0.1 (default 7687); a busy port fails at once
#   TKG_NEO4J_CACHE     built launcher (jars + classes) (default ~/.cache/tkg/neo4j)
#   TKG_NEO4J_PASSWORD  enables auth for user neo4j with this password (>= 8 characters)
#   TKG_NEO4J_HEAP      JVM heap (default 1g);  TKG_NEO4J_PAGECACHE page cache (default 256m)
#   TKG_NEO4J_START_TIMEOUT seconds to wait for Bolt (default 120)
#   TKG_NEO4J_JAVA / TKG_NEO4J_JAVAC  java and javac (17 or 21; default: the ones on PATH)
#   TKG_NEO4J_MVN_ARGS  extra Maven arguments, e.g. -Dmaven.repo.local=/tmp/m2
# The last line on stdout is the Bolt URI; everything else goes to stderr.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PORT=${TKG_NEO4J_PORT:-7687}
CACHE=${TKG_NEO4J_CACHE:-$HOME/.cache/tkg/neo4j}
TIMEOUT=${TKG_NEO4J_START_TIMEOUT:-120}
HEAP=${TKG_NEO4J_HEAP:-1g}
JAVA=${TKG_NEO4J_JAVA:-java}
JAVAC=${TKG_NEO4J_JAVAC:-javac}

die() { echo "tools/neo4j/start.sh: ERROR: $*" >&2; exit 1; }
say() { echo "tools/neo4j/start.sh: $*" >&2; }

[[ $PORT =~ ^[0-9]+$ ]] || die "TKG_NEO4J_PORT must be a number, got '$PORT'"
if [[ -n ${TKG_NEO4J_PASSWORD:-} && ${#TKG_NEO4J_PASSWORD} -lt 8 ]]; then
  die "TKG_NEO4J_PASSWORD must have at least 8 characters"
fi

# True when something accepts TCP connections on 127.0.0.1:$1.
port_busy() { timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# True when a Bolt server on 127.0.0.1:$1 answers the handshake with a 5.x protocol version.
bolt_answers() {
  local reply
  reply=$(timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1
    printf '\x60\x60\xb0\x17\x00\x08\x08\x05\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00' >&3
    head -c 4 <&3 | od -An -tx1" 2>/dev/null) || return 1
  local -a b
  read -r -a b <<<"$reply"  # e.g. "00 00 08 05": Bolt 5.8
  [[ ${#b[@]} == 4 && ${b[0]}${b[1]} == 0000 && ${b[3]} =~ ^0[45]$ ]]
}

# Fail fast, before any build: a second start must not wait 2 minutes to say the port is taken.
if port_busy "$PORT"; then
  die "port $PORT on 127.0.0.1 is already in use (another Neo4j?); stop it with" \
      "TKG_NEO4J_HOME=<its home> bash tools/neo4j/stop.sh, or choose another TKG_NEO4J_PORT"
fi

if [[ -n ${TKG_NEO4J_HOME:-} ]]; then
  NEO_HOME=$TKG_NEO4J_HOME
  mkdir -p "$NEO_HOME"
else
  NEO_HOME=$(mktemp -d "${TMPDIR:-/tmp}/tkg-neo4j.XXXXXX")
fi
NEO_HOME=$(cd "$NEO_HOME" && pwd)
PID_FILE=$NEO_HOME/neo4j.pid
LOG=$NEO_HOME/neo4j.log
if [[ -f $PID_FILE ]] && grep -qsF tkg.neo4j.Launcher "/proc/$(cat "$PID_FILE")/cmdline"; then
  die "a Neo4j is already running for $NEO_HOME (pid $(cat "$PID_FILE")); stop it first"
fi

command -v "$JAVA" >/dev/null || die "java not found (need Java 17 or 21; set TKG_NEO4J_JAVA)"
java_major=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[[ ${java_major:-0} -ge 17 ]] || die "Neo4j 5.26 needs Java 17 or 21, found '${java_major:-?}' ($JAVA)"

# --- build the launcher once per (pom, source) version: jars from Maven Central + one class ---
key=$(cat "$HERE/launcher/pom.xml" "$HERE/launcher/src/main/java/tkg/neo4j/Launcher.java" \
      | sha256sum | cut -c1-16)
BUILD=$CACHE/build-$key
mkdir -p "$CACHE"
if [[ ! -f $BUILD/.complete ]]; then
  exec 9>"$CACHE/.lock"
  flock 9
  if [[ ! -f $BUILD/.complete ]]; then
    say "building the launcher into $BUILD (first use: Maven downloads Neo4j, ~125 MB)"
    command -v mvn >/dev/null || die "mvn not found (Maven 3.8+ is needed to fetch Neo4j)"
    command -v "$JAVAC" >/dev/null || die "javac not found (set TKG_NEO4J_JAVAC)"
    rm -rf "$CACHE"/tmp.*  # left by an interrupted build; we hold the lock
    tmp=$(mktemp -d "$CACHE/tmp.XXXXXX")
    fetch() {
      # shellcheck disable=SC2086  # TKG_NEO4J_MVN_ARGS is a word list on purpose
      mvn -B -q -f "$HERE/launcher/pom.xml" ${TKG_NEO4J_MVN_ARGS:-} \
        dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp/lib" \
        </dev/null >"$tmp/mvn.log" 2>&1
    }
    # One retry: a dropped connection to Maven Central should not fail a CI run.
    if ! fetch && ! { say "Maven failed; retrying once"; sleep 5; fetch; }; then
      tail -n 40 "$tmp/mvn.log" >&2
      rm -rf "$tmp"
      die "Maven could not resolve the Neo4j dependencies (see above)"
    fi
    if ! "$JAVAC" --release 17 -nowarn -cp "$tmp/lib/*" -d "$tmp/classes" \
         "$HERE/launcher/src/main/java/tkg/neo4j/Launcher.java" >&2; then
      rm -rf "$tmp"
      die "javac failed on Launcher.java"
    fi
    touch "$tmp/.complete"
    rm -rf "$BUILD"
    mv "$tmp" "$BUILD"
    # Older builds (another pom or Launcher.java) are 125 MB each: drop those no JVM runs from.
    for old in "$CACHE"/build-*; do
      [[ $old == "$BUILD" ]] || grep -qsF -- "$old/lib" /proc/[0-9]*/cmdline || rm -rf "$old"
    done
  fi
  flock -u 9
  exec 9>&-
fi

# --- start ---
# The --add-opens flags are the ones neo4j.conf ships: without them Neo4j logs "Reflection access to
# java.nio.DirectByteBuffer is not available" (page cache fallback) and cannot advise the OS on
# transaction log files ("Incorrect file descriptor").
JAVA_OPTS=(
  "-Xms256m" "-Xmx$HEAP"
  -XX:+UseG1GC -XX:-OmitStackTraceInFastThrow -XX:+DisableExplicitGC -XX:+ExitOnOutOfMemoryError
  -Djdk.nio.maxCachedBufferSize=1024 -Dio.netty.tryReflectionSetAccessible=true -Dlog4j2.disable.jmx=true
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
)
launcher=(env "TKG_NEO4J_PAGECACHE=${TKG_NEO4J_PAGECACHE:-256m}"
          "$JAVA" "${JAVA_OPTS[@]}" -cp "$BUILD/lib/*:$BUILD/classes" tkg.neo4j.Launcher "$NEO_HOME" "$PORT")
# setsid: the server must outlive this script and ignore the caller's Ctrl-C; in a non-interactive
# shell the background child is no group leader, so setsid execs in place and $! is Java's pid.
if command -v setsid >/dev/null; then
  (cd "$NEO_HOME" && exec setsid "${launcher[@]}") </dev/null >"$LOG" 2>&1 &
else
  (cd "$NEO_HOME" && exec "${launcher[@]}") </dev/null >"$LOG" 2>&1 &
fi
pid=$!
echo "$pid" >"$PID_FILE"
echo "$PORT" >"$NEO_HOME/neo4j.port"

started=$SECONDS
while :; do
  if ! kill -0 "$pid" 2>/dev/null; then
    say "Neo4j exited during start-up; from $LOG:"
    grep -E '^(TKG_NEO4J_FAILED|Caused by)' "$LOG" >&2 || tail -n 40 "$LOG" >&2 || true
    rm -f "$PID_FILE"
    die "Neo4j did not start (home $NEO_HOME, port $PORT)"
  fi
  if grep -qs '^TKG_NEO4J_READY' "$LOG" && bolt_answers "$PORT"; then
    break
  fi
  if ((SECONDS - started >= TIMEOUT)); then
    say "Bolt did not answer within ${TIMEOUT}s; last lines of $LOG and logs/debug.log:"
    tail -n 20 "$LOG" >&2 || true
    tail -n 20 "$NEO_HOME/logs/debug.log" >&2 || true
    TKG_NEO4J_HOME=$NEO_HOME bash "$HERE/stop.sh" >&2 || true
    die "Neo4j did not start within ${TIMEOUT}s (home $NEO_HOME, port $PORT)"
  fi
  sleep 0.5
done

URI=bolt://127.0.0.1:$PORT
say "Neo4j $URI is up after $((SECONDS - started))s (pid $pid, log $LOG)"
echo "export TKG_NEO4J_HOME=$NEO_HOME  # stop with: TKG_NEO4J_HOME=$NEO_HOME bash tools/neo4j/stop.sh" >&2
echo "$URI"
