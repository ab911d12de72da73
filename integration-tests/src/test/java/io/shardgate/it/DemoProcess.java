package io.shardgate.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** {@code ./shardgate demo …} running in the background, its output collected line by line. */
final class DemoProcess {
    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final CompletableFuture<Boolean> ready = new CompletableFuture<>();
    private final Thread reader;

    private DemoProcess(Process process) {
        this.process = process;
        this.reader = new Thread(this::read, "demo-output");
        reader.start();
    }

    /** Starts {@code ./shardgate demo} with {@code args}, running the packaged jars. */
    static DemoProcess start(List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(JarProxy.HOME.resolve("shardgate").toString(), "demo"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("SHARDGATE_JAR", JarProxy.JAR.toString());
        builder.environment().put("SHARDGATE_TOOLS_JAR", toolsJar().toString());
        return new DemoProcess(builder.start());
    }

    static Path toolsJar() {
        return JarProxy.HOME.resolve("tools/target/shardgate-tools.jar");
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                }
                if (line.startsWith("Ready.")) {
                    ready.complete(true);
                }
            }
        } catch (IOException ignored) {
            // The process ended.
        }
        ready.complete(false);
    }

    /** True once the demo printed "Ready."; false when it ended first or {@code seconds} passed. */
    boolean awaitReady(int seconds) throws Exception {
        try {
            return ready.get(seconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        }
    }

    /** What it printed so far. */
    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    long pid() {
        return process.pid();
    }

    /** Sends {@code SIG<signal>}; true when the demo then exits within 90 s (its output read to the end). */
    boolean stop(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        if (kill.waitFor() != 0) {
            return false;
        }
        boolean exited = process.waitFor(90, TimeUnit.SECONDS);
        reader.join(10_000);
        return exited;
    }
}
