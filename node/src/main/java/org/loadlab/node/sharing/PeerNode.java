package org.loadlab.node.sharing;

import org.loadlab.node.backend.TimedQueue;

import java.util.random.RandomGenerator;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MetricsSink;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.NodeMessage;

/**
 * A node of a load-sharing run (no balancer in front): an FCFS queue in front of c servers of
 * rate μ_j work units/s — the same service model as {@code BackendNode} (a task of demand D
 * takes D/μ_j seconds; failure loses the queue; degradation rescales remaining work) — plus
 * the node's load-sharing agent, which polls peers by message and transfers tasks.
 *
 * <p><b>Accepts</b> {@link SharingMessage}s (new tasks from the workload driver, the protocols'
 * messages and its own timers) and the scripted {@code NodeMessage.Fail}, {@code Recover} and
 * {@code Degrade}; any other message is an {@link IllegalArgumentException}.
 *
 * <p><b>Metrics.</b> A task completes where it runs: {@link MetricsSink#completed} with the
 * arrival time at its first node, so response time spans transfers. Every task arriving from
 * the driver is counted by {@link MetricsSink#arrived} and one {@link MetricsSink#decision}
 * whose {@code queries} are the polls this node sent since its previous arrival (so
 * queries per decision is polls per task). Protocol counters ({@link MetricsSink#count}):
 * {@code polls}, {@code transfers}, {@code poll_timeouts}, {@code transfers_returned},
 * {@code average_changes}, {@code state_updates}.
 *
 * <p><b>Costs and delays.</b> Control messages leave after {@code poll-latency} and transferred
 * tasks after {@code transfer-delay} (both on top of the shell's network latency). A transfer
 * costs the sender {@code transfer-cost} work units and a poll costs the poller and the polled
 * node {@code poll-cost} work units of CPU, served before the waiting tasks (not counted in q).
 *
 * <p><b>Safety.</b> A task is in exactly one place: a node's queue or server, or in transit
 * (counted by {@link #transfersOut()} − {@link #transfersIn()} over all nodes); a task reaching
 * a failed node is lost and counted. {@link TaskConservation} checks this at the end of a run.
 *
 * <p>Sources: SPEC.md §1 (node) and §7 (load sharing); the slides (seed 002); Eager, Lazowska,
 * Zahorjan 1986; Krueger and Finkel 1984; Shivaratri, Krueger and Singhal 1992.
 */
public final class PeerNode implements Logic<Message> {
    /** Counter: query messages sent (polls, each copy of TooHigh / TooLow). */
    public static final String POLLS = "polls";
    /** Counter: tasks transferred (not counting tasks sent back). */
    public static final String TRANSFERS = "transfers";
    /** Counter: polls that got no reply within poll-timeout. */
    public static final String POLL_TIMEOUTS = "poll_timeouts";
    /** Counter: above-average tasks sent back because their Accept had expired. */
    public static final String TRANSFERS_RETURNED = "transfers_returned";
    /** Counter: above-average ChangeAverage broadcasts. */
    public static final String AVERAGE_CHANGES = "average_changes";
    /** Counter: stable-sender StateUpdate messages. */
    public static final String STATE_UPDATES = "state_updates";

    private final NodeId id;
    private final int index;
    private final int nodeCount;
    private final double nominalRate;
    private final SharingProtocol protocol;
    private final SharingSettings settings;
    private final Server[] servers;
    private final TimedQueue<Task> waiting = new TimedQueue<>();
    private final DelayLine control;
    private final DelayLine transferLine;
    private final Agent agent;
    private RandomGenerator rng;
    /** The order of this node's last broadcast ({@link #peersInRandomOrder}), reused. */
    private int[] peerOrder;
    private double rate;
    private double pendingOverhead;
    private int busy;
    private int tasksInService;
    private boolean failed;
    private long nextId;
    private long pollsSinceDecision;
    private long arrivals;
    private long completions;
    private long lostTasks;
    private long transfersOut;
    private long transfersIn;

