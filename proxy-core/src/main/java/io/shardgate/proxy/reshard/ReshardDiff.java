package io.shardgate.proxy.reshard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.jobs.Job;
import io.shardgate.proxy.jobs.JobContext;
import io.shardgate.proxy.jobs.LostLeaseException;
import io.shardgate.replication.copy.CopyTable;
import io.shardgate.replication.copy.CopyTarget;
import io.shardgate.replication.diff.DiffCheckpoint;
import io.shardgate.replication.diff.DiffOptions;
import io.shardgate.replication.diff.DiffSink;
import io.shardgate.replication.diff.DiffTarget;
import io.shardgate.replication.diff.Mismatch;
import io.shardgate.replication.diff.SharedDiffPoints;
import io.shardgate.replication.diff.TableDiff;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.checksum.TableChecksum;
import io.shardgate.storage.checksum.TableName;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The reshard's diff: each table compared between the source and the union of the targets, at matched positions
 * ({@link PausedStreams}), chunk by chunk; after each chunk the job stores the table's checkpoint, so a diff resumes on
 * whichever proxy takes the job next. Rows that differ are counted in the job's diff progress and the first ones named
 * in its error. A job's {@code max_rows_per_second} caps its chunks at half a second's rows and paces them ({@link RowRate}).
 */
final class ReshardDiff {
    private static final System.Logger LOG = System.getLogger(ReshardDiff.class.getName());
    private static final int NAMED = 10;

    private final JobContext context;
    private final ReshardPlan plan;
    private final PausedStreams points;
    private final StorageAdapters adapters;
    private final RowRate rate;
    /** Rows compared by this runner, over every table: what {@link #rate} counts. */
    private final java.util.concurrent.atomic.AtomicLong compared = new java.util.concurrent.atomic.AtomicLong();

    ReshardDiff(JobContext context, ReshardPlan plan, PausedStreams points, StorageAdapters adapters) {
        this.context = context;
        this.plan = plan;
        this.points = points;
        this.adapters = adapters;
        this.rate = new RowRate(CopyThrottle.maxRowsPerSecond(context.job()), System::nanoTime);
        rate.count(compared::get);
    }

    /** The default options, with chunks of at most half a second's rows under a {@code max_rows_per_second}. */
    static final java.time.Duration SNAPSHOT_HOLD = java.time.Duration.ofSeconds(10);

    static DiffOptions options(long maxRowsPerSecond) {
        // A job's matched snapshots stop and restart its streams (about a second): held 10 s, they cost a tenth of the
        // diff instead of half of it, and 10 s of old row versions is still nothing to the source.
        DiffOptions defaults = DiffOptions.defaults().withSnapshotHold(SNAPSHOT_HOLD);
        if (maxRowsPerSecond == 0) {
            return defaults;
        }
        long cap = Math.max(1, Math.min(defaults.maxChunkRows(), maxRowsPerSecond / 2));
        return defaults.withChunkRows(Math.min(defaults.firstChunkRows(), cap), Math.min(defaults.minChunkRows(), cap), cap);
    }

    /** Compares every table not finished before; the job's diff progress covers them all. */
    void run() throws Exception {
        List<DiffTarget> targets = new ArrayList<>();
        for (CopyTarget target : plan.targets()) {
            targets.add(DiffTarget.of(target.name(), adapters.forEngine(target.engine()).checksum()));
        }
        TableChecksum sourceChecksum = adapters.forEngine(plan.sourceEngine()).checksum();
        List<String> named = java.util.Collections.synchronizedList(new ArrayList<>()); // mismatches come from worker threads
        DiffOptions options = options(CopyThrottle.maxRowsPerSecond(context.job()));
        rate.reason(); // the rate's baseline: now, nothing compared
        // The tables share matched sets: opening one stops and restarts the streams, more than a small table's compare.
        try (SharedDiffPoints shared = new SharedDiffPoints(points, options.snapshotHold(), System::nanoTime)) {
            compareAll(shared, sourceChecksum, targets, options, named);
        }
    }

