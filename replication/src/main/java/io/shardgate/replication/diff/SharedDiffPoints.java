package io.shardgate.replication.diff;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Hands one matched set of snapshots to the diffs of several tables, one after the other, for as long as it is
 * younger than {@code maxAge}: opening a set can cost a job a second (its streams stop, the targets catch up, the streams
 * restart), more than comparing a small table. A table's diff that gets a set already open sees its age
 * ({@link MatchedSnapshots#openedNanos}) and reopens it on the same schedule as if it had opened it, so no snapshot is
 * held longer than {@code maxAge} plus one chunk. A set handed out is closed by its user only as a release; it is really
 * closed when a newer one replaces it, when a connection of it no longer answers, or by {@link #close}. Not thread-safe:
 * the tables are compared one at a time.
 */
public final class SharedDiffPoints implements DiffPoints, AutoCloseable {
    private static final int VALID_SECONDS = 2;

    private final DiffPoints points;
    private final Duration maxAge;
    private final LongSupplier nanoClock;
    private final Usable usable;
    private MatchedSnapshots current;
    private long openedAt;
    private boolean lent;

    /** Whether an open set can still be read (every connection answers). */
    @FunctionalInterface
    interface Usable {
        boolean test(MatchedSnapshots set) throws SQLException;
    }

    public SharedDiffPoints(DiffPoints points, Duration maxAge, LongSupplier nanoClock) {
        this(points, maxAge, nanoClock, SharedDiffPoints::answers);
    }

    SharedDiffPoints(DiffPoints points, Duration maxAge, LongSupplier nanoClock, Usable usable) {
        this.points = requireNonNull(points, "points is null");
        this.maxAge = requireNonNull(maxAge, "maxAge is null");
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        this.usable = requireNonNull(usable, "usable is null");
    }

    @Override
    public MatchedSnapshots open() throws SQLException {
        if (lent) {
            throw new IllegalStateException("the shared matched snapshots are still in use: a diff must close them first");
        }
        if (current == null || nanoClock.getAsLong() - openedAt >= maxAge.toNanos() || !usable.test(current)) {
            close();
            current = points.open();
            openedAt = nanoClock.getAsLong();
        }
        lent = true;
        return new Lent(current, openedAt);
    }

    /** Closes the set now open, if any. */
    @Override
    public void close() throws SQLException {
        MatchedSnapshots open = current;
        current = null;
        lent = false;
        if (open != null) {
            open.close();
        }
    }

    private static boolean answers(MatchedSnapshots set) throws SQLException {
        if (!set.source().isValid(VALID_SECONDS)) {
            return false;
        }
        for (List<Connection> lanes : set.targetLanes()) {
            for (Connection lane : lanes) {
                if (!lane.isValid(VALID_SECONDS)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The shared set as one diff sees it: closing it gives it back. */
    private final class Lent implements MatchedSnapshots {
        private final MatchedSnapshots set;
        private final long openedAt;
        private boolean closed;

        Lent(MatchedSnapshots set, long openedAt) {
            this.set = set;
            this.openedAt = openedAt;
        }

        @Override
        public Connection source() {
            return set.source();
        }

        @Override
        public List<Connection> targets() {
            return set.targets();
        }

        @Override
        public List<List<Connection>> targetLanes() {
            return set.targetLanes();
        }

        @Override
        public MariaDbGtidPosition position() {
            return set.position();
        }

        @Override
        public OptionalLong openedNanos() {
            return OptionalLong.of(openedAt);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                if (current == set) {
                    lent = false;
                }
            }
        }
    }
}
