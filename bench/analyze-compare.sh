#!/usr/bin/env bash
# Times tshark and mrct analyze over the same generated MetaRoCE capture, side by side.
#
#   bench/analyze-compare.sh [FRAMES] [clean|eventful] [HEAP]
#       FRAMES   frames to generate (default 1000000, about 0.85 GB)
#       KIND     eventful (default: losses, selective retransmissions, CE marks, CNPs, spraying) or clean
#       HEAP     -Xmx of the mrct JVMs (default 256m: the heap mrct analyze promises to stay under)
#
# Works from any directory: builds cli/target/mrct.jar with Maven, writes the capture with
# org.metaroce.mrct.analyzer.GenerateTraffic into a temporary directory (removed on exit; set TMPDIR to put it
# elsewhere), prints the load of the machine, then runs, each on the same file:
#   tshark -n -r FILE -T fields -e infiniband.bth.psn > /dev/null                    (as bench/tshark-compare.sh)
#   java -Xmx$HEAP -jar mrct.jar analyze --format MARKDOWN FILE                     (the whole command, one pass,
#                                                                                    one thread per processor)
#   java -Xmx$HEAP -jar mrct.jar analyze --threads 1 --format MARKDOWN FILE         (the same on one thread)
#   java -Xmx$HEAP -cp mrct.jar org.metaroce.mrct.analyzer.AnalyzeThroughput FILE 5       (5 passes in one JVM)
#   ROOT/mrct analyze --format MARKDOWN FILE                                        (the launcher users run: serial
#                                                                                    GC, AppCDS archive, tiered JIT
#                                                                                    with thresholds x3; the same heap
#                                                                                    bound, through JDK_JAVA_OPTIONS)
# and prints wall-clock and CPU rates and their ratios to tshark's, with the load average before each timed command.
# The plain java -jar JVMs run with the JDK's defaults (G1, tiered JIT, no class-data archive); the launcher's archive
# is recorded beforehand by one run over a small fixture, as the first run after a build does. The whole command
# writes only summary.md, so that the report writers' cost (which grows with the number of cases, not of frames)
# stays out of the figures.
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
frames="${1:-1000000}"
kind="${2:-eventful}"
heap="${3:-256m}"
jar="$root/cli/target/mrct.jar"
java_cmd="java"
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java_cmd="$JAVA_HOME/bin/java"; fi

if ! command -v tshark >/dev/null 2>&1; then
  echo "analyze-compare: tshark is not installed (apt-get install tshark)" >&2
  exit 2
fi

echo "analyze-compare: building the CLI jar (mvn -pl cli -am package)..." >&2
(cd "$root" && mvn -B -q -ntp -pl cli -am package -DskipTests >&2)

work="$(mktemp -d "${TMPDIR:-/tmp}/mrct-analyze-compare.XXXXXX")"
trap 'rm -rf "$work"' EXIT
capture="$work/metaroce.pcap"
"$java_cmd" -cp "$jar" org.metaroce.mrct.analyzer.GenerateTraffic "$capture" "$frames" "$kind" | tee "$work/gen.out"
frames=$(sed -n 's/^wrote \([0-9]*\) frames.*/\1/p' "$work/gen.out")
bytes=$(stat -c %s "$capture")

# timed NAME CMD...: runs CMD with bash's `time`, keeps its wall-clock and user+system CPU seconds in
# $work/NAME.time ("wall cpu"); CMD's own standard error goes to $work/NAME.err
TIMEFORMAT='%3R %3U %3S'
timed() {
  local name="$1" status=0; shift
  { time "$@" 2>"$work/$name.err"; } 2>"$work/$name.raw" || status=$?
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$work/$name.raw" > "$work/$name.time"
  return "$status"
}
wall() { cut -d' ' -f1 "$work/$1.time"; }
load() { cut -d' ' -f1 /proc/loadavg; }
cpu() { cut -d' ' -f2 "$work/$1.time"; }

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) before the runs"
echo "capture: $frames frames ($kind), $bytes bytes"
echo "tshark: $(tshark -v 2>/dev/null | head -1)"

load_tshark=$(load)
timed tshark tshark -n -r "$capture" -T fields -e infiniband.bth.psn > /dev/null || {
  echo "analyze-compare: tshark failed:" >&2; cat "$work/tshark.err" >&2; exit 1; }
echo "tshark: $(wall tshark) s wall, $(cpu tshark) s CPU (load $load_tshark before)"

