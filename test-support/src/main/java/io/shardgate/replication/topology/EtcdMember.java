package io.shardgate.replication.topology;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One member of an {@link EtcdCluster}: an {@code etcd} process on two loopback ports (clients, peers) with its data
 * directory. The data directory's path is the marker that identifies its process (see {@link ProcessSignals}).
 */
final class EtcdMember {
    static final String PID_FILE = "etcd.pid";
    static final String DATA_DIR = "data";
    private static final Duration STATUS_TIMEOUT = Duration.ofMillis(500);
    private static final Pattern MEMBER_ID = Pattern.compile("\"member_id\"\\s*:\\s*\"?(\\d+)");
    private static final Pattern LEADER = Pattern.compile("\"leader\"\\s*:\\s*\"?(\\d+)");

    private final String name;
    private final Path dir;
    private final Path dataDir;
    private final Path log;
    private final int clientPort;
    private final int peerPort;
    private final HttpClient http;
    private volatile Process process;

    EtcdMember(String name, Path dir, int clientPort, int peerPort, HttpClient http) {
        this.name = name;
        this.dir = dir;
        this.dataDir = dir.resolve(DATA_DIR);
        this.log = dir.resolve("etcd.log");
        this.clientPort = clientPort;
        this.peerPort = peerPort;
        this.http = http;
    }

    String name() {
        return name;
    }

    String clientUrl() {
        return "http://127.0.0.1:" + clientPort;
    }

    String peerUrl() {
        return "http://127.0.0.1:" + peerPort;
    }

    String logTail() {
        return LocalServerLauncher.tail(log, 15);
    }

    /** Starts the process; it joins (or, {@code existing}, rejoins from its data) {@code initialCluster}. Does not wait. */
    synchronized void start(Path etcd, String initialCluster, String token, boolean existing) {
        if (isAlive()) {
            return;
        }
        List<String> command = new ArrayList<>();
        LocalServerLauncher.binary("setsid").ifPresent(setsid -> command.add(setsid.toString()));
        command.addAll(List.of(etcd.toString(),
                "--name", name,
                "--data-dir", dataDir.toString(),
                "--listen-client-urls", clientUrl(),
                "--advertise-client-urls", clientUrl(),
                "--listen-peer-urls", peerUrl(),
                "--initial-advertise-peer-urls", peerUrl(),
                "--initial-cluster", initialCluster,
                "--initial-cluster-state", existing ? "existing" : "new",
                "--initial-cluster-token", token,
                // Small and quick: a test cluster holds a few documents, and a killed leader is replaced in ~1 s.
                "--quota-backend-bytes", Long.toString(64L * 1024 * 1024),
                "--snapshot-count", "10000",
                "--heartbeat-interval", "100",
                "--election-timeout", "1000",
                "--logger", "zap",
                "--log-outputs", "stderr"));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        // Settings from the environment (ETCD_*) would override the flags above.
        builder.environment().keySet().removeIf(key -> key.startsWith("ETCD"));
        try {
            Files.createDirectories(dir);
            process = builder.start();
            Files.writeString(dir.resolve(PID_FILE), Long.toString(process.pid()));
        } catch (IOException e) {
            throw new TopologyException(name + ": cannot start " + etcd, e);
        }
    }

    boolean isAlive() {
        Process current = process;
        return current != null && current.isAlive();
    }

    /** The exit value when the process has exited, else empty. */
    Optional<Integer> exitValue() {
        Process current = process;
        return current == null || current.isAlive() ? Optional.empty() : Optional.of(current.exitValue());
    }

    /** SIGKILL. */
    void kill() {
        Process current = process;
        if (current != null && current.isAlive()) {
            current.destroyForcibly();
            awaitExit(current, Duration.ofSeconds(30));
        }
    }

    /** SIGTERM, then SIGKILL after {@code timeout}. */
    void stop(Duration timeout) {
        Process current = process;
        if (current == null || !current.isAlive()) {
            return;
        }
        current.destroy();
        if (!awaitExit(current, timeout)) {
            current.destroyForcibly();
            awaitExit(current, Duration.ofSeconds(30));
        }
    }

    /** This member's view, from {@code /v3/maintenance/status}; empty when it does not answer. */
    Optional<Status> status() {
        if (!isAlive()) {
            return Optional.empty();
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(clientUrl() + "/v3/maintenance/status"))
                .timeout(STATUS_TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (response.statusCode() != 200) {
                return Optional.empty();
            }
            return Optional.of(new Status(number(MEMBER_ID, response.body()), number(LEADER, response.body())));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted asking " + name + " for its status", e);
        }
    }

    private static long number(Pattern field, String json) {
        Matcher matcher = field.matcher(json);
        return matcher.find() ? Long.parseUnsignedLong(matcher.group(1)) : 0;
    }

    private static boolean awaitExit(Process current, Duration timeout) {
        try {
            return current.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A member's id and the id of the leader it follows (0: none). */
    record Status(long memberId, long leaderId) {
    }
}
