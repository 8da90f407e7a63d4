#!/usr/bin/env bash
# The default run over the UDP mode on loopback, RUNS times, each against a fresh `mrct serve`.
#
#   bench/udp-default-run.sh [RUNS] [PORT] [HOGS]
#       RUNS   how many runs (default 5)
#       PORT   the first device UDP port (default 49801; run i uses PORT + 2i, its agent the port after; 49152 or
#              more, or every data packet breaks MR-WIRE-010)
#       HOGS   CPU-burning loops (`while :; do :; done`) beside the runs (default 0)
#
# Works from any directory: builds cli/target/mrct.jar with Maven when missing, then for each run starts
#   java -jar mrct.jar serve --udp 127.0.0.1:P --agent 127.0.0.1:P+1 --token bench
# waits until it says "ready" (its warm-up), runs
#   java -jar mrct.jar run --adapter socket --udp 127.0.0.1:P --agent 127.0.0.1:P+1 --token bench --quiet
# into a temporary report directory (removed on exit; set TMPDIR to put it elsewhere) and stops the server. Prints per
# run the load average before and after, the wall time, the overall result, the verdict counts, the cases that needed
# more than one attempt (with their attempts) and the reason of every case that did not pass. The figures in
# docs/real-devices.md ("A second round after the run's other cases") come from it.
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
runs="${1:-5}"
port="${2:-49801}"
hogs="${3:-0}"
jar="$root/cli/target/mrct.jar"
java_cmd="java"
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java_cmd="$JAVA_HOME/bin/java"; fi

if [ ! -f "$jar" ]; then
  echo "udp-default-run: building the CLI jar (mvn -pl cli -am package)..." >&2
  (cd "$root" && mvn -B -q -ntp -pl cli -am package -DskipTests >&2)
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/mrct-udp.XXXXXX")"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

for _ in $(seq "$hogs"); do
  (while :; do :; done) &
  pids+=($!)
done

for i in $(seq "$runs"); do
  p=$((port + 2 * (i - 1)))
  a=$((p + 1))
  dir="$work/run$i"
  mkdir -p "$dir"
  "$java_cmd" -jar "$jar" serve --udp "127.0.0.1:$p" --agent "127.0.0.1:$a" --token bench > "$dir/serve.log" 2>&1 &
  serve=$!
  pids+=("$serve")
  for _ in $(seq 300); do
    grep -q ready "$dir/serve.log" && break
    kill -0 "$serve" 2>/dev/null || { echo "run $i: mrct serve stopped:" >&2; cat "$dir/serve.log" >&2; exit 2; }
    sleep 1
  done
  load0=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s)
  status=0
  "$java_cmd" -jar "$jar" run --adapter socket --udp "127.0.0.1:$p" --agent "127.0.0.1:$a" --token bench \
    --report-dir "$dir/r" --quiet > "$dir/run.log" 2>&1 || status=$?
  t1=$(date +%s)
  load1=$(cut -d' ' -f1 /proc/loadavg)
  kill "$serve" 2>/dev/null || true
  wait "$serve" 2>/dev/null || true
  python3 - "$dir/r/report.json" "$i" "$status" "$((t1 - t0))" "$load0" "$load1" <<'PY'
import collections, json, sys
path, run, status, secs, load0, load1 = sys.argv[1:]
report = json.load(open(path))
cases = report["cases"]
counts = collections.Counter(c["verdict"] for c in cases)
print(f"run {run}: {report['overall']} (exit {status}), {secs} s, load {load0} -> {load1}, {dict(counts)}")
retried = [f"{c['id']} {c['attempts']}" for c in cases if (c.get("attempts") or 0) > 1]
if retried:
    print("  attempts: " + ", ".join(retried))
for c in cases:
    if c["verdict"] not in ("PASS", "NOT_APPLICABLE"):
        print(f"  {c['verdict']} {c['id']}: {(c.get('reason') or '')[:300]}")
PY
done
