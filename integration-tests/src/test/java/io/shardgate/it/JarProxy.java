package io.shardgate.it;

import io.shardgate.proxy.config.ConfigException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged proxy as {@code ./shardgate run --config FILE} runs it: {@code java -jar
 * proxy-core/target/shardgate.jar run --config FILE} in a child process, so a class missing from
 * the jar fails the test that needs it instead of hiding behind Maven's test class path.
 *
 * <p>The config is written to, and the child's stdout and stderr captured in, {@code
 * integration-tests/target/proxy-logs/<TestClass>-<n>.yaml|.log}. The child picks free ports (the
 * config says port 0) and reports them in the line {@code RunCommand} prints once it serves:
 * {@code Shardgate listening on H:P (transport), admin on H:P}; {@link #start} waits for that line
 * (bounded by {@link #START_TIMEOUT}) or for the child to exit. {@link #close} sends SIGTERM, then
 * SIGKILL after {@link #STOP_TIMEOUT}; a shutdown hook does the same for children still running when
 * the test JVM exits, so no proxy outlives the build.
 *
 * <p>Start-up: a child JVM loads some 6,000 classes from the jar that an in-process proxy shared with the
 * test JVM. The first child of a build writes a class-data-sharing archive of them when it stops
 * ({@code -XX:ArchiveClassesAtExit}, kept in {@code proxy-logs}, named after the jar's size and time);
 * later children map it ({@code -XX:SharedArchiveFile}), which took a child's start from 3.1-4.5 s
 * to 1.9-2.7 s on the loaded 2-core machine (an in-process start, warm: 0.3-0.7 s). The archive
 * changes how classes load, not what runs; a missing or stale one is ignored.
 */
final class JarProxy implements AutoCloseable {
    static final Path HOME = Path.of(System.getProperty("shardgate.home", "..")).toAbsolutePath().normalize();
    static final Path JAR = HOME.resolve("proxy-core/target/shardgate.jar");
    private static final Path LOGS = HOME.resolve("integration-tests/target/proxy-logs");
    static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final Pattern LISTENING = Pattern.compile("^Shardgate listening on \\S+:(\\d+) \\(.*\\), admin on \\S+:(\\d+)$",
            Pattern.MULTILINE);
    /** What {@code Main} prints for a {@code ConfigException} before it exits with status 1. */
    private static final Pattern CONFIG_ERROR = Pattern.compile("^shardgate run: (.*)\\z", Pattern.MULTILINE | Pattern.DOTALL);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();
    /** Set once, by the start that asks its child to write the class-data archive. */
    private static final AtomicBoolean ARCHIVING = new AtomicBoolean();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(JarProxy::stop), "jar-proxy-reaper"));
    }

    private final Process process;
    /** The archive this child writes when it exits, and where it goes then; null for the others. */
    private final Path archiveWritten;
    private final Path log;
    private final int port;
    private final int adminPort;
    private final Duration startup;

    private JarProxy(Process process, Path archiveWritten, Path log, int port, int adminPort, Duration startup) {
        this.process = process;
        this.archiveWritten = archiveWritten;
        this.log = log;
        this.port = port;
        this.adminPort = adminPort;
        this.startup = startup;
    }

    /**
     * Starts the packaged proxy with {@code yaml} as its config file. A config the proxy refuses
     * (it prints {@code shardgate run: MESSAGE} and exits 1) throws a {@link ConfigException} with
     * that message, as the proxy started in-process did; any other early exit, or no listening line
     * within {@link #START_TIMEOUT}, throws an {@link IllegalStateException} carrying the output.
     */
    static JarProxy start(String yaml) {
        requireJar();
        try {
            Files.createDirectories(LOGS);
            String name = testClassName() + "-" + SEQUENCE.incrementAndGet();
            Path config = LOGS.resolve(name + ".yaml");
            Path log = LOGS.resolve(name + ".log");
            Files.writeString(config, yaml);
            // A file-store proxy keeps its jobs next to its config: one left by an earlier build's proxy of this name is
            // not this one's (a failed run left a job there, which the next run's proxy took up).
            Files.deleteIfExists(LOGS.resolve(name + ".jobs.json"));
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            // The proxy turns Netty's leak detection off unless asked; the tests ask, as before.
            command.add("-Dio.netty.leakDetection.level=simple");
            String opts = System.getProperty("shardgate.it.proxyJavaOpts", "").trim();
            if (!opts.isEmpty()) {
                command.addAll(List.of(opts.split("\\s+")));
            }
            Path archive = LOGS.resolve("shardgate-" + Files.size(JAR) + "-" + Files.getLastModifiedTime(JAR).toMillis() + ".jsa");
            Path archiveWritten = null;
            if (Files.isRegularFile(archive)) {
                command.add("-XX:SharedArchiveFile=" + archive);
            } else if (ARCHIVING.compareAndSet(false, true)) {
                archiveWritten = archive.resolveSibling(archive.getFileName() + ".part");
                command.add("-XX:ArchiveClassesAtExit=" + archiveWritten);
            }
            command.addAll(List.of("-jar", JAR.toString(), "run", "--config", config.toString()));
            long begin = System.nanoTime();
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            RUNNING.add(process);
            try {
                return awaitListening(process, archiveWritten, log, begin);
            } catch (RuntimeException | Error e) {
                stop(process);
                if (archiveWritten != null) {
                    // A child that did not serve archives too little: let the next start write the archive.
                    Files.deleteIfExists(archiveWritten);
                    ARCHIVING.set(false);
                }
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fails with a message that names the jar and how to build it when it is missing. */
    static void requireJar() {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " does not exist: the integration tests run the packaged proxy. Build it "
                    + "first (mvn -B verify from the root packages proxy-core before integration-tests, or "
                    + "mvn -B -pl proxy-core -am package -DskipTests)");
        }
    }

    private static JarProxy awaitListening(Process process, Path archiveWritten, Path log, long begin) throws IOException {
        long deadline = begin + START_TIMEOUT.toNanos();
        while (true) {
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Matcher listening = LISTENING.matcher(output);
            if (listening.find()) {
                return new JarProxy(process, archiveWritten, log, Integer.parseInt(listening.group(1)), Integer.parseInt(listening.group(2)),
                        Duration.ofNanos(System.nanoTime() - begin));
            }
            if (!process.isAlive()) {
                // Read again: the last lines may have landed after the read above.
                output = Files.readString(log, StandardCharsets.UTF_8);
                Matcher refused = CONFIG_ERROR.matcher(output.strip());
                if (process.exitValue() == 1 && refused.find()) {
                    throw new ConfigException(refused.group(1));
                }
                throw new IllegalStateException("the packaged proxy exited with status " + process.exitValue()
                        + " before it listened (log " + log + "):\n" + output);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the packaged proxy did not listen within " + START_TIMEOUT.toSeconds()
                        + " s (log " + log + "):\n" + output);
            }
            try {
                process.waitFor(20, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the proxy to listen", e);
            }
        }
    }

    /** The simple name of the outermost {@code *IT} class on the stack, to name the log after it. */
    private static String testClassName() {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames -> frames
                .map(frame -> frame.getDeclaringClass())
                .map(type -> type.getNestHost().getSimpleName())
                .filter(name -> name.endsWith("IT"))
                .reduce((first, last) -> last)
                .orElse("proxy"));
    }

    int port() {
        return port;
    }

    int adminPort() {
        return adminPort;
    }

    /** How long the child took from {@code ProcessBuilder.start} to its listening line. */
    Duration startup() {
        return startup;
    }

    /** The file holding the child's stdout and stderr. */
    Path log() {
        return log;
    }

    /** The config file the proxy runs with (the file store writes admin changes back to it). */
    Path configFile() {
        String name = log.getFileName().toString();
        return log.resolveSibling(name.substring(0, name.length() - ".log".length()) + ".yaml");
    }

    /** Everything the child printed so far. */
    String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** A MariaDB Connector/J connection through the proxy, as the fixture's user. */
    java.sql.Connection connect() throws java.sql.SQLException {
        return java.sql.DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port() + "/?connectTimeout=5000",
                ProxyFixture.USER, ProxyFixture.PASSWORD);
    }

    /** Stops {@code proxy}, then {@code topology}; either may be null when its start failed. */
    static void stop(JarProxy proxy, io.shardgate.replication.topology.Topology topology) {
        try {
            if (proxy != null) {
                proxy.close();
            }
        } finally {
            if (topology != null) {
                topology.close();
            }
        }
    }

    /** Stops every proxy of a deployment on etcd, then its servers, then etcd; any may be null when its start failed. */
    static void stop(java.util.List<JarProxy> proxies, io.shardgate.replication.topology.Topology topology,
                     io.shardgate.replication.topology.EtcdCluster etcd) {
        try {
            for (JarProxy proxy : proxies) {
                if (proxy != null) {
                    proxy.close();
                }
            }
            if (topology != null) {
                topology.close();
            }
        } finally {
            if (etcd != null) {
                etcd.close();
            }
        }
    }

    /** SIGKILL: the proxy dies without a word to anyone (its leases expire on their own). */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        RUNNING.remove(process);
    }

    /** SIGTERM, as Ctrl-C or a service manager stops {@code ./shardgate run}; SIGKILL after {@link #STOP_TIMEOUT}. */
    @Override
    public void close() {
        stop(process);
        if (archiveWritten != null && Files.isRegularFile(archiveWritten)) {
            // Complete now that the child has exited; later starts see the whole archive or none.
            String name = archiveWritten.getFileName().toString();
            Path archive = archiveWritten.resolveSibling(name.substring(0, name.length() - ".part".length()));
            try (var old = Files.newDirectoryStream(LOGS, "shardgate-*.jsa")) {
                for (Path stale : old) {
                    Files.deleteIfExists(stale); // archives of jars built before this one
                }
                Files.move(archiveWritten, archive, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static void stop(Process process) {
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            RUNNING.remove(process);
        }
    }
}