    /**
     * @param id this node's address (index in [0, nodeCount))
     * @param nodeCount n, number of nodes in the run, ≥ 1 (≥ 2 unless the protocol is none)
     * @param nominalRate μ_j, work units per second, &gt; 0
     * @param servers c, servers per node, ≥ 1
     * @param protocol the load-sharing protocol every node of the run runs
     * @param settings the protocol parameters
     * @throws IllegalArgumentException naming the bad argument
     */
    public PeerNode(NodeId id, int nodeCount, double nominalRate, int servers, SharingProtocol protocol,
                    SharingSettings settings) {
        if (id.index() >= nodeCount) {
            throw new IllegalArgumentException(id + " is outside the run's " + nodeCount + " nodes");
        }
        if (protocol != SharingProtocol.NONE && nodeCount < 2) {
            throw new IllegalArgumentException("load-sharing protocol " + protocol + " needs at least 2 nodes, nodes.count = "
                    + nodeCount);
        }
        if (!(nominalRate > 0) || Double.isInfinite(nominalRate)) {
            throw new IllegalArgumentException("service rate of " + id + " must be a finite number > 0, was " + nominalRate);
        }
        if (servers < 1) {
            throw new IllegalArgumentException("nodes.servers must be >= 1, was " + servers);
        }
        this.id = id;
        this.index = id.index();
        this.nodeCount = nodeCount;
        this.nominalRate = nominalRate;
        this.rate = nominalRate;
        this.protocol = protocol;
        this.settings = settings;
        this.servers = new Server[servers];
        for (int s = 0; s < servers; s++) {
            this.servers[s] = new Server(s);
        }
        this.control = new DelayLine(settings.pollLatency(), 0);
        this.transferLine = new DelayLine(settings.transferDelay(), 1);
        this.agent = Agent.create(protocol, this);
    }

    @Override
    public void onStart(Env env) {
        rng = env.random();
        env.metrics().busyServers(env.now(), index, 0, servers.length);
        agent.onStart(env);
    }

    @Override
    public void on(Message message, Env env) {
        if (onSharing(message, env)) {
            return;
        }
        if (message instanceof NodeMessage.Fail) {
            onFail(env);
        } else if (message instanceof NodeMessage.Recover) {
            if (failed) {
                failed = false;
                agent.onRecover(env);
            }
        } else if (message instanceof NodeMessage.Degrade d) {
            onDegrade(d.factor(), env);
        } else {
            throw new IllegalArgumentException(id + " runs load sharing (" + protocol + ") and cannot handle "
                    + message.getClass().getSimpleName() + "; only SharingMessage and Fail / Recover / Degrade");
        }
    }

    /**
     * Handles {@code m} if it is a {@link SharingMessage}; false if it is not. The frequent
     * messages are tested by their record classes first (an exact class compare) and only
     * the agent's own by the interface: on JDK 17 checking one class against two interfaces
     * (the engine's {@link Message} and {@link SharingMessage}) misses the class's one-entry
     * secondary-super cache every time (JDK-8180450, docs/performance.md).
     */
    private boolean onSharing(Message m, Env env) {
        if (m instanceof SharingMessage.ServiceDone d) {
            onServiceDone(d.slot(), env);
        } else if (m instanceof SharingMessage.Arrival a) {
            onArrival(a, env);
        } else if (m instanceof SharingMessage.Flush f) {
            (f.line() == 0 ? control : transferLine).flush(env); // in the network: a crash does not stop it
        } else if (m instanceof SharingMessage.Transfer t) {
            transfersIn++;
            if (failed) {
                lose(1, env);
            } else {
                agent.onTransferIn(t, env);
            }
        } else if (m instanceof SharingMessage.TaskReturn r) {
            transfersIn++;
            if (failed) {
                lose(1, env);
            } else {
                admit(r.task(), env);
                agent.onLoadChange(env);
            }
        } else if (m instanceof SharingMessage s) {
            if (!failed) {
                if (s instanceof SharingMessage.Poll || s instanceof SharingMessage.TooHigh || s instanceof SharingMessage.TooLow) {
                    charge(settings.pollCost(), env); // answering a query costs the polled node
                }
                agent.onMessage(s, env);
            }
            // A failed node drops every other message: it neither answers polls nor acts on replies.
        } else {
            return false;
        }
        return true;
    }

    private void onArrival(SharingMessage.Arrival a, Env env) {
        double now = env.now();
        arrivals++;
        env.metrics().arrived(now, index);
        Task t = new Task(a.id(), a.demand(), a.arrivalTime(), index, 0);
        if (failed) {
            lose(1, env);
        } else {
            agent.onTask(t, env);
        }
        env.metrics().decision(now, index, (int) Math.min(Integer.MAX_VALUE, pollsSinceDecision));
        pollsSinceDecision = 0;
    }

    // ---------------------------------------------------------------- queue and servers

    /**
     * The task joins this node: it starts service if a server is free, else it waits (FCFS).
     * Package-private: agents call it for every task they keep.
     */
    void admit(Task t, Env env) {
        double now = env.now();
        if (busy < servers.length) {
            startTask(freeSlot(), t, now, now, env);
        } else {
            waiting.add(t, now);
        }
        env.metrics().queueLength(now, index, queueLength());
    }

    /** True if a task joining now would wait (every server busy). */
    boolean allServersBusy() {
        return busy == servers.length;
    }

    /** Position of the newest waiting task transferred fewer than max-transfers times, or -1. */
    private int newestEligible() {
        for (int i = waiting.size() - 1; i >= 0; i--) {
            if (waiting.get(i).transfers() < settings.maxTransfers()) {
                return i;
            }
        }
        return -1;
    }

