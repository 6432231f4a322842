package org.loadlab.app.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One gateway per state directory: an exclusive lock on {@code gateway.lock} in the
 * directory, held for the gateway's lifetime (the operating system releases it when the
 * process ends, however it ends, so a crashed gateway never leaves the directory locked).
 * Without it two gateways share the H2 journal (its {@code AUTO_SERVER} mode lets a second
 * process in) and both write the posterior's events under the same persistence id: the
 * second one's writes fail and its learning is silently not saved.
 */
final class StateDirLock implements AutoCloseable {
    /** The lock file's name in the state directory. */
    static final String FILE = "gateway.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private StateDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code dir} (which must exist and be writable: {@link OutputDir#prepare})
     * and writes this process's id into the lock file, for the message another gateway shows.
     *
     * @param dir the state directory
     * @param what the directory as the user knows it, e.g. {@code --state-dir = 'results/gateway'}
     * @return the lock; close it when the gateway has stopped
     * @throws BadInputException if another gateway (another process, or this one) holds it
     */
    static StateDirLock acquire(Path dir, String what) {
        Path file = dir.resolve(FILE);
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
                throw new BadInputException(what + ": in use by another gateway (" + holder + "holding " + file
                        + "); stop that gateway, or give this one another --state-dir");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
            channel.force(false);
            return new StateDirLock(channel, lock);
        } catch (IOException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // the lock failed already; its message says why
                }
            }
            throw new BadInputException(what + ": cannot lock " + file + " (" + CliErrors.describe(e)
                    + "); choose a writable directory with --state-dir DIR");
        }
    }

    /** "pid N, " from the lock file, or "" if it holds nothing readable. */
    private static String holder(FileChannel channel) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(64);
        channel.read(b, 0);
        String text = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).trim();
        return text.matches("pid [0-9]+") ? text + ", " : "";
    }

    /** Releases the lock (the file stays: deleting it could let two gateways lock two different files). */
    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
