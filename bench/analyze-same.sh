#!/usr/bin/env bash
# Checks that two builds of mrct give the same findings: `mrct analyze` of every capture with each jar, one thread and
# two, report.json and summary.md compared byte for byte (report.json without its "start" and "end" times).
#
#   bench/analyze-same.sh OLD.jar NEW.jar [CAPTURE...]
#
# Without captures it takes every capture under fixtures/captures, every one in $SHARED/captures (SHARED defaults
# to ../shared beside the clone; skipped when absent), and four it makes in a temporary directory (removed on exit)
# with the NEW jar's org.metaroce.mrct.analyzer.GenerateTraffic (50,000 eventful frames, seed 1) and damages with
# python3 (seed 12):
#   gen.pcap      as generated;
#   cut.pcap      cut in the middle of a record (at byte 20,000,003);
#   snap.pcap     every frame cut to 160 bytes (snap length 160, original lengths kept);
#   flipped.pcap  one bit flipped in the frame of every 7th record.
# Prints one line per capture and thread count, then "identical N of N"; exits 1 when any differs (after all were
# compared), 2 when a jar fails to run.
set -euo pipefail

# the clone (MRCT_ROOT when this script is run from a copy elsewhere)
root="${MRCT_ROOT:-$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)}"
old="$(readlink -f "${1:?usage: analyze-same.sh OLD.jar NEW.jar [CAPTURE...]}")"
new="$(readlink -f "${2:?usage: analyze-same.sh OLD.jar NEW.jar [CAPTURE...]}")"
shift 2
java_cmd="java"
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then java_cmd="$JAVA_HOME/bin/java"; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

captures=("$@")
if [ ${#captures[@]} -eq 0 ]; then
  while IFS= read -r f; do captures+=("$f"); done < <(find "$root/fixtures/captures" -type f \
    \( -name '*.pcap' -o -name '*.pcapng' \) | sort)
  shared="${SHARED:-$root/../shared}"
  if [ -d "$shared/captures" ]; then
    while IFS= read -r f; do captures+=("$f"); done < <(find "$shared/captures" -maxdepth 1 -type f \
      \( -name '*.pcap' -o -name '*.pcapng' \) | sort)
  fi
  "$java_cmd" -cp "$new" org.metaroce.mrct.analyzer.GenerateTraffic "$work/gen.pcap" 50000 eventful 1 >/dev/null
  python3 - "$work" <<'PY'
import random, struct, sys
d = sys.argv[1]
data = open(f"{d}/gen.pcap", "rb").read()
open(f"{d}/cut.pcap", "wb").write(data[:20_000_003])
header, records = bytearray(data[:24]), []
at = 24
while at + 16 <= len(data):
    ts, tf, incl, orig = struct.unpack_from("<IIII", data, at)
    records.append((data[at:at + 16], bytearray(data[at + 16:at + 16 + incl])))
    at += 16 + incl
snap = bytearray(header)
struct.pack_into("<I", snap, 16, 160)
for h, frame in records:
    ts, tf, incl, orig = struct.unpack("<IIII", h)
    snap += struct.pack("<IIII", ts, tf, min(incl, 160), orig) + frame[:160]
open(f"{d}/snap.pcap", "wb").write(snap)
rng = random.Random(12)
flipped = bytearray(header)
for i, (h, frame) in enumerate(records):
    if i % 7 == 6 and frame:
        bit = rng.randrange(len(frame) * 8)
        frame[bit // 8] ^= 1 << (bit % 8)
    flipped += h + frame
open(f"{d}/flipped.pcap", "wb").write(flipped)
PY
  captures+=("$work/gen.pcap" "$work/cut.pcap" "$work/snap.pcap" "$work/flipped.pcap")
fi

same=0
total=0
for capture in "${captures[@]}"; do
  for threads in 1 2; do
    for side in old new; do
      jar="$old"; [ "$side" = new ] && jar="$new"
      rm -rf "$work/$side"
      # analyze exits non-zero for a non-conformant or damaged capture: only a missing report is a failure to run
      "$java_cmd" -Xmx256m -jar "$jar" analyze --threads "$threads" --report-dir "$work/$side" "$capture" \
        >/dev/null 2>"$work/$side.err" || true
      if [ ! -f "$work/$side/report.json" ]; then
        echo "analyze-same: $side jar wrote no report for $capture (threads $threads):" >&2
        cat "$work/$side.err" >&2
        exit 2
      fi
      grep -v -E '^ *"(start|end)": ' "$work/$side/report.json" > "$work/$side.json"
    done
    total=$((total + 1))
    if cmp -s "$work/old.json" "$work/new.json" && cmp -s "$work/old/summary.md" "$work/new/summary.md"; then
      same=$((same + 1))
      echo "same       threads $threads  $capture"
    else
      echo "DIFFERENT  threads $threads  $capture"
      diff "$work/old.json" "$work/new.json" | head -5 || true
      diff "$work/old/summary.md" "$work/new/summary.md" | head -5 || true
    fi
  done
done
echo "identical $same of $total"
[ "$same" -eq "$total" ]
