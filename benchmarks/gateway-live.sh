#!/usr/bin/env bash
# Seed 003's benchmark against the live HTTP gateway (docs/autonomous.md, "Results: the live
# HTTP gateway"): for each strategy and load a fresh gateway JVM, 2 s of warm-up at
# 100 requests/s, then 3 s at the load (as the seed), open loop (`loadlab loadgen`). The
# chaos variant injects the seed's fault on node 0 (cpu_spike, +300 ms) after the warm-up.
# Prints loadgen's csv line per case: strategy, load, requests, p50, p95, p99 (ms), SLA
# breaches, errors (every 5xx), shed (% of requests), achieved completions/s, p99 added by the gateway (ms).
# Uses port 18500 and a throwaway state directory; about 10 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
jar=app/target/loadlab.jar
[ -f "$jar" ] || ./mvnw -B -q -DskipTests package
state="$(mktemp -d /tmp/loadlab-gateway-live.XXXXXX)"
trap 'rm -rf "$state"' EXIT
port=18500
url="http://127.0.0.1:$port"
echo "strategy,load,requests,p50_ms,p95_ms,p99_ms,sla_breach_pct,error_pct,shed_pct,achieved_rps,added_p99_ms"
for strategy in lin_ts least_conn p2c round_robin weighted_round_robin; do
  for load in 100 500 1000 500-chaos; do
    rate="${load%-chaos}"
    java -Xmx1g -XX:+UseParallelGC -jar "$jar" gateway --port "$port" --strategy "$strategy" \
        --state-dir "$state/$strategy-$load" --max-lifetime 120 > "$state/gateway.log" 2>&1 &
    gw=$!
    for _ in $(seq 1 120); do curl -s -o /dev/null "$url/strategy" && break; sleep 0.5; done
    java -Xmx512m -jar "$jar" loadgen --url "$url" --rate 100 --duration 2 > /dev/null 2>&1
    if [ "$load" != "$rate" ]; then
      curl -s -o /dev/null -X POST "$url/chaos/inject?node_idx=0" -H 'Content-Type: application/json' \
          -d '{"fault_type": "cpu_spike", "extra_latency_ms": 300}'
    fi
    line="$(java -Xmx512m -jar "$jar" loadgen --url "$url" --rate "$rate" --duration 3 2>&1 | grep '^csv,')"
    echo "$strategy,$load,${line#csv,*,*,}"
    kill "$gw" 2>/dev/null
    wait "$gw" 2>/dev/null
  done
done
