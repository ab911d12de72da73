package io.shardgate.replication.topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Sends signals to server processes, but only after checking that the pid still belongs to the
 * process we mean: its command line must contain a marker (the node's own config file path).
 * A recycled pid therefore never receives our signal.
 */
final class ProcessSignals {
    private ProcessSignals() {
    }

    /** The process's command line with NULs as spaces, or empty when it is gone. */
    static Optional<String> commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return Optional.of(new String(raw, StandardCharsets.UTF_8).replace('\0', ' '));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static boolean isOurs(long pid, String marker) {
        return pid > 0 && commandLine(pid).map(line -> line.contains(marker)).orElse(false);
    }

    /** Sends {@code signal} (such as {@code STOP}) to {@code pid} if its command line contains {@code marker}. */
    static void send(long pid, String signal, String marker) {
        if (!isOurs(pid, marker)) {
            throw new TopologyException("refusing to send SIG" + signal + " to pid " + pid
                    + ": it is not the server started with " + marker);
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (kill.waitFor() != 0) {
                throw new TopologyException("kill -" + signal + " " + pid + " failed: " + output);
            }
        } catch (IOException e) {
            throw new TopologyException("kill -" + signal + " " + pid + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted while signalling pid " + pid, e);
        }
    }
}
