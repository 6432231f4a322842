#!/usr/bin/env bash
# Campaigns across the cluster (docs/cluster.md): wall time of the built-in `load-sharing`
# campaign with one seed (84 runs) on one machine, then with `campaign run --cluster` on
# local clusters of 1, 2 and 3 node members, each cluster twice (fresh members, then warm).
# Prints the command's own "runs done in X s" line, the runs per member, and whether every
# file equals the one-machine run's. Uses ports 27551-27554, 28080 and 29095-29098.
set -uo pipefail
cd "$(dirname "$0")/.."
here="$(pwd)"
out="$(mktemp -d /tmp/loadlab-cluster-campaign.XXXXXX)"
trap 'rm -rf "$out"' EXIT
cd "$out"
L="$here/loadlab"
run() { # name, args...: runs a campaign, prints its timing line
  local name="$1"; shift
  "$L" campaign run load-sharing --seeds 101:101 --out "$out/$name" "$@" > "$out/$name.log" 2>&1 || { echo "$name failed: see $out/$name.log"; tail "$out/$name.log"; }
}
run local --workers 2
echo "one machine, 2 workers: $(grep 'runs done' local.log)"
for n in 1 2 3; do
  setsid "$L" local-cluster --nodes "$n" --base-port 27551 --http-port 28080 --prometheus-port 29095 --member-heap 512m \
      --stop-after 300 --set loadlab.metrics.kamon=off > "lc-$n.log" 2>&1 &
  lc=$!
  for _ in $(seq 1 120); do sleep 1; grep -q "members Up" "lc-$n.log" && break; done
  for phase in cold warm; do
    run "c$n-$phase" --cluster --seed-nodes 127.0.0.1:27551
    same=yes
    for f in runs.jsonl runs.csv summary.csv pairwise.csv report.md report.html; do
      cmp -s "local/$f" "c$n-$phase/$f" || same="NO ($f differs)"
    done
    echo "$n member(s), $phase: $(grep 'runs done' "c$n-$phase.log");$(grep 'runs per member' "c$n-$phase.log" | sed 's/^ *runs per member:/ per member/'); identical: $same"
  done
  kill -TERM -- "-$lc" 2>/dev/null || kill -TERM "$lc"
  for _ in $(seq 1 40); do sleep 1; kill -0 "$lc" 2>/dev/null || break; done
done
