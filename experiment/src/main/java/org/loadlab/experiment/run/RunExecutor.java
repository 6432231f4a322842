package org.loadlab.experiment.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs independent runs on a fixed pool of worker threads (each run is single-threaded
 * and deterministic, so parallelism never changes a result) and returns the outcomes in
 * the order of the input.
 */
public final class RunExecutor {
    private RunExecutor() {
    }

    /** Default number of workers: one per available core. */
    public static int defaultWorkers() {
        return Runtime.getRuntime().availableProcessors();
    }

    /**
     * Runs {@code task} on every spec.
     *
     * @param specs the runs
     * @param workers number of threads, ≥ 1
     * @param task what to do with one spec
     * @param onDone called (from a worker thread) after each finished run
     * @return outcomes in input order
     * @throws RuntimeException the first failure of a run, with the run named
     */
    public static <T> List<T> runAll(List<RunSpec> specs, int workers, Function<RunSpec, T> task, Consumer<T> onDone) {
        List<T> results = new ArrayList<>();
        runInOrder(specs, workers, task, onDone, results::add);
        return results;
    }

    /** Receives the outcomes of {@link #runInOrder} one at a time, in input order. */
    @FunctionalInterface
    public interface OrderedConsumer<T> {
        /**
         * @param outcome the next run's outcome, in input order
         * @throws java.io.IOException if writing it out fails (the remaining runs are cancelled)
         */
        void accept(T outcome) throws java.io.IOException;
    }

    /**
     * Runs {@code task} on every spec and hands each outcome to {@code inOrder} on the calling
     * thread, in input order, as soon as it and every earlier one are done; the executor keeps
     * no outcome after handing it over, so a caller that writes each one out and drops it holds
     * at most the runs finished ahead of their turn (about one per worker).
     *
     * @param specs the runs
     * @param workers number of threads, ≥ 1
     * @param task what to do with one spec
     * @param onDone called (from a worker thread) after each finished run, in finishing order
     * @param inOrder called on this thread with each outcome in input order
     * @throws RuntimeException the first failure of a run, with the run named
     * @throws java.io.UncheckedIOException if {@code inOrder} fails to write
     */
    public static <T> void runInOrder(List<RunSpec> specs, int workers, Function<RunSpec, T> task, Consumer<T> onDone,
                                      OrderedConsumer<T> inOrder) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(workers, specs.size())), r -> {
            Thread t = new Thread(r, "loadlab-run");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (RunSpec spec : specs) {
                futures.add(pool.submit(() -> {
                    T out = task.apply(spec);
                    onDone.accept(out);
                    return out;
                }));
            }
            for (int i = 0; i < futures.size(); i++) {
                T outcome;
                try {
                    outcome = futures.get(i).get();
                } catch (ExecutionException e) {
                    RunSpec s = specs.get(i);
                    throw new IllegalStateException("run " + s.scenario().name() + " / " + s.policy() + " / seed " + s.seed()
                            + " failed: " + e.getCause(), e.getCause());
                }
                futures.set(i, null); // the future would keep the outcome alive
                try {
                    inOrder.accept(outcome);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