    /** True if a waiting task may still be transferred (fewer than max-transfers transfers so far). */
    boolean hasEligibleWaiting() {
        return newestEligible() >= 0;
    }

    /**
     * Removes the newest waiting task that may still be transferred (selection policy: newly
     * arrived tasks, never one in service), or returns null if there is none.
     */
    Task takeNewestEligible(Env env) {
        int i = newestEligible();
        if (i < 0) {
            return null;
        }
        Task t = waiting.removeAt(i);
        env.metrics().queueLength(env.now(), index, queueLength());
        return t;
    }

    /** Spends {@code work} work units of CPU on protocol overhead, before the waiting tasks. */
    void charge(double work, Env env) {
        if (failed || !(work > 0)) {
            return;
        }
        if (busy < servers.length) {
            startOverhead(freeSlot(), work, env.now(), env);
        } else {
            pendingOverhead += work;
        }
    }

    private void startTask(int slot, Task t, double enqueued, double start, Env env) {
        Server s = servers[slot];
        s.task = t;
        s.remainingWork = t.demand();
        busy++;
        tasksInService++;
        env.metrics().serviceStarted(env.now(), index, Math.max(0.0, start - enqueued));
        env.metrics().busyServers(env.now(), index, busy, servers.length);
        schedule(s, start, env);
    }

    private void startOverhead(int slot, double work, double start, Env env) {
        Server s = servers[slot];
        s.task = null;
        s.overhead = true;
        s.remainingWork = work;
        busy++;
        env.metrics().busyServers(env.now(), index, busy, servers.length);
        schedule(s, start, env);
    }

    private void schedule(Server s, double start, Env env) {
        if (rate > 0) {
            s.finishAt = start + s.remainingWork / rate;
            env.startTimer(s, Math.max(0.0, s.finishAt - env.now()), s.done);
        } else {
            s.finishAt = Double.POSITIVE_INFINITY;
            env.cancelTimer(s);
        }
    }

    private void onServiceDone(int slot, Env env) {
        Server s = servers[slot];
        if (s.task == null && !s.overhead) {
            return; // stale: the node failed meanwhile
        }
        double now = env.now();
        double finished = Math.min(now, s.finishAt); // a live shell may notice late; serve on from the true end
        Task done = s.task;
        s.task = null;
        s.overhead = false;
        busy--;
        if (done != null) {
            tasksInService--;
            completions++;
            env.metrics().completed(now, done.arrivalTime(), index);
        }
        if (pendingOverhead > 0) {
            double work = pendingOverhead;
            pendingOverhead = 0;
            startOverhead(slot, work, finished, env);
        } else if (!waiting.isEmpty()) {
            double since = waiting.headSince();
            startTask(slot, waiting.poll(), since, finished, env);
        } else {
            env.metrics().busyServers(now, index, busy, servers.length);
        }
        if (done != null) {
            env.metrics().queueLength(now, index, queueLength());
            agent.onDeparture(env);
        }
    }

    private void onDegrade(double factor, Env env) {
        double now = env.now();
        double oldRate = rate;
        rate = nominalRate * factor;
        for (Server s : servers) {
            if (s.task != null || s.overhead) {
                if (oldRate > 0) {
                    s.remainingWork = Math.max(0.0, s.finishAt - now) * oldRate;
                }
                schedule(s, now, env);
            }
        }
    }

    private void onFail(Env env) {
        if (failed) {
            return;
        }
        int q = queueLength();
        for (Server s : servers) {
            if (s.task != null || s.overhead) {
                env.cancelTimer(s);
                s.task = null;
                s.overhead = false;
            }
        }
        waiting.clear();
        busy = 0;
        tasksInService = 0;
        pendingOverhead = 0;
        failed = true;
        if (q > 0) {
            lose(q, env);
        }
        agent.onFail(env);
        env.metrics().busyServers(env.now(), index, 0, servers.length);
        env.metrics().queueLength(env.now(), index, 0);
    }

    private void lose(int count, Env env) {
        lostTasks += count;
        env.metrics().lost(env.now(), index, count);
    }

    private int freeSlot() {
        for (int s = 0; s < servers.length; s++) {
            if (servers[s].task == null && !servers[s].overhead) {
                return s;
            }
        }
        throw new IllegalStateException("no free server slot although busy < servers");
    }

    // ---------------------------------------------------------------- messaging for agents

    /** A fresh id for a poll, round or promise (unique per node). */
    long nextId() {
        return nextId++;
    }

    /** Sends a query (poll, TooHigh, TooLow) to node {@code to}: counted as a poll and charged poll-cost. */
    void poll(int to, SharingMessage m, Env env) {
        pollsSinceDecision++;
        env.metrics().count(env.now(), POLLS, 1);
        charge(settings.pollCost(), env);
        control.send(env, NodeId.of(to), m);
    }

