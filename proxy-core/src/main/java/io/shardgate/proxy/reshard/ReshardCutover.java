package io.shardgate.proxy.reshard;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.jobs.Job;
import io.shardgate.proxy.jobs.JobContext;
import io.shardgate.proxy.jobs.JobPhase;
import io.shardgate.proxy.topology.Cutover;
import io.shardgate.proxy.topology.TopologyAdmin;
import io.shardgate.replication.copy.CopyTarget;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.ServerEndpoint;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * A reshard's or table move's cutover, asked for by the operator once the job is {@code ready}: checks that the targets are
 * current (stream lag under a second), that the diff was clean, and that no transaction on the source is older than
 * {@link #MAX_TRANSACTION_AGE}; then moves the keys with every proxy's writes to the source held ({@link Cutover}).
 * While they are held it records the source's position, waits for the targets to apply it and stores each target's own
 * position in the job ({@code reverse_from}: where the reverse streams start, {@link AfterSwitch}); the streams stop after
 * the switch. A cutover that does not switch puts the job back in {@code ready}, streams running, with the reason in its error.
 */
final class ReshardCutover {
    private static final System.Logger LOG = System.getLogger(ReshardCutover.class.getName());
    static final Duration MAX_LAG = Duration.ofSeconds(1);
    static final Duration MAX_TRANSACTION_AGE = Duration.ofSeconds(10);
    static final Duration MAX_HOLD = Duration.ofSeconds(5);
    static final Duration ACK_TIMEOUT = Duration.ofSeconds(2);

    private final JobContext context;
    private final TopologyAdmin topology;
    private final ReshardPlan plan;
    private final PausedStreams streams;
    ReshardCutover(JobContext context, TopologyAdmin topology, ReshardPlan plan, PausedStreams streams) {
        this.context = context;
        this.topology = topology;
        this.plan = plan;
        this.streams = streams;
    }

    /** Whether the keys moved. */
    boolean run() throws Exception {
        context.update(job -> job.withRequestedAction(null).withError(null));
        context.phase(JobPhase.CUTTING_OVER);
        String refusal = precheck();
        if (refusal != null) {
            return back("cutover refused: " + refusal);
        }
        Cutover.Outcome outcome = new Cutover(topology, context.clock()).run(new Cutover.Request(context.job().id(),
                List.of(plan.source()), plan.switchEdit(), MAX_HOLD, ACK_TIMEOUT), new Cutover.Steps() {
            @Override
            public void quiesced(Duration remaining) throws Exception {
                ReshardCutover.this.quiesced(remaining);
            }

            @Override
            public String abandoned() {
                return context.cancelled() ? "the job was cancelled" : null;
            }
        });
        if (!outcome.switched()) {
            return back("cutover aborted, writes go to " + plan.source() + " again: " + outcome.reason());
        }
        streams.pause();
        ObjectNode record = JsonNodeFactory.instance.objectNode().put("hold_version", outcome.holdVersion())
                .put("switch_version", outcome.switchVersion()).put("writes_held_ms", outcome.held().toMillis())
                .put("proxies_drained_ms", outcome.acknowledged().toMillis());
        context.checkpoint("cutover", record);
        context.phase(JobPhase.SWITCHED);
        LOG.log(System.Logger.Level.INFO, "job " + context.job().id() + ": " + plan.source() + "'s keys moved to "
                + plan.targetNames() + "; writes held " + outcome.held().toMillis() + " ms");
        return true;
    }

    private boolean back(String reason) throws Exception {
        context.back(JobPhase.READY, reason);
        return false;
    }

    /** Why the cutover must not start now; null when it may. */
    private String precheck() throws SQLException {
        double lag = streams.streams().lagSeconds();
        if (lag > MAX_LAG.toSeconds()) {
            return "the targets' streams lag " + lag + " s (at most " + MAX_LAG.toSeconds() + " s)";
        }
        Job job = context.job();
        for (var table : plan.tables()) {
            boolean finished = job.checkpoint("diff/" + table.qualifiedName()).map(node -> node.path("finished").asBoolean())
                    .orElse(false);
            if (!finished) {
                return "the diff of " + table.qualifiedName() + " has not finished";
            }
        }
        if (job.diff().mismatches() > 0) {
            return "the diff found " + job.diff().mismatches() + " rows that differ";
        }
        long age = oldestTransactionSeconds(plan.sourceEndpoint());
        if (age > MAX_TRANSACTION_AGE.toSeconds()) {
            return "a transaction on " + plan.source() + " has been open " + age + " s (at most "
                    + MAX_TRANSACTION_AGE.toSeconds() + " s): its writes would hold the cutover";
        }
        return null;
    }

    static long oldestTransactionSeconds(ServerEndpoint source) throws SQLException {
        try (Connection connection = source.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COALESCE(MAX(TIMESTAMPDIFF(SECOND, trx_started, NOW())), 0)"
                     + " FROM information_schema.INNODB_TRX")) {
            return rows.next() ? rows.getLong(1) : 0;
        }
    }

    /** Every proxy holds the source's writes: its position now covers every acknowledged one. */
    private void quiesced(Duration remaining) throws Exception {
        MariaDbGtidPosition position = MariaDbGtidPosition.parse(query(plan.sourceEndpoint(), "SELECT @@gtid_binlog_pos"));
        Duration wait = remaining.minusMillis(500);
        if (wait.isNegative() || !streams.streams().awaitPosition(position, wait)) {
            throw new IllegalStateException("the targets did not apply " + plan.source() + "'s position " + position + " in time");
        }
        // The source's writes are held and the targets have applied them all: the streams are idle, so each target's
        // position now is where its reverse stream starts. Stored before the switch, so that a runner taking the job
        // over after it finds them.
        ObjectNode reverseFrom = JsonNodeFactory.instance.objectNode().put("source", position.toString());
        for (CopyTarget target : plan.targets()) {
            reverseFrom.put(target.name(), query(target.endpoint(), "SELECT @@gtid_binlog_pos"));
        }
        context.checkpoint("reverse_from", reverseFrom);
    }

    static String query(ServerEndpoint server, String sql) throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
