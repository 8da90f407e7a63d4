#!/usr/bin/env bash
# The heap mrct analyze keeps per connection, and how many connections fit in a heap, measured.
#
#   bench/heap-connections.sh [HEAP] [COUNTS] [PAIR_FRAMES]
#       HEAP         -Xmx of the analysing JVM (default 256m: the heap mrct analyze promises to stay under)
#       COUNTS       numbers of one-frame connections to try, in order (default "10000 20000 40000 80000 160000");
#                    the script stops at the first that does not fit
#       PAIR_FRAMES  frames of a capture of 256 host pairs' eventful conversations (256 long connections whose PSN
#                    rings have grown; default 1000000; 0: skipped); 10000000 for the 10-million-frame figure
#
# Works from any directory: builds cli/target/mrct.jar with Maven (package, never install), writes each capture with
# org.metaroce.mrct.analyzer.GenerateTraffic into a temporary directory (removed on exit; set TMPDIR to put it
# elsewhere), and runs org.metaroce.mrct.analyzer.HeapProbe on it in a JVM of HEAP with the serial collector: the live
# heap (after a full collection) before the analysis, when every connection is held at once (the reports' turn) and
# after the reports (live_after_reports: the summary, counted, which does not grow with the connections), and the bytes
# per connection; since issue 12's release of connections before the capture's end, also how many were released
# (released=, of them released_early= beyond the cap on the flows held, resumed_flows=): live_with_all_connections
# is then what is held at the end plus the released ones' index. A run that does not fit ends in OutOfMemoryError and
# is reported as such. Prints the
# load average before each run (the figures are bytes, which the load does not change; the times it does).
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
heap="${1:-256m}"
counts="${2:-10000 20000 40000 80000 160000}"
pair_frames="${3:-1000000}"
jar="$root/cli/target/mrct.jar"
java_cmd="java"
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java_cmd="$JAVA_HOME/bin/java"; fi

echo "heap-connections: building the CLI jar (mvn -pl cli -am package)..." >&2
(cd "$root" && mvn -B -q -ntp -pl cli -am package -DskipTests >&2)
work="$(mktemp -d "${TMPDIR:-/tmp}/mrct-heap.XXXXXX")"
trap 'rm -rf "$work"' EXIT

probe() {
  local file="$1" label="$2" out
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
  local start end
  start=$(date +%s.%N)
  if out=$("$java_cmd" "-Xmx$heap" -XX:+UseSerialGC -cp "$jar" org.metaroce.mrct.analyzer.HeapProbe "$file" 2>&1); then
    end=$(date +%s.%N)
    printf '%s: %s (%.1f s wall)\n' "$label" "$(echo "$out" | tail -1)" "$(echo "$end - $start" | bc)"
    return 0
  fi
  if echo "$out" | grep -q OutOfMemoryError; then
    echo "$label: does not fit in -Xmx$heap (OutOfMemoryError)"
  else
    echo "$label: failed:"; echo "$out" | tail -5
  fi
  return 1
}

for n in $counts; do
  "$java_cmd" -cp "$jar" org.metaroce.mrct.analyzer.GenerateTraffic "$work/c.pcap" "$n" connections >/dev/null
  probe "$work/c.pcap" "$n one-frame connections" || break
  rm -f "$work/c.pcap"
done
if [ "$pair_frames" != 0 ]; then
  "$java_cmd" -cp "$jar" org.metaroce.mrct.analyzer.GenerateTraffic "$work/p.pcap" "$pair_frames" eventful:256 \
    >/dev/null
  probe "$work/p.pcap" "$pair_frames frames, 256 host pairs (eventful)" || true
fi
