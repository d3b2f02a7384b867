#!/usr/bin/env bash
# Session 40, call 2, carry ["dist/w33.tar.xz"]: s68/ (round 47's A/B builds, as wave29's
# call-next-long-launch-per-sm.sh builds them) and s70/ (HEAD a6f664c, round 47 landed: the
# normal build stripped), `tar -C dist -cf - s68 s70 | xz -T2 -9 > dist/w33.tar.xz`.
# - an H200 (h200-goals-round47.sh, through scripts/h200_first.sh): the goals of HEAD
#   ($OUT/goals.tar.gz, about 450 s), then, while the call has time, round 47's A/B on this card
#   with its H100 rule ($OUT/c33.tar.gz);
# - another card: the H100 survey's 16 misses (wave28/never-slower/check.txt) timed with HEAD's
#   build as the survey times them ($OUT/misses/misses.json): two should now pass (fp8 16x2x256
#   neox rot = 128 at 65k), the other 14 launch as before.
set -u
for d in s68 s70; do ln -sf w33.tar.xz dist/$d.tar.xz; done
bash scripts/h200_first.sh results/h200/wave30/calls/h200-goals-round47.sh && exit 0
tar -xJf dist/s70.tar.xz || { echo "cannot unpack dist/s70.tar.xz"; exit 4; }
chmod +x s70/rope-kv-bench
mkdir -p $OUT/misses
cases=()
while read -r id; do cases+=(--case "$id"); done <results/h200/wave30/calls/never-slower-misses-cases.txt
timeout 200 s70/rope-kv-bench bench --config configs/never-slower.json "${cases[@]}" \
  --tag session=40 --json $OUT/misses/misses.json >$OUT/misses/log.txt 2>&1
echo "misses: exit $? ($SECONDS s)"
exit 0
