package io.shardgate.replication.lag;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.Collection;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * A shard primary's GTID history on the proxy's clock: per domain, which sequence numbers the
 * primary had reached by which proxy time (a {@link DomainTimeline} each). Fed by the monitor's
 * polls of {@code @@gtid_binlog_pos} and by GTIDs the proxy sees its own writes commit.
 *
 * <p>Two kinds of entry, both stating "every write the primary acknowledged before time T is in
 * position P":
 * <ul>
 *   <li>A <b>poll</b> sent at T that read P. A write acknowledged before the query was sent was
 *       in the binary log when the server evaluated it. (The reply time would be wrong: writes
 *       acknowledged while the reply travelled are not in P.) A poll that reads an unchanged
 *       position moves that position's time forward, so a replica that holds it stays fresh
 *       through an idle period and does not look stale the moment the next write arrives.</li>
 *   <li>A <b>commit</b> the proxy observed: the GTID a statement it sent at T committed. Any write
 *       acknowledged before T was logged before that statement's, with a lower sequence number in
 *       that domain ({@code gtid_strict_mode}).</li>
 * </ul>
 *
 * <p>For a new domain the timeline adds a bound {@code (0, previous poll time)}: that poll did not
 * see the domain, so every write of it came later. Without this a replica lacking only the new
 * domain would count as infinitely stale instead of stale since that poll.
 *
 * <p>Worked example, one domain, times in ms of the proxy clock:
 * <pre>
 *   poll sent at   0 reads 0-1-10
 *   poll sent at  50 reads 0-1-12
 *   poll sent at 100 reads 0-1-15
 *   replica applied 0-1-15, asked at 120: caught up, lag 0
 *   replica applied 0-1-13, asked at 120: holds 0-1-12 (the 50 ms poll), lag 120 - 50 = 70
 *   same replica, still at 0-1-13, asked at 620: lag 570, growing with the clock
 *   replica applied 0-1-9: lacks writes older than anything seen, lag unknown (infinite)
 * </pre>
 * With several domains the replica is as stale as its worst domain.
 *
 * <p>Not thread-safe: {@link ShardLagTracker} guards it.
 */
final class PrimaryPositionTimeline {
    private final int maxEntriesPerDomain;
    private final Map<Long, DomainTimeline> domains = new TreeMap<>();
    private MariaDbGtidPosition frontier = MariaDbGtidPosition.empty();
    private boolean polled;
    private long lastPollNanos;

    PrimaryPositionTimeline(int maxEntriesPerDomain) {
        this.maxEntriesPerDomain = maxEntriesPerDomain;
    }

    /** The primary's {@code @@gtid_binlog_pos} was {@code position}, read by a query sent at {@code sentNanos}. */
    void recordPoll(long sentNanos, MariaDbGtidPosition position) {
        requireNonNull(position, "position is null");
        for (MariaDbGtid gtid : position.byDomain().values()) {
            domain(gtid.domain()).record(gtid.sequence(), sentNanos);
            frontier = frontier.with(gtid);
        }
        polled = true;
        lastPollNanos = sentNanos;
    }

    /** The primary committed {@code position} for a statement the proxy sent at {@code issuedNanos}. */
    void recordCommit(long issuedNanos, MariaDbGtidPosition position) {
        requireNonNull(position, "position is null");
        for (MariaDbGtid gtid : position.byDomain().values()) {
            domain(gtid.domain()).record(gtid.sequence(), issuedNanos);
            frontier = frontier.with(gtid);
        }
    }

    /**
     * The primary committed {@code position}, at an unknown time: a replica must apply it to be
     * caught up, but its lag is still measured from the entries with times.
     */
    void recordCommit(MariaDbGtidPosition position) {
        requireNonNull(position, "position is null");
        for (MariaDbGtid gtid : position.byDomain().values()) {
            domain(gtid.domain()).raise(gtid.sequence());
            frontier = frontier.with(gtid);
        }
    }

    /** Everything the primary is known to have committed. */
    MariaDbGtidPosition frontier() {
        return frontier;
    }

    /**
     * Where a replica that has applied {@code applied} stands: caught up when it has reached the
     * {@link #frontier()}; otherwise behind since the latest time before which it holds every
     * write of every domain; unknown before the first poll, or when it lacks writes older than
     * the timeline's oldest entry of some domain.
     */
    Freshness freshnessOf(MariaDbGtidPosition applied) {
        requireNonNull(applied, "applied is null");
        if (!polled) {
            return Freshness.unknown();
        }
        boolean caughtUp = true;
        long anchor = 0;
        boolean anchored = false;
        for (Map.Entry<Long, DomainTimeline> domain : domains.entrySet()) {
            long have = sequence(applied, domain.getKey());
            DomainTimeline timeline = domain.getValue();
            OptionalLong since = timeline.anchor(have);
            long bound;
            if (have >= timeline.highest()) {
                // It holds everything of this domain the last poll saw (or the poll saw none of it).
                bound = since.isPresent() && since.getAsLong() - lastPollNanos > 0 ? since.getAsLong() : lastPollNanos;
            } else if (since.isPresent()) {
                caughtUp = false;
                bound = since.getAsLong();
            } else {
                return Freshness.unknown();
            }
            if (!anchored || bound - anchor < 0) {
                anchor = bound;
                anchored = true;
            }
        }
        return caughtUp ? Freshness.caughtUp(lastPollNanos) : Freshness.behindSince(anchor);
    }

    /**
     * Drops, per domain, the entries older than the one the furthest-behind of {@code applied}
     * anchors on. Replicas only move forward, so none of them needs those entries again; a
     * replica that has no anchor at all is infinitely stale already and pins nothing. Each
     * domain also stays under its cap (see {@link DomainTimeline}).
     */
    void retainFor(Collection<MariaDbGtidPosition> applied) {
        requireNonNull(applied, "applied is null");
        for (Map.Entry<Long, DomainTimeline> domain : domains.entrySet()) {
            OptionalLong oldestNeeded = OptionalLong.empty();
            for (MariaDbGtidPosition position : applied) {
                OptionalLong anchor = domain.getValue().anchorSequence(sequence(position, domain.getKey()));
                if (anchor.isPresent() && (oldestNeeded.isEmpty() || anchor.getAsLong() < oldestNeeded.getAsLong())) {
                    oldestNeeded = anchor;
                }
            }
            oldestNeeded.ifPresent(domain.getValue()::dropBelow);
        }
    }

    /** Entries held over all domains. */
    int size() {
        return domains.values().stream().mapToInt(DomainTimeline::size).sum();
    }

    private DomainTimeline domain(long id) {
        return domains.computeIfAbsent(id, ignored -> {
            DomainTimeline timeline = new DomainTimeline(maxEntriesPerDomain);
            if (polled) {
                timeline.record(0, lastPollNanos);
            }
            return timeline;
        });
    }

    private static long sequence(MariaDbGtidPosition position, long domain) {
        MariaDbGtid gtid = position.byDomain().get(domain);
        return gtid == null ? 0 : gtid.sequence();
    }
}
