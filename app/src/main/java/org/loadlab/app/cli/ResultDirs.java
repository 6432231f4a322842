package org.loadlab.app.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.loadlab.analysis.campaign.CampaignRun;
import org.loadlab.analysis.campaign.RunsFile;
import org.loadlab.analysis.io.ResultsJson;
import org.loadlab.analysis.io.RunResult;

/**
 * Reads the runs of a result directory for {@code plot} and {@code compare}: a {@code simulate}
 * directory ({@code results.json}) or a campaign directory ({@code runs.jsonl}).
 */
final class ResultDirs {
    private ResultDirs() {
    }

    /** Whether {@code dir} is a campaign directory. */
    static boolean isCampaign(Path dir) {
        return Files.isRegularFile(dir.resolve(RunsFile.FILE_NAME));
    }

    /**
     * The runs in {@code dir}.
     *
     * @param dir a result directory
     * @param what how the argument is named in messages, e.g. {@code DIR} or {@code A}
     * @throws BadInputException if {@code dir} holds neither kind of result, or its file cannot be read
     */
    static List<CampaignRun> read(Path dir, String what) {
        if (!Files.isDirectory(dir)) {
            throw new BadInputException(what + " = '" + dir + "': " + (Files.exists(dir) ? "not a directory" : "no such directory")
                    + "; give a directory written by `loadlab simulate` (results.json) or a campaign (runs.jsonl)");
        }
        try {
            if (isCampaign(dir)) {
                return RunsFile.read(dir.resolve(RunsFile.FILE_NAME));
            }
            Path json = dir.resolve("results.json");
            if (!Files.isRegularFile(json)) {
                throw new BadInputException(what + " = '" + dir + "': holds neither results.json (a `loadlab simulate`"
                        + " directory) nor runs.jsonl (a campaign directory)");
            }
            List<CampaignRun> runs = new ArrayList<>();
            for (RunResult r : ResultsJson.readRuns(json)) {
                runs.add(new CampaignRun(r.scenario(), new TreeMap<>(), r.policy(), r.seed(), r.metrics()));
            }
            if (runs.isEmpty()) {
                throw new BadInputException(what + " = '" + dir + "': results.json holds no runs");
            }
            return runs;
        } catch (IOException e) {
            throw new BadInputException(what + " = '" + dir + "': cannot read its results (" + CliErrors.describe(e) + ")");
        }
    }
}
