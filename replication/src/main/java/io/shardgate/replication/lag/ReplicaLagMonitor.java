package io.shardgate.replication.lag;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.storage.health.BackendLoop;
import io.shardgate.storage.health.ControlConnection;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Measures how stale each replica of one shard is, on the proxy's own clock.
 *
 * <h2>How</h2>
 * A probe polls the primary's {@code @@gtid_binlog_pos} every poll interval and records, per
 * GTID domain, "every write acknowledged before proxy time T has a sequence number of at most S",
 * with T the time the query was <em>sent</em> (a timeline, see {@link PrimaryPositionTimeline}).
 * The proxy may add entries from its own writes ({@link #observePrimary(MariaDbGtidPosition, long)}).
 * A probe per replica polls {@code @@gtid_slave_pos} (the position it has applied) and
 * {@code SHOW ALL SLAVES STATUS}, with short connect and socket timeouts so that a dead or frozen
 * replica fails its poll within a timeout, and reconnects by itself.
 *
 * <p>The lag is computed when asked, at proxy time {@code now}: 0 when the replica's applied
 * position R has reached everything the primary is known to have committed; otherwise
 * {@code now - T}, with T the latest timeline time whose position R holds in every domain: the
 * replica holds every write acknowledged before T, so nothing it lacks is older than
 * {@code now - T}. This is an upper bound on its staleness, exact to about one poll interval, and
 * it keeps growing in real time while the replica is stuck, whatever the replica reports about
 * itself: a blocked SQL thread that shows as running, or a replica that stopped polling, are
 * caught by the same arithmetic.
 *
 * <h2>Why clock skew cannot fake freshness</h2>
 * Both T and {@code now} are readings of one clock, the proxy's ({@link Builder#clock}). No
 * timestamp written by a server is ever compared with another server's, or with the proxy's:
 * the servers contribute only GTID positions, whose order does not depend on any clock. This is
 * unlike {@code Seconds_Behind_Master} (relay-log event timestamps against the replica's clock,
 * and 0 when the SQL thread is blocked between events) or heartbeat tables (the primary's clock
 * against the replica's or the proxy's).
 *
 * <h2>Unknown is infinite</h2>
 * A replica that was never polled, whose last poll failed, or whose last successful poll started
 * more than {@link LagMonitorSettings#staleAfter()} ago, has no lag ({@link ReplicaLag#isInfinitelyStale()}).
 * So does a replica that lacks writes older than the timeline's oldest entry. When the primary
 * has not been polled successfully for that long, caught-up replicas report the time since its
 * last poll instead of 0. Stopped threads and replication errors keep the GTID lag: a stopped
 * replica with everything applied while the primary is idle is as fresh as any, and the state
 * says what is wrong.
 *
 * <h2>Threads</h2>
 * Each server's probe is a check of that server's {@link BackendLoop}: the proxy passes the loops it
 * shares with the engine health monitors ({@link #start(Function)}: one thread and one control
 * connection per server for both), and {@link #start()} gives each server a loop of its own.
 * {@link #status}, {@link #snapshot} and {@link #primaryPosition} may be called from any thread
 * and take no lock. {@code observePrimary} takes the shard's bookkeeping lock briefly.
 *
 * <pre>{@code
 * try (ReplicaLagMonitor monitor = ReplicaLagMonitor.builder()
 *         .shard("s0")
 *         .primary(new MonitoredServer("10.0.0.1", 3306))
 *         .replica(new MonitoredServer("10.0.0.2", 3306))
 *         .credentials("shardgate", password)
 *         .build()) {
 *     monitor.start();
 *     ReplicaLag lag = monitor.status(new MonitoredServer("10.0.0.2", 3306));
 *     if (lag.fitsLagBudget(250)) { ... }
 * }
 * }</pre>
 */
public final class ReplicaLagMonitor implements AutoCloseable {
    private final String shard;
    private final MonitoredServer primary;
    private volatile List<MonitoredServer> replicas;
    /** The probe of each replica, and the loop of its own a replica added after the start polls on. */
    private final java.util.Map<MonitoredServer, ReplicaProbe> replicaProbes = new java.util.HashMap<>();
    private final java.util.Map<MonitoredServer, BackendLoop> addedLoops = new java.util.HashMap<>();
    private final String user;
    private final String password;
    private final LagMonitorSettings settings;
    private final LongSupplier clock;
    private final LongSupplier wallClock;
    private final ShardLagTracker tracker;
    private final List<Probe> probes = new ArrayList<>();
    /** The loops {@link #start()} made, one per server; empty on shared loops. */
    private final List<BackendLoop> ownLoops = new ArrayList<>();
    private boolean started;
    private boolean closed;

    private ReplicaLagMonitor(Builder builder) {
        this.shard = requireNonNull(builder.shard, "shard is null");
        this.primary = requireNonNull(builder.primary, "primary is null");
        this.replicas = List.copyOf(builder.replicas);
        this.user = requireNonNull(builder.user, "user is null (call credentials)");
        this.password = requireNonNull(builder.password, "password is null (call credentials)");
        this.settings = builder.settings;
        this.clock = builder.clock;
        this.wallClock = builder.wallClock;
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("shard " + shard + " has no replica to monitor");
        }
        if (replicas.contains(primary)) {
            throw new IllegalArgumentException("primary " + primary + " of shard " + shard + " is also listed as a replica");
        }
        this.tracker = new ShardLagTracker(shard, replicas, settings);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts polling on loops of its own: one thread and one connection for the primary and one per replica. Once only. */
    public synchronized void start() {
        start(server -> {
            BackendLoop loop = new BackendLoop(threadName(server), ControlConnection.to(server.host(), server.port(), user, password));
            ownLoops.add(loop);
            return loop;
        });
        ownLoops.forEach(BackendLoop::start);
    }

    /**
     * Adds the primary's probe and each replica's to {@code loopOf} that server's loop, which its
     * owner starts and closes (it logs in with the same account). Once only, like {@link #start()}.
     */
    public synchronized void start(Function<MonitoredServer, BackendLoop> loopOf) {
        if (started) {
            throw new IllegalStateException("lag monitor of shard " + shard + " already started or closed");
        }
        started = true;
        PrimaryProbe primaryProbe = new PrimaryProbe(settings, clock, tracker);
        probes.add(primaryProbe);
        loopOf.apply(primary).add(primaryProbe);
        for (MonitoredServer replica : replicas) {
            ReplicaProbe probe = new ReplicaProbe(replica, settings, clock, wallClock, tracker);
            probes.add(probe);
            replicaProbes.put(replica, probe);
            loopOf.apply(replica).add(probe);
        }
    }

    /**
     * Starts measuring {@code replica} too, on a loop (thread and control connection) of its own; the primary's
     * polls and the other replicas' measurements go on undisturbed. Its lag is unknown until its first poll, which
     * starts at once. Only on a started monitor.
     */
    public synchronized void addReplica(MonitoredServer replica) {
        requireNonNull(replica, "replica is null");
        if (!started || closed) {
            throw new IllegalStateException("lag monitor of shard " + shard + " is not running");
        }
        if (replica.equals(primary)) {
            throw new IllegalArgumentException("primary " + primary + " of shard " + shard + " cannot be its replica");
        }
        tracker.add(replica);
        ReplicaProbe probe = new ReplicaProbe(replica, settings, clock, wallClock, tracker);
        BackendLoop loop = new BackendLoop(threadName(replica), ControlConnection.to(replica.host(), replica.port(), user, password));
        loop.add(probe);
        probes.add(probe);
        replicaProbes.put(replica, probe);
        addedLoops.put(replica, loop);
        List<MonitoredServer> next = new ArrayList<>(replicas);
        next.add(replica);
        replicas = List.copyOf(next);
        loop.start();
    }

    /**
     * Stops measuring {@code replica} now: its polls stop and its lag is no longer reported (it may be added again
     * at once). Returns what is left to close, the loop {@link #addReplica} made for it, for the caller to close when
     * it may wait for a poll in flight.
     */
    public AutoCloseable removeReplica(MonitoredServer replica) {
        BackendLoop loop;
        synchronized (this) {
            Probe probe = replicaProbes.remove(replica);
            if (probe == null) {
                return () -> { };
            }
            probe.stop();
            probes.remove(probe);
            loop = addedLoops.remove(replica);
            List<MonitoredServer> next = new ArrayList<>(replicas);
            next.remove(replica);
            replicas = List.copyOf(next);
            tracker.remove(replica);
        }
        return loop == null ? () -> { } : loop;
    }

    /**
     * Stops polling. On loops of its own, stops their threads and closes their connections,
     * waiting for polls in flight, which their timeouts bound; a closed monitor cannot start again.
     */
    @Override
    public synchronized void close() {
        started = true;
        closed = true;
        probes.forEach(Probe::stop);
        ownLoops.forEach(BackendLoop::close);
        addedLoops.values().forEach(BackendLoop::close);
        addedLoops.clear();
    }

    /** The replica's lag now. Throws {@link IllegalArgumentException} for a server this monitor does not poll. */
    public ReplicaLag status(MonitoredServer replica) {
        return tracker.status(replica, clock.getAsLong());
    }

    /** Every replica's lag now, in the order they were added. */
    public List<ReplicaLag> snapshot() {
        return tracker.snapshot(clock.getAsLong());
    }

    /**
     * The primary committed {@code position} (such as a write's {@code last_gtid} from session
     * tracking) for a statement the proxy sent at {@code issuedAtNanos} on this monitor's clock.
     * Replicas that lack it stop counting as caught up at once, and its time sharpens the lag of
     * those that have it. Pass the time the statement was <em>sent</em>, not the time its reply
     * arrived: only writes acknowledged before the statement was sent are sure to precede it.
     */
    public void observePrimary(MariaDbGtidPosition position, long issuedAtNanos) {
        tracker.primaryCommitted(issuedAtNanos, requireNonNull(position, "position is null"));
    }

    /**
     * The primary committed {@code position}, at a time the caller does not know: replicas that
     * lack it stop counting as caught up, but their lag is still measured from the primary polls.
     */
    public void observePrimary(MariaDbGtidPosition position) {
        tracker.primaryCommitted(requireNonNull(position, "position is null"));
    }

    /**
     * The replica's lag over the last minutes, oldest first: one sample a second from its polls ({@link LagHistory});
     * empty for a server this monitor does not poll (any more).
     */
    public synchronized List<LagHistory.Sample> history(MonitoredServer replica) {
        ReplicaProbe probe = replicaProbes.get(replica);
        return probe == null ? List.of() : probe.history().samples();
    }

    /** Everything the primary is known to have committed, from polls and observed commits. */
    public MariaDbGtidPosition primaryPosition() {
        return tracker.primaryPosition();
    }

    public String shard() {
        return shard;
    }

    public MonitoredServer primary() {
        return primary;
    }

    public List<MonitoredServer> replicas() {
        return replicas;
    }

    public LagMonitorSettings settings() {
        return settings;
    }

    private String threadName(MonitoredServer server) {
        return "shardgate-lag-" + shard + "-" + server.address();
    }

    public static final class Builder {
        private String shard;
        private MonitoredServer primary;
        private final List<MonitoredServer> replicas = new ArrayList<>();
        private String user;
        private String password;
        private LagMonitorSettings settings = LagMonitorSettings.defaults();
        private LongSupplier clock = System::nanoTime;
        private LongSupplier wallClock = System::currentTimeMillis;

        private Builder() {
        }

        public Builder shard(String shard) {
            this.shard = requireNonNull(shard, "shard is null");
            return this;
        }

        public Builder primary(MonitoredServer primary) {
            this.primary = requireNonNull(primary, "primary is null");
            return this;
        }

        public Builder replica(MonitoredServer replica) {
            replicas.add(requireNonNull(replica, "replica is null"));
            return this;
        }

        /** The account for every server; it needs {@code SLAVE MONITOR} (or {@code REPLICATION CLIENT} before 10.5). */
        public Builder credentials(String user, String password) {
            this.user = requireNonNull(user, "user is null");
            this.password = requireNonNull(password, "password is null");
            return this;
        }

        /** Default: {@link LagMonitorSettings#defaults()}. */
        public Builder settings(LagMonitorSettings settings) {
            this.settings = requireNonNull(settings, "settings is null");
            return this;
        }

        /**
         * The proxy's monotonic clock in nanoseconds (default {@link System#nanoTime}). Every time
         * the monitor records or compares comes from it; share it with whoever passes times to
         * {@link ReplicaLagMonitor#observePrimary(MariaDbGtidPosition, long)}.
         */
        public Builder clock(LongSupplier clock) {
            this.clock = requireNonNull(clock, "clock is null");
            return this;
        }

        /** The wall clock in epoch milliseconds that stamps the lag history's samples (default {@link System#currentTimeMillis}). */
        public Builder wallClock(LongSupplier wallClock) {
            this.wallClock = requireNonNull(wallClock, "wallClock is null");
            return this;
        }

        public ReplicaLagMonitor build() {
            return new ReplicaLagMonitor(this);
        }
    }
}
