package io.shardgate.replication.stream;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.gtid.SnapshotPoint;
import io.shardgate.replication.stream.apply.AppliedPositions;
import io.shardgate.replication.stream.apply.ApplyTarget;
import io.shardgate.replication.stream.apply.JdbcApplyTarget;
import io.shardgate.replication.stream.apply.ParallelApplier;
import io.shardgate.replication.stream.history.HistoryStart;
import io.shardgate.replication.stream.history.TableShape;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * A change stream from a MariaDB source's binlog to a target, as a library.
 *
 * <pre>{@code
 * ChangeStream stream = ChangeStream.builder()
 *         .source(ServerEndpoint.parse("127.0.0.1:3307", "u", "p"))
 *         .target(ServerEndpoint.parse("127.0.0.1:3308", "u", "p"))
 *         .tables(TableFilter.schemas(Set.of("shop")))
 *         .workers(4)
 *         .registry(meterRegistry)
 *         .build();
 * ChangeStream.Result result = stream.run();   // blocks; stream.stop() from another thread ends it
 * }</pre>
 *
 * <p>Without {@link Builder#fromGtid}, reading starts at the target's stored watermark, or at the
 * start of the source's oldest binlog for a target that never applied anything. With
 * {@link Builder#untilGtid}, {@link #run()} returns once everything up to that position is applied.
 *
 * <p>Rows are read with the columns their table had when they were written, from a schema history
 * evolved from the binlog's DDL and stored on the target with the apply positions
 * ({@link io.shardgate.replication.stream.history.SchemaHistory}); where it starts is told in a notice
 * ({@link io.shardgate.replication.stream.history.HistoryStart}, {@link Builder#initialSchemas}).
 */
public final class ChangeStream {
    private final ServerEndpoint source;
    private final ApplyTarget target;
    private final MariaDbGtidPosition from;
    private final MariaDbGtidPosition snapshot;
    private final MariaDbGtidPosition until;
    private final TableFilter tables;
    private final RowFilter rows;
    private final ParallelApplier.Settings settings;
    private final MeterRegistry registry;
    private final long serverId;
    private final Duration reconnectPause;
    private final Duration silenceTimeout;
    private final Consumer<String> notices;
    private final Clock clock;
    private final List<TableShape> initialSchemas;
    private final AtomicReference<BinlogReader> reader = new AtomicReference<>();
    private final AtomicReference<ParallelApplier> applier = new AtomicReference<>();
    private final AtomicLong startedAt = new AtomicLong();
    private volatile boolean stopRequested;

    private ChangeStream(Builder builder) {
        this.source = requireNonNull(builder.source, "source is null");
        this.target = requireNonNull(builder.target, "target is null");
        this.from = builder.from;
        this.snapshot = builder.snapshot;
        this.until = builder.until;
        this.tables = builder.tables;
        this.rows = builder.rows;
        this.settings = builder.settings;
        this.registry = builder.registry;
        this.serverId = builder.serverId;
        this.reconnectPause = builder.reconnectPause;
        this.silenceTimeout = builder.silenceTimeout;
        this.notices = builder.notices;
        this.clock = builder.clock;
        this.initialSchemas = builder.initialSchemas;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** What a finished run did. */
    public record Result(long transactions, long rows, Duration elapsed, MariaDbGtidPosition applied) {
    }

    /** A point-in-time view for progress reports. */
    public record Progress(long transactions, long rows, MariaDbGtidPosition applied, double lagSeconds) {
    }

    /** Checks the source, then reads and applies until stopped or the end position; throws {@link StreamException}. */
    public Result run() throws InterruptedException {
        startedAt.set(clock.millis());
        ParallelApplier parallel = new ParallelApplier(target, settings, rows, registry, clock);
        applier.set(parallel);
        SourceSchemaCatalog present = new SourceSchemaCatalog(source);
        try {
            AppliedPositions positions = parallel.start(from, snapshot);
            MariaDbGtidPosition start = from != null ? from : positions.watermark();
            SourceCheck.Result checked = new SourceCheck(source, tables).check(start);
            checked.warnings().forEach(notices);
            notices.accept("reading " + source.address() + " from "
                    + (start.isEmpty() ? "the start of its oldest binlog" : "after " + start)
                    + (snapshot == null || snapshot.equals(start) ? "" : ", going on from a snapshot at " + snapshot)
                    + (until == null ? "" : " until " + until));
            BinlogReader binlog = new BinlogReader(source, tables, start, until, serverId,
                    new BinlogReader.Timing(reconnectPause, silenceTimeout), registry, parallel::submit);
            binlog.notices(notices);
            if (snapshot != null) {
                binlog.snapshot(snapshot);
            }
            binlog.schemas(HistoryStart.open(target, tables, start, initialSchemas, present, notices));
            reader.set(binlog);
            parallel.whenFailed(binlog::stop);
            if (parallel.failure() != null) {
                binlog.stop();
            }
            if (!stopRequested) {
                binlog.run();
            }
            if (until != null && !stopRequested) {
                parallel.awaitIdle();
            }
        } finally {
            parallel.close();
            present.close();
        }
        if (parallel.failure() != null) {
            throw parallel.failure() instanceof StreamException e ? e
                    : new StreamException("the applier stopped: " + parallel.failure(), parallel.failure());
        }
        Progress last = progress();
        return new Result(last.transactions(), last.rows(), Duration.ofMillis(clock.millis() - startedAt.get()),
                parallel.watermark());
    }

    /** Ends {@link #run()} at a transaction boundary: queued transactions are left for the next run. */
    public void stop() {
        stopRequested = true;
        BinlogReader binlog = reader.get();
        if (binlog != null) {
            binlog.stop();
        }
    }

    public Progress progress() {
        ParallelApplier parallel = applier.get();
        double transactions = counter("shardgate.stream.transactions.applied");
        double rowCount = counter("shardgate.stream.rows.applied");
        var lag = registry.find("shardgate.stream.apply.lag.seconds").gauge();
        return new Progress((long) transactions, (long) rowCount,
                parallel == null ? MariaDbGtidPosition.empty() : parallel.watermark(), lag == null ? 0 : lag.value());
    }

    private double counter(String name) {
        var counter = registry.find(name).counter();
        return counter == null ? 0 : counter.count();
    }

    public static final class Builder {
        private ServerEndpoint source;
        private ApplyTarget target;
        private MariaDbGtidPosition from;
        private MariaDbGtidPosition snapshot;
        private MariaDbGtidPosition until;
        private TableFilter tables = TableFilter.all();
        private RowFilter rows = RowFilter.KEEP_ALL;
        private ParallelApplier.Settings settings = ParallelApplier.Settings.defaults();
        private MeterRegistry registry = new SimpleMeterRegistry();
        private long serverId = 0x5347_0000L + ThreadLocalRandom.current().nextInt(1 << 16);
        private Duration reconnectPause = Duration.ofMillis(500);
        private Duration silenceTimeout = Duration.ofSeconds(10);
        private Consumer<String> notices = message -> { };
        private Clock clock = Clock.systemUTC();
        private List<TableShape> initialSchemas;

        private Builder() {
        }

        public Builder source(ServerEndpoint source) {
            this.source = requireNonNull(source, "source is null");
            return this;
        }

        public Builder target(ServerEndpoint target) {
            return target(new JdbcApplyTarget(requireNonNull(target, "target is null")));
        }

        public Builder target(ApplyTarget target) {
            this.target = requireNonNull(target, "target is null");
            return this;
        }

        /** Read the transactions after this position instead of the target's stored one. */
        public Builder fromGtid(MariaDbGtidPosition from) {
            this.from = requireNonNull(from, "from is null");
            return this;
        }

        /**
         * Go on from a consistent snapshot the target was loaded from: read from its lookback, and treat every
         * transaction up to its position as applied (stored on the target as its floor), keeping only the rows of the
         * XA transactions prepared before it and ended after.
         */
        public Builder fromSnapshot(SnapshotPoint point) {
            requireNonNull(point, "point is null");
            this.from = point.lookback();
            this.snapshot = point.position();
            return this;
        }

        public Builder untilGtid(MariaDbGtidPosition until) {
            this.until = requireNonNull(until, "until is null");
            return this;
        }

        public Builder tables(TableFilter tables) {
            this.tables = requireNonNull(tables, "tables is null");
            return this;
        }

        public Builder rowFilter(RowFilter rows) {
            this.rows = requireNonNull(rows, "rows is null");
            return this;
        }

        public Builder workers(int workers) {
            this.settings = settings.withWorkers(workers);
            return this;
        }

        public Builder settings(ParallelApplier.Settings settings) {
            this.settings = requireNonNull(settings, "settings is null");
            return this;
        }

        public Builder registry(MeterRegistry registry) {
            this.registry = requireNonNull(registry, "registry is null");
            return this;
        }

        /** The server id the binlog connection presents; must be unique among the source's replicas. */
        public Builder serverId(long serverId) {
            this.serverId = serverId;
            return this;
        }

        public Builder reconnectPause(Duration pause) {
            this.reconnectPause = requireNonNull(pause, "pause is null");
            return this;
        }

        /**
         * A binlog connection that delivers neither an event nor a heartbeat for this long is
         * dropped and opened again (a source that hangs, a network that silently drops packets).
         */
        public Builder silenceTimeout(Duration timeout) {
            this.silenceTimeout = requireNonNull(timeout, "timeout is null");
            return this;
        }

        /** Receives one-line notices (warnings from the source check, where reading starts). */
        public Builder notices(Consumer<String> notices) {
            this.notices = requireNonNull(notices, "notices is null");
            return this;
        }

        /**
         * The tables' shapes at the start position, for a target that stores no schema history yet
         * (a reshard's copy reads them inside its consistent snapshot with
         * {@code InformationSchemaShapes.read}). Without them, and without a stored history, the
         * stream starts from the target's {@code information_schema}.
         */
        public Builder initialSchemas(Collection<TableShape> shapes) {
            this.initialSchemas = List.copyOf(requireNonNull(shapes, "shapes is null"));
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = requireNonNull(clock, "clock is null");
            return this;
        }

        public ChangeStream build() {
            return new ChangeStream(this);
        }
    }
}