echo "mrct analyze (one process, one pass):"
status=0
load_analyze=$(load)
timed analyze "$java_cmd" -Xmx"$heap" -jar "$jar" analyze --format MARKDOWN --report-dir "$work/reports" \
  "$capture" > "$work/analyze.out" || status=$?
if [ "$status" -gt 1 ]; then echo "analyze-compare: mrct analyze failed:" >&2; cat "$work/analyze.err" >&2; exit 1; fi
tail -2 "$work/analyze.out" | head -1
echo "mrct analyze: $(wall analyze) s wall, $(cpu analyze) s CPU (load $load_analyze before)"

echo "mrct analyze --threads 1 (one process, one pass, everything on one thread):"
status=0
load_single=$(load)
timed single "$java_cmd" -Xmx"$heap" -jar "$jar" analyze --threads 1 --format MARKDOWN --report-dir "$work/reports1" \
  "$capture" > "$work/single.out" || status=$?
if [ "$status" -gt 1 ]; then echo "analyze-compare: mrct analyze --threads 1 failed:" >&2; cat "$work/single.err" >&2; exit 1; fi
echo "mrct analyze --threads 1: $(wall single) s wall, $(cpu single) s CPU (load $load_single before)"

echo "./mrct analyze (the launcher, one pass):"
JDK_JAVA_OPTIONS="-Xmx$heap" env -u MRCT_JAVA_OPTS "$root/mrct" analyze --format MARKDOWN --report-dir "$work/warm" \
  "$root/fixtures/captures/soft-roce/rdma_write_bw.pcap" > /dev/null 2>&1 || true
status=0
load_launcher=$(load)
timed launcher env -u MRCT_JAVA_OPTS JDK_JAVA_OPTIONS="-Xmx$heap" "$root/mrct" analyze --format MARKDOWN \
  --report-dir "$work/reports2" \
  "$capture" > "$work/launcher.out" || status=$?
if [ "$status" -gt 1 ]; then echo "analyze-compare: ./mrct analyze failed:" >&2; cat "$work/launcher.err" >&2; exit 1; fi
echo "./mrct analyze: $(wall launcher) s wall, $(cpu launcher) s CPU (load $load_launcher before)"

echo "mrct AnalyzeThroughput (5 passes in one JVM):"
"$java_cmd" -Xmx"$heap" -cp "$jar" org.metaroce.mrct.analyzer.AnalyzeThroughput "$capture" 5 | tee "$work/mrct.out"
summary="$(grep '^first_pass_fps=' "$work/mrct.out")"
value() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" <<<"$summary"; }
first=$(value first_pass_fps)
best=$(value best_fps)
best_cpu=$(value best_cpu_fps)
echo "machine: load average $(cut -d' ' -f1-3 /proc/loadavg) after the runs"

awk -v n="$frames" -v t="$(wall tshark)" -v tc="$(cpu tshark)" -v a="$(wall analyze)" -v ac="$(cpu analyze)" \
    -v l="$(wall launcher)" -v lc="$(cpu launcher)" -v s="$(wall single)" -v sc="$(cpu single)" \
    -v first="$first" -v best="$best" -v bc="$best_cpu" 'BEGIN {
  tshark = n / t; tshark_cpu = n / tc
  printf "\n%-56s %14s %10s %14s %10s\n", "", "frames/s", "x tshark", "per CPU s", "x tshark"
  printf "%-56s %14.0f %10s %14.0f %10s\n", "tshark -T fields -e infiniband.bth.psn", tshark, "1.0", tshark_cpu, "1.0"
  printf "%-56s %14.0f %10.1f %14.0f %10.1f\n", "mrct analyze, whole process (JVM start, cold JIT)", n / a,
    n / a / tshark, n / ac, n / ac / tshark_cpu
  printf "%-56s %14.0f %10.1f %14.0f %10.1f\n", "mrct analyze --threads 1, whole process", n / s,
    n / s / tshark, n / sc, n / sc / tshark_cpu
  printf "%-56s %14.0f %10.1f %14.0f %10.1f\n", "./mrct analyze, whole process (launcher)", n / l,
    n / l / tshark, n / lc, n / lc / tshark_cpu
  printf "%-56s %14.0f %10.1f %14s %10s\n", "mrct analysis, first pass (cold JIT, no JVM start)", first,
    first / tshark, "", ""
  printf "%-56s %14.0f %10.1f %14.0f %10.1f\n", "mrct analysis, best pass (steady state)", best, best / tshark, bc,
    bc / tshark_cpu
}'
