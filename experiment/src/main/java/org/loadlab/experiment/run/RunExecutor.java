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
            List<T> results = new ArrayList<>();
            for (int i = 0; i < futures.size(); i++) {
                try {
                    results.add(futures.get(i).get());
                } catch (ExecutionException e) {
                    RunSpec s = specs.get(i);
                    throw new IllegalStateException("run " + s.scenario().name() + " / " + s.policy() + " / seed " + s.seed()
                            + " failed: " + e.getCause(), e.getCause());
                }
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
