package io.shardgate.replication.topology;

import io.shardgate.storage.StorageAdapters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Real MariaDB shards for tests and the demo: per shard one primary and its replicas, with GTID
 * replication ({@code MASTER_USE_GTID=slave_pos}). Nodes start in parallel.
 *
 * <p>Teardown always happens: {@link #close()}, or a JVM shutdown hook when the JVM exits
 * first. Only the servers this topology started are signalled. A topology left behind by a JVM
 * that was killed is reaped by the next {@link #start}.
 *
 * <pre>{@code
 * try (Topology topology = Topology.start(TopologySpec.builder()
 *         .shard("s0", Engine.INNODB, 1)
 *         .shard("s1", Engine.ROCKSDB, 1).build())) {
 *     topology.shard("s1").primary().execute("CREATE DATABASE shop");
 * }
 * }</pre>
 */
public final class Topology implements AutoCloseable {
    static final String DIR_PREFIX = "shardgate-topology-";

    private final Path baseDir;
    private final ServerLauncher launcher;
    private final Accounts accounts;
    private final Map<String, Shard> shards;
    private final Thread shutdownHook;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Topology(Path baseDir, ServerLauncher launcher, Accounts accounts, Map<String, Shard> shards) {
        this.baseDir = baseDir;
        this.launcher = launcher;
        this.accounts = accounts;
        this.shards = shards;
        this.shutdownHook = new Thread(this::teardown, "shardgate-topology-teardown");
    }

    /** Starts every node of {@code spec} and wires replication; returns once replicas are replicating. */
    public static Topology start(TopologySpec spec) {
        requireNonNull(spec, "spec is null");
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        OrphanReaper.reap(tmp);
        Path baseDir;
        try {
            baseDir = Files.createTempDirectory(tmp, DIR_PREFIX);
            // Written aside and moved into place, so another JVM's reaper never reads a half-written file.
            Path owner = baseDir.resolve(OrphanReaper.OWNER_FILE + ".tmp");
            Files.writeString(owner, Long.toString(ProcessHandle.current().pid()));
            Files.move(owner, baseDir.resolve(OrphanReaper.OWNER_FILE), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new TopologyException("cannot create a topology directory in " + tmp, e);
        }
        ServerLauncher launcher = ServerLaunchers.choose(baseDir);
        Accounts accounts = Accounts.generate();
        List<NodeSpec> nodes = NodePlan.nodes(spec, StorageAdapters.load(Topology.class.getClassLoader()));

        Topology topology = new Topology(baseDir, launcher, accounts, new LinkedHashMap<>());
        Runtime.getRuntime().addShutdownHook(topology.shutdownHook);
        try {
            topology.shards.putAll(launchAll(spec, nodes, launcher, accounts));
            for (Shard shard : topology.shards.values()) {
                for (Node replica : shard.replicas()) {
                    replicate(replica, shard.primary(), accounts);
                }
            }
            return topology;
        } catch (RuntimeException e) {
            topology.close();
            throw e;
        }
    }

    private static Map<String, Shard> launchAll(TopologySpec spec, List<NodeSpec> nodes, ServerLauncher launcher,
                                                Accounts accounts) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(nodes.size(), 8));
        try {
            Map<NodeSpec, Future<ServerProcess>> started = new LinkedHashMap<>();
            for (NodeSpec node : nodes) {
                started.put(node, pool.submit(() -> launcher.launch(node, accounts)));
            }
            Map<String, Node> byName = new LinkedHashMap<>();
            TopologyException failure = null;
            for (Map.Entry<NodeSpec, Future<ServerProcess>> entry : started.entrySet()) {
                try {
                    byName.put(entry.getKey().name(), new Node(entry.getKey(), entry.getValue().get(), accounts));
                } catch (ExecutionException e) {
                    TopologyException cause = e.getCause() instanceof TopologyException t ? t
                            : new TopologyException(entry.getKey().name() + ": " + e.getCause(), e.getCause());
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
            Map<String, Shard> shards = new LinkedHashMap<>();
            for (ShardSpec shard : spec.shards()) {
                List<Node> replicas = new ArrayList<>();
                for (int i = 1; i <= shard.replicas(); i++) {
                    replicas.add(byName.get(NodePlan.replicaName(shard, i)));
                }
                shards.put(shard.name(), new Shard(shard.name(), shard.engine(),
                        byName.get(NodePlan.primaryName(shard)), replicas));
            }
            return shards;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted while starting nodes", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void replicate(Node replica, Node primary, Accounts accounts) {
        ServerProcess source = primary.server();
        replica.execute("CHANGE MASTER TO MASTER_HOST='" + source.replicationHost() + "', MASTER_PORT="
                        + source.replicationPort() + ", MASTER_USER='" + accounts.replUser()
                        + "', MASTER_PASSWORD='" + accounts.replPassword()
                        + "', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1",
                "START SLAVE");
        boolean running = Poll.until(Duration.ofSeconds(30), () -> {
            Map<String, String> status = replica.replicaStatus();
            return "Yes".equals(status.get("Slave_IO_Running")) && "Yes".equals(status.get("Slave_SQL_Running"));
        });
        if (!running) {
            Map<String, String> status = replica.replicaStatus();
            throw new TopologyException(replica.name() + ": replication from " + primary.name()
                    + " did not start: IO " + status.get("Slave_IO_Running") + " (" + status.get("Last_IO_Error")
                    + "), SQL " + status.get("Slave_SQL_Running") + " (" + status.get("Last_SQL_Error") + ")");
        }
    }

    public List<Shard> shards() {
        return List.copyOf(shards.values());
    }

    public Shard shard(String name) {
        Shard shard = shards.get(name);
        if (shard == null) {
            throw new IllegalArgumentException("no shard '" + name + "' (have " + shards.keySet() + ")");
        }
        return shard;
    }

    /** Every node, primaries and replicas, in shard order. */
    public List<Node> nodes() {
        List<Node> nodes = new ArrayList<>();
        for (Shard shard : shards.values()) {
            nodes.add(shard.primary());
            nodes.addAll(shard.replicas());
        }
        return nodes;
    }

    /** The account with all privileges that the proxy and tests use. */
    public Accounts accounts() {
        return accounts;
    }

    public Path baseDir() {
        return baseDir;
    }

    public String launcherDescription() {
        return launcher.description();
    }

    /**
     * Waits until every replica of every shard has applied everything its primary had written
     * when this call began.
     */
    public void awaitReplication(Duration timeout) {
        for (Shard shard : shards.values()) {
            String target = shard.primary().gtidBinlogPos();
            for (Node replica : shard.replicas()) {
                if (!target.isEmpty() && !replica.awaitGtid(target, timeout)) {
                    throw new TopologyException(replica.name() + " did not reach " + target + " within "
                            + timeout.toSeconds() + " s (at " + replica.gtidCurrentPos() + ")");
                }
            }
        }
    }

    /** Stops every server and removes the topology's files. Safe to call twice. */
    @Override
    public void close() {
        teardown();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down; the hook runs or has run teardown.
        }
    }

    private void teardown() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        launcher.close();
        deleteTree(baseDir);
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException ignored) {
                    // A socket file or a file a dying server still writes; the directory stays behind.
                }
            });
        } catch (IOException ignored) {
            // Nothing more to do: the next start's reaper removes what is left.
        }
    }
}
