package org.loadlab.shell.gateway;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.balancer.core.DecisionLog;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * One gateway strategy's balancer telling the gateway how its requests went: the balancer
 * core's decision log ({@link DecisionLog}) completes the {@link Pending} requests the HTTP
 * side waits on, so each client gets the core's answer, not the gateway's own timeout.
 * Called on that balancer's actor thread ({@link #lost} on a node's); the HTTP side adds and
 * times out entries from its own threads (a {@link ConcurrentHashMap} shared by every strategy).
 *
 * <p>Status codes as seed 003's gateway answers them (SPEC.md §6, docs/autonomous.md): the
 * core's code for a served or failed request, 503 when the failover failed (TIMEOUT) or the
 * request was lost with its node (RESET: removed, or failed and told by the node itself,
 * {@link #lost}), 429 for a shed one, 504 when the balancer's request timeout ended it
 * (REQUEST_TIMEOUT, {@code balancers.request-timeout}: Envoy's answer).
 */
final class GatewayAnswers implements DecisionLog {

    /** A request the HTTP side waits on, by request id; filled in as its balancer decides. */
    static final class Pending {
        final CompletableFuture<AutonomousStack.Outcome> future = new CompletableFuture<>();
        final String strategy;
        volatile int node = -1;
        volatile String mode = "none";
        volatile boolean retried;
        volatile double decidedAt = Double.NaN;

        /** @param strategy the seed's name of the strategy whose balancer routes it */
        Pending(String strategy) {
            this.strategy = strategy;
        }
    }

    private final String strategyName;
    private final ConcurrentHashMap<Long, Pending> pending;

    /**
     * @param strategyName the seed's name of this balancer's strategy
     * @param pending the gateway's waiting requests, of every strategy
     */
    GatewayAnswers(String strategyName, ConcurrentHashMap<Long, Pending> pending) {
        this.strategyName = strategyName;
        this.pending = pending;
    }

    @Override
    public void routed(BalancerMessage.Arrival request, double decidedFrom, double now, int node, double propensity,
                       String mode, int[] pool, int poolSize, int[] inFlight, LoadSnapshot[] loads) {
        Pending p = pending.get(request.id());
        if (p != null) {
            p.node = node;
            p.decidedAt = now;
            p.mode = mode.startsWith(BalancerLogic.MODE_PREFIX) ? mode.substring(BalancerLogic.MODE_PREFIX.length()) : mode;
        }
    }

    @Override
    public void retried(long requestId, int node, double now) {
        Pending p = pending.get(requestId);
        if (p != null) {
            p.node = node;
            p.retried = true;
        }
    }

    @Override
    public void finished(long requestId, ResponseStatus status, double now) {
        Pending p = pending.remove(requestId);
        if (p != null) {
            answer(p, status, now);
        }
    }

    /**
     * Without retries the core keeps no ids of the requests in flight on a removed node; each of
     * this strategy's requests routed there is lost and answered now, as the core's RESET.
     */
    @Override
    public void nodeRemoved(int node, double now) {
        pending.forEach((id, p) -> {
            if (p.node == node && p.strategy.equals(strategyName) && pending.remove(id, p)) {
                answer(p, ResponseStatus.RESET, now);
            }
        });
    }

    /**
     * Request {@code requestId} was lost at a failed node (a {@code fail} event or a chaos
     * crash, which no balancer hears of): answered now as the core's RESET (503). Called on
     * the node's actor thread, so only the shared map and the entry's volatile fields are read.
     *
     * @param requestId the lost request
     * @param now when the node lost it, seconds on the stack's clock
     */
    void lost(long requestId, double now) {
        finished(requestId, ResponseStatus.RESET, now);
    }

    @Override
    public void shed(BalancerMessage.Arrival request, String reason, double now) {
        Pending p = pending.remove(request.id());
        if (p != null) {
            String mode = BalancerLogic.SHED.equals(reason) ? "qos_shed" : reason; // the seed's name for QoS shedding
            p.future.complete(new AutonomousStack.Outcome(429, -1, mode, strategyName, ResponseStatus.OVERLOADED.name(),
                    Double.NaN));
        }
    }

    private void answer(Pending p, ResponseStatus status, double now) {
        // The seed answers 503 when its failover fails, whatever failed it; LoadLab's core says why.
        int code = status == ResponseStatus.TIMEOUT || status == ResponseStatus.RESET ? 503 : status.code();
        p.future.complete(new AutonomousStack.Outcome(code, p.node, p.retried ? p.mode + "_failover" : p.mode, strategyName,
                status.name(), (now - p.decidedAt) * 1000.0));
    }
}
