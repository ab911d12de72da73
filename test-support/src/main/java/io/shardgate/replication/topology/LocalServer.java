package io.shardgate.replication.topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One node's mariadbd. The config file path is the marker that identifies its process. */
final class LocalServer implements ServerProcess {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final NodeSpec node;
    private final Path dataDir;
    private final Path configFile;
    private final Path errorLog;
    private final Path outputLog;
    private final int port;
    private final Accounts accounts;
    private final Path mariadbd;
    private final boolean runAsRoot;
    private volatile Process process;

    LocalServer(NodeSpec node, Path nodeDir, Path dataDir, int port, Accounts accounts, Path mariadbd, boolean runAsRoot) {
        this.node = node;
        this.mariadbd = mariadbd;
        this.runAsRoot = runAsRoot;
        this.dataDir = dataDir;
        this.configFile = nodeDir.resolve("my.cnf");
        this.errorLog = nodeDir.resolve("error.log");
        this.outputLog = nodeDir.resolve("mariadbd.out");
        this.port = port;
        this.accounts = accounts;
    }

    NodeSpec node() {
        return node;
    }

    String errorLogTail() {
        return LocalServerLauncher.tail(errorLog, 20);
    }

    private void writeConfig() throws IOException {
        StringBuilder cnf = new StringBuilder("[mariadbd]\n");
        Path nodeDir = configFile.getParent();
        cnf.append("datadir=").append(dataDir).append('\n')
                .append("port=").append(port).append('\n')
                .append("bind_address=127.0.0.1\n")
                .append("socket=").append(nodeDir.resolve("mariadbd.sock")).append('\n')
                .append("pid_file=").append(nodeDir.resolve("mariadbd.pid")).append('\n')
                .append("log_error=").append(errorLog).append('\n');
        if (runAsRoot) {
            cnf.append("user=root\n");
        }
        for (Map.Entry<String, String> option : node.options().entrySet()) {
            cnf.append(option.getKey());
            if (!option.getValue().isEmpty()) {
                cnf.append('=').append(option.getValue());
            }
            cnf.append('\n');
        }
        Files.writeString(configFile, cnf.toString(), StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        try {
            writeConfig();
            List<String> command = new ArrayList<>();
            // Own session: a Ctrl-C on the terminal reaches the JVM, which stops servers in order.
            LocalServerLauncher.binary("setsid").ifPresent(setsid -> command.add(setsid.toString()));
            command.add(mariadbd.toString());
            command.add("--defaults-file=" + configFile);
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(outputLog.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
        } catch (IOException e) {
            throw new TopologyException(node.name() + ": cannot start " + mariadbd, e);
        }
        Process started = process;
        boolean ready = Poll.until(READY_TIMEOUT, () -> !started.isAlive()
                || Jdbc.servesDataDir(host(), port, accounts.user(), accounts.password(), dataDir));
        if (!started.isAlive()) {
            throw new TopologyException(node.name() + ": mariadbd exited with " + started.exitValue()
                    + " before accepting connections; error log " + errorLog + ":\n" + errorLogTail());
        }
        if (!ready) {
            stop(Duration.ofSeconds(5));
            throw new TopologyException(node.name() + ": mariadbd did not accept connections on port " + port
                    + " within " + READY_TIMEOUT.toSeconds() + " s; error log " + errorLog + ":\n"
                    + errorLogTail());
        }
    }

    @Override
    public String host() {
        return "127.0.0.1";
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String replicationHost() {
        return host();
    }

    @Override
    public int replicationPort() {
        return port;
    }

    @Override
    public long pid() {
        Process current = process;
        return current == null ? -1 : current.pid();
    }

    @Override
    public boolean isAlive() {
        Process current = process;
        return current != null && current.isAlive();
    }

    @Override
    public void kill() {
        Process current = process;
        if (current == null || !current.isAlive()) {
            return;
        }
        thawQuietly(current);
        current.destroyForcibly();
        awaitExit(current, Duration.ofSeconds(30));
    }

    @Override
    public void stop(Duration timeout) {
        Process current = process;
        if (current == null || !current.isAlive()) {
            return;
        }
        thawQuietly(current);
        current.destroy();
        if (!awaitExit(current, timeout)) {
            current.destroyForcibly();
            awaitExit(current, Duration.ofSeconds(30));
        }
    }

    @Override
    public void freeze() {
        ProcessSignals.send(pid(), "STOP", configFile.toString());
    }

    @Override
    public void thaw() {
        ProcessSignals.send(pid(), "CONT", configFile.toString());
    }

    /** A frozen server cannot act on SIGTERM, so wake it first. */
    private void thawQuietly(Process current) {
        if (ProcessSignals.isOurs(current.pid(), configFile.toString())) {
            try {
                ProcessSignals.send(current.pid(), "CONT", configFile.toString());
            } catch (TopologyException ignored) {
                // It exited in between: nothing to wake.
            }
        }
    }

    private boolean awaitExit(Process current, Duration timeout) {
        try {
            return current.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
