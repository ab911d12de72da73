package io.shardgate.replication.topology;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * A real etcd v3 cluster for tests: {@code members} local {@code etcd} processes on free loopback ports (never
 * 2379/2380, which a system etcd may hold), each with its data directory below one temporary directory.
 *
 * <p>Members can be killed (SIGKILL), stopped and started again on their data; {@link #leader()} asks the members
 * which of them leads. Teardown always happens: {@link #close()}, or a JVM shutdown hook; a cluster left behind by a
 * killed JVM is reaped by the next {@link #start}. Without {@code /usr/bin/etcd} the start fails and says which
 * package to install: tests that need etcd never skip.
 *
 * <pre>{@code
 * try (EtcdCluster etcd = EtcdCluster.start(3)) {
 *     etcd.kill(etcd.leader());
 *     etcd.awaitHealthy(Duration.ofSeconds(10));
 * }
 * }</pre>
 */
public final class EtcdCluster implements AutoCloseable {
    static final String DIR_PREFIX = "shardgate-etcd-";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_ALL_GRACE = Duration.ofSeconds(2);

    private final Path etcd;
    private final Path baseDir;
    private final String token;
    private final List<EtcdMember> members;
    private final Thread shutdownHook;
    private final AtomicBoolean closed = new AtomicBoolean();

    private EtcdCluster(Path etcd, Path baseDir, List<EtcdMember> members) {
        this.etcd = etcd;
        this.baseDir = baseDir;
        this.token = "shardgate-" + UUID.randomUUID();
        this.members = members;
        this.shutdownHook = new Thread(this::teardown, "shardgate-etcd-teardown");
    }

    /** Starts a new cluster of {@code members} members; returns once a quorum answers and has a leader. */
    public static EtcdCluster start(int members) {
        if (members < 1) {
            throw new IllegalArgumentException("members must be at least 1: " + members);
        }
        Path etcd = LocalServerLauncher.binary("etcd").orElseThrow(() -> new TopologyException(
                "cannot start an etcd cluster: no etcd binary (searched PATH, /usr/sbin, /usr/bin, /usr/local/bin). "
                        + "Install the etcd-server package (apt-get install etcd-server), as ./shardgate test does."));
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        OrphanReaper.reap(tmp, DIR_PREFIX, EtcdMember.PID_FILE, EtcdMember.DATA_DIR);
        TopologyException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            EtcdCluster cluster = create(etcd, tmp, members);
            Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
            try {
                cluster.startAll(false);
                return cluster;
            } catch (TopologyException e) {
                cluster.close();
                // Another process may have taken a port between our probe and etcd's bind: new ports, once more.
                if (!e.getMessage().contains("address already in use")) {
                    throw e;
                }
                last = e;
            }
        }
        throw last;
    }

    private static EtcdCluster create(Path etcd, Path tmp, int count) {
        Path baseDir;
        try {
            baseDir = Files.createTempDirectory(tmp, DIR_PREFIX);
            Path owner = baseDir.resolve(OrphanReaper.OWNER_FILE + ".tmp");
            Files.writeString(owner, Long.toString(ProcessHandle.current().pid()));
            Files.move(owner, baseDir.resolve(OrphanReaper.OWNER_FILE), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new TopologyException("cannot create an etcd cluster directory in " + tmp, e);
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
        Set<Integer> ports = new HashSet<>();
        List<EtcdMember> members = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = "etcd" + i;
            members.add(new EtcdMember(name, baseDir.resolve(name), port(ports), port(ports), http));
        }
        return new EtcdCluster(etcd, baseDir, List.copyOf(members));
    }

    /** A free loopback port, distinct from those already given to this cluster, never etcd's defaults. */
    private static int port(Set<Integer> given) {
        for (int i = 0; i < 50; i++) {
            int port = LocalServerLauncher.freePort();
            if (port != 2379 && port != 2380 && given.add(port)) {
                return port;
            }
        }
        throw new TopologyException("no unused loopback port found");
    }

    public int size() {
        return members.size();
    }

    /** Every member's client URL ({@code http://127.0.0.1:<port>}), in member order, running or not. */
    public List<String> endpoints() {
        return members.stream().map(EtcdMember::clientUrl).toList();
    }

    public String endpoint(int member) {
        return member(member).clientUrl();
    }

    public boolean isRunning(int member) {
        return member(member).isAlive();
    }

    /** The index of the current leader, waiting up to 10 s for the running members to have one. */
    public int leader() {
        OptionalInt[] found = {OptionalInt.empty()};
        if (!Poll.until(Duration.ofSeconds(10), () -> (found[0] = currentLeader()).isPresent())) {
            throw new TopologyException("etcd cluster has no leader within 10 s; " + describe());
        }
        return found[0].getAsInt();
    }

    /** The index of the member a quorum of answering members follows, if there is one right now. */
    public OptionalInt currentLeader() {
        List<Optional<EtcdMember.Status>> statuses = members.stream().map(EtcdMember::status).toList();
        int answering = 0;
        long leaderId = 0;
        int agreeing = 0;
        for (Optional<EtcdMember.Status> status : statuses) {
            if (status.isEmpty()) {
                continue;
            }
            answering++;
            long id = status.get().leaderId();
            if (id != 0 && (leaderId == 0 || leaderId == id)) {
                leaderId = id;
                agreeing++;
            }
        }
        if (answering < quorum() || agreeing < quorum()) {
            return OptionalInt.empty();
        }
        for (int i = 0; i < statuses.size(); i++) {
            Optional<EtcdMember.Status> status = statuses.get(i);
            if (status.isPresent() && status.get().memberId() == leaderId) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    /** Waits until a quorum of members answers and follows one answering leader. */
    public void awaitHealthy(Duration timeout) {
        if (!Poll.until(timeout, () -> currentLeader().isPresent())) {
            throw new TopologyException("etcd cluster not healthy within " + timeout.toMillis() + " ms; "
                    + describe());
        }
    }

    /** SIGKILL: the member loses nothing it acknowledged (etcd fsyncs its WAL); {@link #restart(int)} starts it again. */
    public void kill(int member) {
        member(member).kill();
    }

    /** A clean stop (SIGTERM). */
    public void stop(int member) {
        member(member).stop(STOP_TIMEOUT);
    }

    /**
     * Starts a stopped or killed member again on its data ({@code --initial-cluster-state existing}); does not wait for
     * it to rejoin. (Named so because {@link #start(int)} starts a new cluster.)
     */
    public void restart(int member) {
        member(member).start(etcd, initialCluster(), token, true);
    }

    /**
     * Stops every member: the followers first, then the leader, each with SIGTERM and, after
     * {@link #STOP_ALL_GRACE}, SIGKILL. A leader told to stop hands its leadership to a follower it believes
     * connected, and waits up to 7 s for one that has just stopped (seen after a member was restarted).
     */
    public void stopAll() {
        OptionalInt leader = currentLeader();
        for (int i = 0; i < members.size(); i++) {
            if (leader.isEmpty() || leader.getAsInt() != i) {
                members.get(i).stop(STOP_ALL_GRACE);
            }
        }
        leader.ifPresent(i -> members.get(i).stop(STOP_ALL_GRACE));
    }

    /** Starts every stopped member again and waits until the cluster is healthy. */
    public void startAll() {
        startAll(true);
    }

    private void startAll(boolean existing) {
        for (EtcdMember member : members) {
            member.start(etcd, initialCluster(), token, existing);
        }
        boolean healthy = Poll.until(START_TIMEOUT, () -> members.stream().anyMatch(m -> m.exitValue().isPresent())
                || currentLeader().isPresent());
        for (EtcdMember member : members) {
            if (member.exitValue().isPresent()) {
                throw new TopologyException(member.name() + ": etcd exited with " + member.exitValue().get()
                        + " at start:\n" + member.logTail());
            }
        }
        if (!healthy) {
            throw new TopologyException("etcd cluster not healthy within " + START_TIMEOUT.toSeconds() + " s; "
                    + describe());
        }
    }

    private String initialCluster() {
        return members.stream().map(m -> m.name() + "=" + m.peerUrl()).collect(Collectors.joining(","));
    }

    private int quorum() {
        return members.size() / 2 + 1;
    }

    private EtcdMember member(int index) {
        if (index < 0 || index >= members.size()) {
            throw new IllegalArgumentException("no etcd member " + index + " (the cluster has " + members.size() + ")");
        }
        return members.get(index);
    }

    private String describe() {
        StringBuilder out = new StringBuilder("members in ").append(baseDir).append(':');
        for (EtcdMember member : members) {
            out.append("\n  ").append(member.name()).append(' ').append(member.clientUrl())
                    .append(member.isAlive() ? " running" : " not running")
                    .append(member.status().map(s -> ", leader " + Long.toHexString(s.leaderId())).orElse(", no answer"));
        }
        members.stream().filter(EtcdMember::isAlive).findFirst()
                .ifPresent(m -> out.append("\n").append(m.name()).append(" log:\n").append(m.logTail()));
        return out.toString();
    }

    /** Kills every member and deletes the cluster's files. Safe to call twice. */
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
        members.parallelStream().forEach(EtcdMember::kill);
        Topology.deleteTree(baseDir);
    }
}
