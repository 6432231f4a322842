package org.loadlab.shell.campaign;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.loadlab.experiment.campaign.CampaignPlan;

/**
 * Simulates a campaign's runs on its own fixed pool, in the order given (the plan's
 * {@link CampaignPlan#executionOrder()}), ahead of the workers
 * that store them: a fresh campaign starts simulating at once, while the actor system and
 * the journal are still starting (about a second, as long as hundreds of short runs). A
 * worker then only waits for its run's result. Nothing is stored here: a run counts as
 * done only once the coordinator has its event in the journal, so a crash loses no stored
 * run, and runs computed ahead but not stored are simply run again on resume.
 */
final class RunPrefetch implements AutoCloseable {
    private final ExecutorService pool;
    private final Function<CampaignPlan.PlannedRun, String> execute;
    private final Map<Integer, CompletableFuture<String>> results = new ConcurrentHashMap<>();

    /**
     * Starts simulating {@code runs} in their order.
     *
     * @param runs the runs to simulate
     * @param threads threads of the pool, ≥ 1 (the campaign's workers: the same parallelism)
     * @param execute simulates one run and returns its result JSON
     */
    RunPrefetch(List<CampaignPlan.PlannedRun> runs, int threads, Function<CampaignPlan.PlannedRun, String> execute) {
        this.execute = execute;
        this.pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "loadlab-campaign-run");
            t.setDaemon(true);
            return t;
        });
        for (CampaignPlan.PlannedRun run : runs) {
            results.put(run.index(), CompletableFuture.supplyAsync(() -> execute.apply(run), pool));
        }
    }

    /**
     * The result JSON of {@code run}, waiting for it if it is still being simulated; a run
     * that was not started here is simulated by the caller.
     *
     * @throws RuntimeException what the simulation of the run threw
     */
    String result(CampaignPlan.PlannedRun run) {
        CompletableFuture<String> f = results.remove(run.index());
        if (f == null) {
            return execute.apply(run);
        }
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** Calls {@code action} once every run started here has been simulated (for the campaign's DEBUG phase timings). */
    void whenAllDone(Runnable action) {
        CompletableFuture.allOf(results.values().toArray(CompletableFuture[]::new)).whenComplete((ok, error) -> action.run());
    }

    /** Stops simulating runs nobody will ask for (a failed campaign); a run under way finishes on its daemon thread. */
    @Override
    public void close() {
        pool.shutdownNow();
    }
}