    /** Sends a control message that is not a query (reply, Accept, ChangeAverage, StateUpdate). */
    void sendControl(int to, SharingMessage m, Env env) {
        control.send(env, NodeId.of(to), m);
    }

    /** Transfers {@code t} to node {@code to} (its transfer count + 1), answering {@code ref} (−1: none). */
    void transfer(int to, Task t, long ref, Env env) {
        transfersOut++;
        env.metrics().count(env.now(), TRANSFERS, 1);
        charge(settings.transferCost(), env);
        transferLine.send(env, NodeId.of(to), new SharingMessage.Transfer(t.transferred(), index, ref));
    }

    /** Sends {@code t} back to node {@code to}, which must keep it (above-average, expired promise). */
    void sendBack(int to, Task t, Env env) {
        transfersOut++;
        env.metrics().count(env.now(), TRANSFERS_RETURNED, 1);
        charge(settings.transferCost(), env);
        transferLine.send(env, NodeId.of(to), new SharingMessage.TaskReturn(t, index));
    }

    /** Adds to a protocol counter. */
    void count(String name, long delta, Env env) {
        env.metrics().count(env.now(), name, delta);
    }

    /** A uniformly random peer index ≠ this node. Needs n ≥ 2. */
    int randomPeer() {
        int j = rng.nextInt(nodeCount - 1);
        return j >= index ? j + 1 : j;
    }

    /**
     * A uniformly random peer that is not among {@code taken[0..count)} (rejection
     * sampling: a poll round polls at most the poll limit, far fewer than n − 1 peers).
     */
    int randomPeerNotIn(int[] taken, int count) {
        while (true) {
            int j = randomPeer();
            boolean seen = false;
            for (int i = 0; i < count && !seen; i++) {
                seen = taken[i] == j;
            }
            if (!seen) {
                return j;
            }
        }
    }

    /**
     * Every peer index ≠ this node, in a uniformly random order ({@link PeerOrder}), for a
     * broadcast. The array is reused by the next call: iterate it
     * before broadcasting again.
     */
    int[] peersInRandomOrder() {
        if (peerOrder == null) {
            peerOrder = new int[nodeCount - 1];
        }
        return PeerOrder.shuffle(peerOrder, index, rng);
    }

    /** This node's random stream (valid after {@link #onStart}). */
    RandomGenerator rng() {
        return rng;
    }

    SharingSettings settings() {
        return settings;
    }

    int index() {
        return index;
    }

    int nodeCount() {
        return nodeCount;
    }

    /** Lp capped at n − 1: the most distinct peers a round may poll. */
    int pollLimit() {
        return Math.min(settings.pollLimit(), nodeCount - 1);
    }

    /** This node's state under the threshold, from its current queue length. */
    PeerState state() {
        return PeerState.of(queueLength(), settings.threshold());
    }

    /** The agent (tests inspect its state). */
    Agent agent() {
        return agent;
    }

    // ---------------------------------------------------------------- public view

    /** q_j: tasks waiting plus in service (CPU overhead is not a task). */
    public int queueLength() {
        return waiting.size() + tasksInService;
    }

    /** μ_j now: the nominal rate, or the degraded one during a degrade event (work units per second). */
    public double serviceRate() {
        return rate;
    }

    /** Tasks in service (at most the node's servers). */
    public int inServiceCount() {
        return tasksInService;
    }

    /** Tasks waiting (not in service). */
    public int waitingCount() {
        return waiting.size();
    }

    /** True once the node has failed and not recovered. */
    public boolean failed() {
        return failed;
    }

    /** This node's address. */
    public NodeId id() {
        return id;
    }

    /** The protocol this node runs. */
    public SharingProtocol protocol() {
        return protocol;
    }

    /** Tasks that arrived here from the workload driver. */
    public long arrivals() {
        return arrivals;
    }

    /** Tasks that completed here (wherever they first arrived). */
    public long completions() {
        return completions;
    }

    /** Tasks lost here: queued or in service at a failure, or reaching this node while failed. */
    public long lostTasks() {
        return lostTasks;
    }

    /** Tasks this node sent to another (transfers and tasks sent back), including those still in its delay line. */
    public long transfersOut() {
        return transfersOut;
    }

    /** Task messages (transfers and tasks sent back) this node received, kept or lost. */
    public long transfersIn() {
        return transfersIn;
    }

    /**
     * One of the node's c servers: the task in service (or CPU overhead), its finish time and
     * remaining work. The object is the key of its completion timer.
     */
    private static final class Server {
        final SharingMessage.ServiceDone done;
        Task task;
        boolean overhead;
        double finishAt;
        double remainingWork;

        Server(int slot) {
            this.done = new SharingMessage.ServiceDone(slot);
        }
    }
}
