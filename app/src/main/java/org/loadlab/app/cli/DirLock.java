package org.loadlab.app.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One LoadLab process at a time in a directory: an exclusive {@link FileChannel#tryLock()} on a
 * lock file in it, held for the job's lifetime. The operating system releases the lock when the
 * process ends, however it ends, so a killed or crashed job never leaves the directory locked:
 * a lock file left behind by a dead process is taken over at once. The lock file holds the
 * holder's process id, for the message the refused job shows.
 *
 * <p>Two kinds of directory are guarded ({@link Guard}): a gateway's state directory (without
 * it two gateways share the H2 journal, whose {@code AUTO_SERVER} mode lets a second process
 * in, and the second one's posterior events fail to save) and every directory a job writes its
 * results into ({@link #job}): {@code simulate --out} and {@code --decision-log}, {@code plot
 * DIR}, {@code compare --out}, {@code tune --out}, {@code campaign run}/{@code resume} and
 * {@code report DIR}, {@code sticky-lazy-check DIR}, and per study {@code study --out}. Without
 * it two jobs truncate each other's files and leave a mixture (two {@code simulate} jobs commit
 * each other's {@code .part} files; two campaigns write one journal, which {@code AUTO_SERVER}
 * lets both open).
 */
final class DirLock implements AutoCloseable {
    /**
     * What a lock guards.
     *
     * @param file the lock file's name in the directory
     * @param busy what the refusal says of the holder, e.g. "in use by another gateway"
     * @param whatToDo what the refused user can do instead
     * @param flag the flag that names another directory
     */
    record Guard(String file, String busy, String whatToDo, String flag) {
    }

    /** A gateway's {@code --state-dir}. */
    static final Guard GATEWAY = new Guard("gateway.lock", "in use by another gateway",
            "stop that gateway, or give this one another --state-dir", "--state-dir");

    /** The lock file of a directory a job writes its results into ({@link #job}). */
    static final String JOB_FILE = ".loadlab-job.lock";

    /** What the refusal says of the holder of a results directory. */
    private static final String JOB_BUSY = "another LoadLab job is writing its results there";

    /** A {@code simulate} job's {@code --out} directory. */
    static final Guard RESULTS = job("--out", "give this one another --out");

    /**
     * A directory a job writes its results into: one lock file ({@value #JOB_FILE}) for every
     * command, so that, e.g., {@code plot DIR} waits for the {@code simulate} job writing DIR.
     *
     * @param flag the flag (or parameter, e.g. {@code DIR}) that names the directory
     * @param instead what else the refused user can do besides waiting, or null
     * @return the guard
     */
    static Guard job(String flag, String instead) {
        return job(JOB_FILE, flag, instead);
    }

    /**
     * As {@link #job(String, String)} with a lock file of its own, for jobs that write disjoint
     * files into one directory and may run side by side (e.g. two different studies).
     *
     * @param file the lock file's name
     * @param flag the flag (or parameter) that names the directory
     * @param instead what else the refused user can do besides waiting, or null
     * @return the guard
     */
    static Guard job(String file, String flag, String instead) {
        return new Guard(file, JOB_BUSY, "wait until that job has finished" + (instead == null ? "" : ", or " + instead), flag);
    }

    private final FileChannel channel;
    private final FileLock lock;

    private DirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code dir} (which must exist and be writable: {@link OutputDir#prepare})
     * and writes this process's id into the lock file. Nothing else in {@code dir} is touched.
     *
     * @param dir the directory
     * @param what the directory as the user knows it, e.g. {@code --out = 'results/q'}
     * @param guard what the lock guards (its file name and the messages)
     * @return the lock; close it when the job is done with the directory
     * @throws BadInputException if another process, or another job of this one, holds it, or the
     *         lock file cannot be opened
     */
    static DirLock acquire(Path dir, String what, Guard guard) {
        Path file = dir.resolve(guard.file());
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // held by this JVM
            }
            if (lock == null) {
                String holder = holder(channel);
                channel.close();
                throw new BadInputException(what + ": " + guard.busy() + " (" + holder + "holding " + file + "); "
                        + guard.whatToDo());
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
            channel.force(false);
            return new DirLock(channel, lock);
        } catch (IOException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // the lock failed already; its message says why
                }
            }
            throw new BadInputException(what + ": cannot lock " + file + " (" + CliErrors.describe(e)
                    + "); choose a writable directory " + (guard.flag().startsWith("-") ? "with " + guard.flag() + " DIR" : "as " + guard.flag()));
        }
    }

    /** "pid N, " from the lock file, or "" if it holds nothing readable. */
    private static String holder(FileChannel channel) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(64);
        channel.read(b, 0);
        String text = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).trim();
        return text.matches("pid [0-9]+") ? text + ", " : "";
    }

    /**
     * Releases the lock. The file stays: deleting it could let two processes lock two different
     * files (one still holding the deleted one open), and it is rewritten by the next holder.
     */
    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
