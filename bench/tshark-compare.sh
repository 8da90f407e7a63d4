#!/usr/bin/env bash
# Times tshark and mrct's capture reader + decoder + ICRC verify over the same generated capture, side by side.
#
#   bench/tshark-compare.sh [FRAMES]      (default 1000000 RoCEv2 RDMA WRITE frames of 1 KiB, about 1.1 GB)
#
# Works from any directory: builds bench/target/benchmarks.jar with Maven, writes the capture into a temporary
# directory (removed on exit; set TMPDIR to put it elsewhere), then runs
#   tshark -n -r FILE -T fields -e infiniband.bth.psn > /dev/null
# and DecodeThroughput (3 passes in one JVM) over it, and prints both rates and their ratio.
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
frames="${1:-1000000}"
jar="$root/bench/target/benchmarks.jar"
java_cmd="java"
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java_cmd="$JAVA_HOME/bin/java"; fi

if ! command -v tshark >/dev/null 2>&1; then
  echo "tshark-compare: tshark is not installed (apt-get install tshark)" >&2
  exit 2
fi

echo "tshark-compare: building the benchmarks jar (mvn -pl bench -am package)..." >&2
(cd "$root" && mvn -B -q -ntp -pl bench -am package -DskipTests >&2)

work="$(mktemp -d "${TMPDIR:-/tmp}/mrct-tshark-compare.XXXXXX")"
trap 'rm -rf "$work"' EXIT
capture="$work/rdma-write-1k.pcap"
"$java_cmd" -cp "$jar" org.metaroce.mrct.bench.GenerateCapture "$capture" "$frames"

now_ns() { date +%s%N; }

echo "tshark: $(tshark -v 2>/dev/null | head -1)"
start=$(now_ns)
tshark -n -r "$capture" -T fields -e infiniband.bth.psn > /dev/null 2>"$work/tshark.err" || {
  echo "tshark-compare: tshark failed:" >&2; cat "$work/tshark.err" >&2; exit 1; }
tshark_ns=$(( $(now_ns) - start ))

echo "mrct: DecodeThroughput, 3 passes in one JVM"
start=$(now_ns)
"$java_cmd" -cp "$jar" org.metaroce.mrct.bench.DecodeThroughput "$capture" 3 | tee "$work/mrct.out"
mrct_process_ns=$(( $(now_ns) - start ))
summary="$(grep '^first_pass_fps=' "$work/mrct.out")"
value() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" <<<"$summary"; }
first=$(value first_pass_fps)
best=$(value best_fps)
roce=$(value roce)
if [ "$roce" != "$frames" ]; then
  echo "tshark-compare: only $roce of $frames frames decoded as RoCE" >&2
  exit 1
fi

awk -v n="$frames" -v t="$tshark_ns" -v first="$first" -v best="$best" -v p="$mrct_process_ns" 'BEGIN {
  tshark = n / (t / 1e9)
  printf "\n%-48s %14s %10s\n", "", "frames/s", "x tshark"
  printf "%-48s %14.0f %10s\n", "tshark -T fields -e infiniband.bth.psn", tshark, "1.0"
  printf "%-48s %14.0f %10.1f\n", "mrct, whole process incl. JVM start, 3 passes", 3 * n / (p / 1e9), 3 * n / (p / 1e9) / tshark
  printf "%-48s %14.0f %10.1f\n", "mrct, first pass (cold JIT)", first, first / tshark
  printf "%-48s %14.0f %10.1f\n", "mrct, best pass (steady state)", best, best / tshark
}'
