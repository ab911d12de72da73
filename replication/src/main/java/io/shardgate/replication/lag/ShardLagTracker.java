package io.shardgate.replication.lag;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * One shard's lag bookkeeping, without threads or connections: the primary timeline and each
 * replica's latest {@link ReplicaObservation}. The pollers report into it; the proxy reads from it.
 *
 * <p>Every change (a poll result, a commit the proxy observed) happens under this object's lock
 * and ends by recomputing the affected replicas' {@link Freshness}, so an observation never pairs
 * a position with an older timeline than the one it was compared against. Reads take no lock:
 * each replica's observation is an immutable value behind an {@link AtomicReference}, and the lag
 * is derived from it and the current time.
 */
final class ShardLagTracker {
    private final String shard;
    private final long staleAfterNanos;
    private final PrimaryPositionTimeline timeline;
    /** Replaced whole (copy on write, under this tracker's lock) when a replica is added or removed. */
    private volatile Map<MonitoredServer, AtomicReference<ReplicaObservation>> replicas;
    private volatile MariaDbGtidPosition primaryPosition = MariaDbGtidPosition.empty();

    ShardLagTracker(String shard, List<MonitoredServer> replicas, LagMonitorSettings settings) {
        this.shard = requireNonNull(shard, "shard is null");
        requireNonNull(replicas, "replicas is null");
        this.staleAfterNanos = requireNonNull(settings, "settings is null").staleAfter().toNanos();
        this.timeline = new PrimaryPositionTimeline(settings.maxTimelineEntries());
        Map<MonitoredServer, AtomicReference<ReplicaObservation>> byServer = new LinkedHashMap<>();
        for (MonitoredServer replica : replicas) {
            if (byServer.put(replica, new AtomicReference<>(ReplicaObservation.initial())) != null) {
                throw new IllegalArgumentException("replica " + replica + " listed twice in shard " + shard);
            }
        }
        this.replicas = Collections.unmodifiableMap(byServer);
    }

    /** A replica to measure from now on; its lag is unknown until its first poll. */
    synchronized void add(MonitoredServer replica) {
        Map<MonitoredServer, AtomicReference<ReplicaObservation>> next = new LinkedHashMap<>(replicas);
        if (next.putIfAbsent(requireNonNull(replica, "replica is null"), new AtomicReference<>(ReplicaObservation.initial())) != null) {
            throw new IllegalArgumentException("replica " + replica + " is already monitored in shard " + shard);
        }
        replicas = Collections.unmodifiableMap(next);
    }

    /** A replica no longer measured. */
    synchronized void remove(MonitoredServer replica) {
        Map<MonitoredServer, AtomicReference<ReplicaObservation>> next = new LinkedHashMap<>(replicas);
        next.remove(replica);
        replicas = Collections.unmodifiableMap(next);
    }

    boolean monitors(MonitoredServer replica) {
        return replicas.containsKey(replica);
    }

    /** The primary's binlog position was {@code position}, read by a query sent at {@code sentNanos}. */
    synchronized void primaryPolled(long sentNanos, MariaDbGtidPosition position) {
        timeline.recordPoll(sentNanos, position);
        List<MariaDbGtidPosition> applied = new ArrayList<>();
        for (AtomicReference<ReplicaObservation> replica : replicas.values()) {
            if (replica.get().hasPosition()) {
                applied.add(replica.get().applied());
            }
        }
        timeline.retainFor(applied);
        timelineChanged();
    }

    /** See {@link PrimaryPositionTimeline#recordCommit(long, MariaDbGtidPosition)}. */
    synchronized void primaryCommitted(long issuedNanos, MariaDbGtidPosition position) {
        timeline.recordCommit(issuedNanos, position);
        timelineChanged();
    }

    /** See {@link PrimaryPositionTimeline#recordCommit(MariaDbGtidPosition)}. */
    synchronized void primaryCommitted(MariaDbGtidPosition position) {
        timeline.recordCommit(position);
        timelineChanged();
    }

    synchronized void replicaPolled(MonitoredServer replica, long sentNanos, MariaDbGtidPosition applied,
                                    ReplicationStatus status) {
        AtomicReference<ReplicaObservation> slot = slot(replica);
        ReplicaObservation next = slot.get().polled(sentNanos, applied, status);
        slot.set(next.withFreshness(timeline.freshnessOf(applied)));
    }

    synchronized void replicaFailed(MonitoredServer replica, ReplicaState failure, String error) {
        AtomicReference<ReplicaObservation> slot = slot(replica);
        slot.set(slot.get().failed(failure, error));
    }

    /** Everything the primary is known to have committed. */
    MariaDbGtidPosition primaryPosition() {
        return primaryPosition;
    }

    ReplicaLag status(MonitoredServer replica, long now) {
        return slot(replica).get().toLag(shard, replica, now, staleAfterNanos);
    }

    /** Every replica, in the order they were configured. */
    List<ReplicaLag> snapshot(long now) {
        List<ReplicaLag> all = new ArrayList<>(replicas.size());
        replicas.forEach((replica, slot) -> all.add(slot.get().toLag(shard, replica, now, staleAfterNanos)));
        return List.copyOf(all);
    }

    /** Entries the primary timeline holds, over all domains. */
    synchronized int timelineSize() {
        return timeline.size();
    }

    private void timelineChanged() {
        primaryPosition = timeline.frontier();
        for (AtomicReference<ReplicaObservation> slot : replicas.values()) {
            ReplicaObservation current = slot.get();
            Freshness freshness = current.hasPosition() ? timeline.freshnessOf(current.applied()) : Freshness.unknown();
            slot.set(current.withFreshness(freshness));
        }
    }

    private AtomicReference<ReplicaObservation> slot(MonitoredServer replica) {
        AtomicReference<ReplicaObservation> slot = replicas.get(requireNonNull(replica, "replica is null"));
        if (slot == null) {
            throw new IllegalArgumentException("no replica " + replica + " in shard " + shard + " (have "
                    + replicas.keySet() + ")");
        }
        return slot;
    }
}
