package org.loadlab.experiment.run;

import org.loadlab.analysis.run.RunRecorder;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.MessageKinds;
import org.loadlab.kernel.MetricsSink;

/**
 * The last stage of every shell's sink chain: feeds the cores' observations into the
 * analysis module's {@link RunRecorder}. Requests are counted in front of it by a
 * {@link org.loadlab.kernel.observe.RequestLedger}.
 */
public final class RecorderSink implements MetricsSink {
    private final RunRecorder recorder;
    // Message class -> the recorder's kind index: a run has a handful of message classes, so
    // a short identity scan beats a ClassValue plus a map lookup per message.
    private Class<?>[] kindClasses = new Class<?>[8];
    private int[] kindIndex = new int[8];
    private int kindCount;

    /** @param recorder the run's recorder */
    public RecorderSink(RunRecorder recorder) {
        this.recorder = recorder;
    }

    /** The underlying recorder. */
    public RunRecorder recorder() {
        return recorder;
    }

    @Override
    public void arrived(double now, int balancer) {
        recorder.arrived(now);
    }

    @Override
    public void decision(double now, int balancer, int queries) {
        recorder.decision(now, queries);
    }

    @Override
    public void routed(double now, int balancer, int node, double decisionStart, double arrivalTime) {
        recorder.routed(now, node);
    }

    @Override
    public void rejected(double now, double arrivalTime) {
        recorder.rejected(now, arrivalTime);
    }

    @Override
    public void completed(double now, double arrivalTime, int node) {
        recorder.completed(now, arrivalTime, node);
    }

    @Override
    public void serviceStarted(double now, int node, double waitSeconds) {
        recorder.serviceStarted(now, node, waitSeconds);
    }

    @Override
    public void lost(double now, int node, int count) {
        recorder.lost(now, node, count);
    }

    @Override
    public void queueLength(double now, int node, int queueLength) {
        recorder.queueLength(now, node, queueLength);
    }

    @Override
    public void busyServers(double now, int node, int busy, int servers) {
        recorder.busyServers(now, node, busy, servers);
    }

    @Override
    public void stateUpdate(double now, int node, int receivers) {
        recorder.stateUpdate(now, node, receivers);
    }

    @Override
    public void count(double now, String name, long delta) {
        recorder.count(now, name, delta);
    }

    @Override
    public void messageSent(double now, String kind, int bytes) {
        recorder.messageSent(now, kind, bytes);
    }

    @Override
    public void messageSent(double now, Message message) {
        recorder.messageSent(now, kindOf(message.getClass()), message.estimatedBytes());
    }

    private int kindOf(Class<?> type) {
        for (int i = 0; i < kindCount; i++) {
            if (kindClasses[i] == type) {
                return kindIndex[i];
            }
        }
        if (kindCount == kindClasses.length) {
            kindClasses = java.util.Arrays.copyOf(kindClasses, kindCount * 2);
            kindIndex = java.util.Arrays.copyOf(kindIndex, kindCount * 2);
        }
        kindClasses[kindCount] = type;
        kindIndex[kindCount] = recorder.messageKind(MessageKinds.of(type));
        return kindIndex[kindCount++];
    }
}
