package org.loadlab.app.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks an output or state directory before any work starts: it is created if missing and a
 * file is written to it and removed, so that an unwritable or invalid {@code --out} (or
 * {@code --state-dir}) is bad input (exit 2) at once instead of a failure after every run has
 * finished, or a database's stack traces.
 */
final class OutputDir {
    private OutputDir() {
    }

    /**
     * Creates {@code dir} if needed and proves it writable, as the directory of {@code --out}.
     *
     * @param dir the directory
     * @param given whether the user gave it with {@code --out} (else it is the default)
     * @return {@code dir}
     * @throws BadInputException naming {@code --out}, the path and why it cannot be used
     */
    static Path prepare(Path dir, boolean given) {
        return prepare(dir, "--out", given);
    }

    /**
     * Creates {@code dir} if needed and proves it writable.
     *
     * @param dir the directory
     * @param flag the flag that gives it, e.g. {@code --state-dir}
     * @param given whether the user gave it with {@code flag} (else it is the default)
     * @return {@code dir}
     * @throws BadInputException naming {@code flag}, the path and why it cannot be used
     */
    static Path prepare(Path dir, String flag, boolean given) {
        String what = describe(dir, flag, given);
        if (dir.toString().isBlank()) {
            throw new BadInputException(what + ": empty; give a directory (it is created if missing)");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new BadInputException(what + ": is a file; give a directory (it is created if missing)");
        }
        for (Path p = dir.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p) && !Files.isDirectory(p)) {
                throw new BadInputException(what + ": " + p + " is a file, so no directory can be made below it");
            }
        }
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, ".loadlab-write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            String why = e instanceof IOException io ? CliErrors.describe(io) : "not allowed (" + e.getMessage() + ")";
            throw new BadInputException(what + ": cannot write there (" + why + "); choose a writable directory with " + flag
                    + " DIR");
        }
        return dir;
    }

    /**
     * The directory as error messages name it: {@code --out = 'DIR'} if the user gave it, else
     * {@code the output directory DIR (the default of --out)}.
     *
     * @param dir the directory
     * @param flag the flag that gives it
     * @param given whether the user gave it with {@code flag}
     * @return the words
     */
    static String describe(Path dir, String flag, boolean given) {
        return given ? flag + " = '" + dir + "'"
                : (flag.equals("--out") ? "the output directory " : "the directory ") + dir + " (the default of " + flag + ")";
    }

    /**
     * Checks a file to be written at the end of a job ({@code --out FILE}) before the job
     * starts: it must not be a directory, and its directory is created if missing and proved
     * writable.
     *
     * @param file the file
     * @param flag the flag that names it
     * @return {@code file}
     * @throws BadInputException naming {@code flag}, the path and why it cannot be used
     */
    static Path prepareFile(Path file, String flag) {
        if (file.toString().isBlank()) {
            throw new BadInputException(flag + " = '': empty; give a file name");
        }
        if (Files.isDirectory(file)) {
            throw new BadInputException(flag + " = '" + file + "': is a directory; give a file name");
        }
        Path parent = file.toAbsolutePath().getParent();
        prepare(parent, flag, true);
        return file;
    }
}
