package io.shardgate.replication.topology;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Removes topologies whose JVM died without tearing them down (a SIGKILLed test run): kills
 * their servers, after checking each pid's command line names that topology's config file, and
 * deletes their directories. Topologies of live JVMs are left alone.
 */
final class OrphanReaper {
    static final String OWNER_FILE = "owner.pid";

    private OrphanReaper() {
    }

    static void reap(Path tmp) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, Topology.DIR_PREFIX + "*")) {
            for (Path dir : dirs) {
                if (ownerAlive(dir)) {
                    continue;
                }
                killServers(dir);
                Topology.deleteTree(dir);
            }
        } catch (IOException ignored) {
            // No temp directory listing: nothing to reap.
        }
    }

    private static boolean ownerAlive(Path dir) {
        try {
            long owner = Long.parseLong(Files.readString(dir.resolve(OWNER_FILE)).trim());
            return ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            // No readable owner file. Another JVM may be creating this topology right now (the
            // directory exists a moment before its owner file): leave young directories alone.
            return isYoung(dir);
        }
    }

    private static boolean isYoung(Path dir) {
        try {
            long age = System.currentTimeMillis() - Files.getLastModifiedTime(dir).toMillis();
            return age < Duration.ofMinutes(1).toMillis();
        } catch (IOException e) {
            return false;
        }
    }

    private static void killServers(Path dir) throws IOException {
        try (DirectoryStream<Path> nodes = Files.newDirectoryStream(dir)) {
            for (Path node : nodes) {
                Path pidFile = node.resolve("mariadbd.pid");
                Path config = node.resolve("my.cnf");
                pid(pidFile).filter(pid -> ProcessSignals.isOurs(pid, config.toString())).ifPresent(pid ->
                        ProcessHandle.of(pid).ifPresent(handle -> {
                            handle.destroyForcibly();
                            handle.onExit().completeOnTimeout(handle, Duration.ofSeconds(10).toMillis(),
                                    java.util.concurrent.TimeUnit.MILLISECONDS).join();
                        }));
            }
        }
    }

    private static Optional<Long> pid(Path pidFile) {
        try {
            return Optional.of(Long.parseLong(Files.readString(pidFile).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
