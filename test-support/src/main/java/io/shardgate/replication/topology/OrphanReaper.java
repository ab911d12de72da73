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
 * deletes their directories. Topologies of live JVMs are left alone. The etcd clusters of
 * {@link EtcdCluster} are reaped the same way: each member's directory holds its pid file, and
 * its command line names its data directory.
 */
final class OrphanReaper {
    static final String OWNER_FILE = "owner.pid";

    private OrphanReaper() {
    }

    static void reap(Path tmp) {
        reap(tmp, Topology.DIR_PREFIX, "mariadbd.pid", "my.cnf");
    }

    /**
     * Reaps the directories {@code tmp/<prefix>*} of dead JVMs: in each node directory, the process named by
     * {@code pidFileName} is killed when its command line contains the path of the node's {@code markerName}.
     */
    static void reap(Path tmp, String prefix, String pidFileName, String markerName) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, prefix + "*")) {
            for (Path dir : dirs) {
                if (ownerAlive(dir)) {
                    continue;
                }
                killServers(dir, pidFileName, markerName);
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

    private static void killServers(Path dir, String pidFileName, String markerName) throws IOException {
        try (DirectoryStream<Path> nodes = Files.newDirectoryStream(dir)) {
            for (Path node : nodes) {
                Path pidFile = node.resolve(pidFileName);
                Path config = node.resolve(markerName);
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
