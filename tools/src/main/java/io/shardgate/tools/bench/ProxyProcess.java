package io.shardgate.tools.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged proxy in a child JVM, as {@code ./shardgate run --config FILE} runs it, with JVM options of the bench's
 * choosing (a fixed heap): the bench reads that JVM's heap with {@code jcmd} and {@code jstat} by its pid, which an
 * in-process proxy would share with the bench's own allocations. The config and the child's output go to files in
 * {@code dir}; {@link #start} waits for the line {@code RunCommand} prints once it serves. A shutdown hook stops the
 * child when the bench is stopped (Ctrl-C, SIGTERM) before it closes it, as the topology's own hook stops its servers.
 */
final class ProxyProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final Pattern LISTENING = Pattern.compile("^Shardgate listening on \\S+:(\\d+) \\(",
            Pattern.MULTILINE);
    private static final Pattern ADMIN = Pattern.compile("^Shardgate listening on .*, admin on \\S+:(\\d+)$", Pattern.MULTILINE);

    private final Process process;
    private final Thread shutdownHook;
    private final Path log;
    private final int port;

    private ProxyProcess(Process process, Thread shutdownHook, Path log, int port) {
        this.process = process;
        this.shutdownHook = shutdownHook;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts {@code java <jvmOptions> -jar <jar> run --config <dir>/<name>.yaml}; its output goes to
     * {@code <dir>/<name>.log}. Throws IllegalStateException with that output when it exits or does not listen.
     */
    static ProxyProcess start(Path jar, List<String> jvmOptions, String yaml, Path dir, String name)
            throws IOException, InterruptedException {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " does not exist: build it with mvn -B -pl proxy-core -am package -DskipTests");
        }
        Files.createDirectories(dir);
        Path config = dir.resolve(name + ".yaml");
        Path log = dir.resolve(name + ".log");
        Files.writeString(config, yaml);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString(), "run", "--config", config.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Thread hook = new Thread(process::destroyForcibly, "bench-proxy-stop");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The bench is being stopped while it starts a proxy: no hook will stop this one, so it goes now.
            process.destroyForcibly();
            throw e;
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try {
            while (true) {
                String output = Files.readString(log, StandardCharsets.UTF_8);
                OptionalInt port = listeningPort(output);
                if (port.isPresent()) {
                    return new ProxyProcess(process, hook, log, port.getAsInt());
                }
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the proxy (" + String.join(" ", command) + ") "
                            + (process.isAlive() ? "did not listen within " + START_TIMEOUT.toSeconds() + " s"
                            : "exited with status " + process.exitValue()) + ":\n" + Files.readString(log, StandardCharsets.UTF_8));
                }
                process.waitFor(50, TimeUnit.MILLISECONDS);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop(process);
            Runtime.getRuntime().removeShutdownHook(hook);
            throw e;
        }
    }

    /** The client port in the proxy's "Shardgate listening on H:P (...)" line, if it printed it. */
    static OptionalInt listeningPort(String output) {
        Matcher matcher = LISTENING.matcher(output);
        return matcher.find() ? OptionalInt.of(Integer.parseInt(matcher.group(1))) : OptionalInt.empty();
    }

    /** The admin port in the proxy's "Shardgate listening on H:P (...), admin on H:P" line, if it printed it. */
    static OptionalInt adminPort(String output) {
        Matcher matcher = ADMIN.matcher(output);
        return matcher.find() ? OptionalInt.of(Integer.parseInt(matcher.group(1))) : OptionalInt.empty();
    }

    int port() {
        return port;
    }

    /** The admin API's port (-1 when the proxy serves none). */
    int adminPort() throws IOException {
        return adminPort(output()).orElse(-1);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** Everything the proxy printed so far. */
    String output() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** SIGTERM, then SIGKILL after {@link #STOP_TIMEOUT}. */
    @Override
    public void close() throws InterruptedException {
        stop(process);
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // Closed by a shutdown in progress: the hook runs and finds the child stopped.
        }
    }

    private static void stop(Process process) throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }
}
