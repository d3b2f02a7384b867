#!/usr/bin/env bash
# What a cold sample's window holds besides the kernel: the tool's cold launch floor (the same
# held window around an empty kernel) next to Nsight Compute's gpu__time_duration of that empty
# kernel, and of the fused kernel, on the ncu-vs-tool cases. With scripts/ncu_vs_tool.sh's table
# this says how much of the tool-vs-ncu gap at small N is the event pair and the launch itself.
# Usage: scripts/cold_floor_probe.sh OUT_DIR [BINARY (default build/rope-kv-bench)]
# Writes OUT_DIR/cold-floor.json (a one-case cold bench report: device.launch_floor_runs_us.cold
# is the floor) and OUT_DIR/ncu-empty-kernel.csv (gpu__time_duration.sum of 20 empty launches
# under --cache-control all, clocks as they are).
set -euo pipefail
if (($# < 1 || $# > 2)); then
  sed -n '6,9s/^# \{0,1\}//p' "$0" >&2
  exit 4
fi
out=$1 bin=${2:-build/rope-kv-bench}
[[ -x $bin ]] || { echo "cold_floor_probe.sh: $bin is not an executable" >&2; exit 4; }
ncu=$(command -v ncu || true)
[[ -z $ncu && -x /usr/local/cuda/bin/ncu ]] && ncu=/usr/local/cuda/bin/ncu
[[ -n $ncu ]] || { echo "cold_floor_probe.sh: ncu not found" >&2; exit 4; }
mkdir -p "$out"
case_id='bf16|auto|32x8x128|neox|nhd|N=1'
"$bin" bench --case "$case_id" --mode cold --json "$out/cold-floor.json"
# The floor's kernel is timer.cu's empty_kernel; ncu profiles its first 20 launches (the floor
# measured before the first case) and lets every other kernel run unprofiled. Warm mode: ncu
# serialises kernels, so cold mode's stream hold (a spinning kernel that the host releases)
# cannot work under it, and an empty kernel's duration does not depend on the mode.
"$ncu" --kernel-name regex:empty_kernel --launch-count 20 --cache-control all \
  --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  "$bin" bench --case "$case_id" --mode warm --json "$out/cold-floor-under-ncu.json" \
  >"$out/ncu-empty-kernel.csv" 2>"$out/ncu-empty-kernel.log"
python3 - "$out/cold-floor.json" "$out/ncu-empty-kernel.csv" <<'PY'
import csv, json, statistics, sys
rep = json.load(open(sys.argv[1]))
floor = rep["device"]["launch_floor_runs_us"].get("cold")
rows = [r for r in csv.reader(open(sys.argv[2])) if len(r) > 5]
vals = []
for r in rows[1:]:
    try:
        vals.append(float(r[-1].replace(",", "")) / 1e3)  # ns -> us
    except ValueError:
        pass
print(f"tool cold floor (held window around an empty kernel), us: {floor}")
print(f"tool cold event pair (subtracted from every cold sample), us: "
      f"{rep['device'].get('cold_event_pair_us', 'absent (cold samples hold the whole window)')}")
if vals:
    print(f"ncu gpu__time_duration of the empty kernel, us: median {statistics.median(vals):.3f} "
          f"over {len(vals)} launches (min {min(vals):.3f}, max {max(vals):.3f})")
else:
    print("ncu: no empty-kernel rows (see ncu-empty-kernel.log)")
PY
