package io.shardgate.replication.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Runs each node as a local {@code mariadbd} on a free loopback port.
 *
 * <p>The data directory is made once per launcher ({@code mariadb-install-db} plus the accounts,
 * written in bootstrap mode where no binary log exists) and then copied for every node, which is
 * several times faster than installing each node. Every file lives below the launcher's base
 * directory; {@link #close()} stops the servers and deletes it.
 */
public final class LocalServerLauncher implements ServerLauncher {
    private static final List<Path> SEARCH_DIRS = List.of(
            Path.of("/usr/sbin"), Path.of("/usr/bin"), Path.of("/usr/local/bin"), Path.of("/usr/local/mysql/bin"));
    private static final String TEMPLATE_LOG_FILE_SIZE = "32M";

    private final Path mariadbd;
    private final Path installDb;
    private final Path baseDir;
    private final boolean runAsRoot;
    private final List<LocalServer> servers = new CopyOnWriteArrayList<>();
    private final java.util.Set<Integer> givenPorts = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private Path template;

    private LocalServerLauncher(Path mariadbd, Path installDb, Path baseDir) {
        this.mariadbd = mariadbd;
        this.installDb = installDb;
        this.baseDir = baseDir;
        this.runAsRoot = "root".equals(System.getProperty("user.name"));
    }

    /** A launcher writing below {@code baseDir}, or empty when this machine has no {@code mariadbd}. */
    public static Optional<LocalServerLauncher> find(Path baseDir) {
        requireNonNull(baseDir, "baseDir is null");
        Optional<Path> server = binary("mariadbd");
        Optional<Path> install = binary("mariadb-install-db");
        if (server.isEmpty() || install.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new LocalServerLauncher(server.get(), install.get(), baseDir));
    }

    static Optional<Path> binary(String name) {
        List<Path> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (!dir.isEmpty()) {
                    dirs.add(Path.of(dir));
                }
            }
        }
        dirs.addAll(SEARCH_DIRS);
        return dirs.stream().map(dir -> dir.resolve(name)).filter(Files::isExecutable).findFirst();
    }

    @Override
    public String description() {
        return "local " + mariadbd + " in " + baseDir;
    }

    @Override
    public ServerProcess launch(NodeSpec node, Accounts accounts) {
        Path template = template(accounts);
        Path nodeDir = baseDir.resolve(node.name());
        Path dataDir = nodeDir.resolve("data");
        try {
            Files.createDirectories(nodeDir);
            copyTree(template, dataDir);
        } catch (IOException e) {
            throw new TopologyException(node.name() + ": cannot prepare data directory " + dataDir, e);
        }
        TopologyException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            LocalServer server = new LocalServer(node, nodeDir, dataDir, unusedPort(), accounts, mariadbd, runAsRoot);
            try {
                server.start();
                servers.add(server);
                return server;
            } catch (TopologyException e) {
                // Another process may have taken the port between our probe and the bind.
                if (!server.errorLogTail().contains("Address already in use")) {
                    throw e;
                }
                last = e;
            }
        }
        throw last;
    }

    @Override
    public void close() {
        List<Thread> stoppers = new ArrayList<>();
        for (LocalServer server : servers) {
            Thread stopper = new Thread(() -> server.stop(Duration.ofSeconds(30)), "stop-" + server.node().name());
            stopper.start();
            stoppers.add(stopper);
        }
        for (Thread stopper : stoppers) {
            try {
                stopper.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        servers.clear();
    }

    private synchronized Path template(Accounts accounts) {
        if (template != null) {
            return template;
        }
        Path dir = baseDir.resolve("template");
        try {
            Files.createDirectories(baseDir);
            List<String> install = new ArrayList<>(List.of(installDb.toString(), "--no-defaults",
                    "--datadir=" + dir, "--auth-root-authentication-method=normal", "--skip-test-db",
                    "--innodb-log-file-size=" + TEMPLATE_LOG_FILE_SIZE));
            if (runAsRoot) {
                install.add("--user=root");
            }
            installOnce(install, dir);
            List<String> bootstrap = new ArrayList<>(List.of(mariadbd.toString(), "--no-defaults",
                    "--datadir=" + dir, "--bootstrap", "--skip-log-bin",
                    "--innodb-log-file-size=" + TEMPLATE_LOG_FILE_SIZE,
                    "--log-error=" + baseDir.resolve("bootstrap.log")));
            if (runAsRoot) {
                bootstrap.add("--user=root");
            }
            run(bootstrap, "FLUSH PRIVILEGES;\n" + accounts.createSql(), baseDir.resolve("bootstrap.out"));
        } catch (IOException e) {
            throw new TopologyException("cannot create the data directory template in " + dir, e);
        }
        template = dir;
        return dir;
    }

    /**
     * Runs {@code mariadb-install-db}, and once more from an empty directory when it fails: on a
     * loaded machine it has failed now and then, passing on the next try, and a whole test class
     * should not be lost to that. A second failure is reported with the server's own error lines.
     */
    private void installOnce(List<String> install, Path dir) throws IOException {
        Path log = baseDir.resolve("install-db.log");
        try {
            run(install, null, log);
        } catch (IOException first) {
            System.err.println("[topology] " + first.getMessage().lines().findFirst().orElse("") + "; trying once more");
            Topology.deleteTree(dir);
            try {
                run(install, null, baseDir.resolve("install-db-retry.log"));
            } catch (IOException second) {
                second.addSuppressed(first);
                throw second;
            }
        }
    }

    private static void run(List<String> command, String stdin, Path log) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        if (stdin == null) {
            builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        }
        Process process = builder.start();
        if (stdin != null) {
            try (var in = process.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(command.get(0) + " did not finish within 120 s; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted running " + command.get(0), e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(command.get(0) + " exited with " + process.exitValue() + ": "
                    + errorLines(log) + tail(log, 15));
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /**
     * A free loopback port not yet given to a server of this launcher: nodes start in parallel, and
     * two probes a moment apart may be offered the same port.
     */
    private int unusedPort() {
        for (int i = 0; i < 20; i++) {
            int port = freePort();
            if (givenPorts.add(port)) {
                return port;
            }
        }
        throw new TopologyException("no unused loopback port found");
    }

    /** A free loopback port, never 3306 (the system MariaDB's). */
    static int freePort() {
        for (int i = 0; i < 20; i++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (port != 3306) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot find a free loopback port", e);
            }
        }
        throw new TopologyException("no free loopback port found");
    }

    /** The lines of {@code file} that report an error (the server's {@code [ERROR]} lines), each ending in a newline. */
    private static String errorLines(Path file) {
        try {
            StringBuilder out = new StringBuilder();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.contains("ERROR") && out.length() < 4000) {
                    out.append(line).append('\n');
                }
            }
            return out.toString();
        } catch (IOException e) {
            return "";
        }
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no " + file + ")";
        }
    }
}