    private void compareAll(SharedDiffPoints shared, TableChecksum sourceChecksum, List<DiffTarget> targets,
            DiffOptions options, List<String> named) throws Exception {
        for (CopyTable table : plan.tables()) {
            if (ReshardExecutor.stopped(context)) {
                return;
            }
            TableName name = new TableName(table.schema(), table.table());
            String key = "diff/" + table.qualifiedName();
            DiffCheckpoint from = context.job().checkpoint(key).map(json -> read(name, json)).orElse(DiffCheckpoint.start(name));
            if (from.finished()) {
                continue;
            }
            TableDiff diff = TableDiff.of(name, shared, sourceChecksum, targets, options);
            try {
                compare(diff, from, table, key, named);
            } catch (RuntimeException e) {
                for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                    if (cause instanceof Stopped) {
                        return; // the caller sees the cancel, or that the job is another runner's now
                    }
                }
                throw e;
            }
        }
    }

    /** Thrown out of the diff's sink to end it after the chunk it stored: the job was cancelled or lost. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
        }
    }

    private void compare(TableDiff diff, DiffCheckpoint from, CopyTable table, String key, List<String> named) throws Exception {
        diff.run(from, new DiffSink() {
            @Override
            public void mismatch(Mismatch mismatch) {
                LOG.log(System.Logger.Level.WARNING, "job " + context.job().id() + ": " + table.qualifiedName() + " " + mismatch);
                if (named.size() < NAMED) {
                    named.add(table.qualifiedName() + " " + mismatch);
                }
            }

            private long rowsBefore = from.rowsCompared();

            @Override
            public void checkpoint(DiffCheckpoint checkpoint) {
                save(key, checkpoint, named);
                compared.addAndGet(checkpoint.rowsCompared() - rowsBefore);
                rowsBefore = checkpoint.rowsCompared();
                try {
                    rate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Stopped();
                }
                if (context.cancelled() || context.lostLease()) {
                    throw new Stopped();
                }
            }
        });
    }

    /** Stores the table's checkpoint; the job's diff progress is the other tables' plus this one's. */
    private void save(String key, DiffCheckpoint checkpoint, List<String> named) {
        try {
            context.update(job -> {
                Job.DiffProgress known = job.diff();
                JsonNode last = job.checkpoint(key).orElse(JsonNodeFactory.instance.objectNode());
                Job next = job.withCheckpoint(key, write(checkpoint)).withDiff(new Job.DiffProgress(
                        known.chunksDone() - last.path("chunks_done").asLong() + checkpoint.chunksDone(),
                        known.chunksTotal() - last.path("chunks_total").asLong() + checkpoint.chunksTotalEstimate(),
                        known.rowsCompared() - last.path("rows_compared").asLong() + checkpoint.rowsCompared(),
                        known.mismatches() - last.path("mismatches").asLong() + checkpoint.mismatches()));
                return named.isEmpty() ? next : next.withError("the diff found rows that differ: " + String.join("; ", named));
            });
        } catch (LostLeaseException e) {
            throw new IllegalStateException("job " + context.job().id() + " is no longer this proxy's to run", e);
        }
    }

    static ObjectNode write(DiffCheckpoint checkpoint) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        ArrayNode below = node.putArray("compared_below");
        for (Object value : checkpoint.comparedBelow()) {
            ObjectNode typed = below.addObject();
            if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
                typed.put("long", ((Number) value).longValue());
            } else if (value instanceof BigInteger big) {
                typed.put("bigint", big.toString());
            } else if (value instanceof BigDecimal decimal) {
                typed.put("decimal", decimal.toPlainString());
            } else if (value instanceof byte[] bytes) {
                typed.put("bytes", Base64.getEncoder().encodeToString(bytes));
            } else if (value == null) {
                typed.putNull("null");
            } else {
                typed.put("text", value.toString());
            }
        }
        return node.put("finished", checkpoint.finished()).put("chunks_done", checkpoint.chunksDone())
                .put("chunks_total", checkpoint.chunksTotalEstimate()).put("rows_compared", checkpoint.rowsCompared())
                .put("mismatches", checkpoint.mismatches());
    }

    static DiffCheckpoint read(TableName table, JsonNode node) {
        List<Object> below = new ArrayList<>();
        for (JsonNode typed : node.path("compared_below")) {
            if (typed.has("long")) {
                below.add(typed.get("long").asLong());
            } else if (typed.has("bigint")) {
                below.add(new BigInteger(typed.get("bigint").asText()));
            } else if (typed.has("decimal")) {
                below.add(new BigDecimal(typed.get("decimal").asText()));
            } else if (typed.has("bytes")) {
                below.add(Base64.getDecoder().decode(typed.get("bytes").asText()));
            } else if (typed.has("null")) {
                below.add(null);
            } else {
                below.add(typed.path("text").asText());
            }
        }
        return new DiffCheckpoint(table, below, node.path("finished").asBoolean(), node.path("chunks_done").asLong(),
                node.path("chunks_total").asLong(), node.path("rows_compared").asLong(), node.path("mismatches").asLong());
    }
}
