package io.shardgate.proxy.reshard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.jobs.JobAction;
import io.shardgate.proxy.jobs.JobContext;
import io.shardgate.proxy.jobs.JobPhase;
import io.shardgate.proxy.topology.Cutover;
import io.shardgate.proxy.topology.LiveTopology;
import io.shardgate.proxy.topology.TopologyAdmin;
import io.shardgate.replication.copy.CopyStreams;
import io.shardgate.replication.copy.CopyTable;
import io.shardgate.replication.copy.CopyTarget;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.ChangeStream;
import io.shardgate.replication.stream.TableFilter;
import io.shardgate.replication.stream.apply.JdbcApplyTarget;
import io.shardgate.replication.stream.apply.StateTables;
import io.shardgate.replication.stream.apply.TargetSession;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A job after its switch ({@code switched}): the targets serve the moved keys (or tables), and one change stream from each
 * target carries their writes back into the source (the reverse streams), so that the source stays current and traffic
 * can go back to it. Each starts at the target's position recorded while the cutover held the writes ({@code reverse_from})
 * and keeps its state on the source under a namespace of its own ({@link StateTables}). A sharded table's rows come back
 * from every target; a table copied whole to every target (a reference table) from the first only. The streams run until
 * the operator asks:
 * <ul>
 *   <li>{@code complete}: the streams stop and their state on the source is dropped; the job is {@code done}.</li>
 *   <li>{@code reverse}: the cutover in the other direction ({@code reversing}). Pre-checks: the reverse streams lag under
 *   a second, no transaction on a target open longer than {@link ReshardCutover#MAX_TRANSACTION_AGE}. Every proxy holds new
 *   writes to the targets and reports once those under way there are done; each target's position is read; the source
 *   applies up to them; one version gives the keys (or tables) back to the source and lifts the hold. The job is
 *   {@code reversed}. A reverse that does not switch leaves it {@code switched}, with the reason in its error.</li>
 * </ul>
 * A reverse stream that stops on an error is started again from its stored position; the error shows in the job meanwhile.
 */
final class AfterSwitch {
    private static final System.Logger LOG = System.getLogger(AfterSwitch.class.getName());
    static final Duration RESTART_PAUSE = Duration.ofSeconds(5);

    private final JobContext context;
    private final TopologyAdmin topology;
    private final LiveTopology live;
    private final ReshardPlan plan;
    private final int workers;

    AfterSwitch(JobContext context, TopologyAdmin topology, LiveTopology live, ReshardPlan plan, int workers) {
        this.context = context;
        this.topology = topology;
        this.live = live;
        this.plan = plan;
        this.workers = workers;
    }

    void run() throws Exception {
        if (context.job().phase() == JobPhase.REVERSING && recovered()) {
            return;
        }
        Map<String, MariaDbGtidPosition> from = reverseFrom();
        CopyStreams streams = start(from);
        try {
            for (long round = 0; ; round++) {
                if (streams.failure() != null) {
                    streams = restart(streams, from);
                }
                if (round % 5 == 0) {
                    double lag = streams.lagSeconds();
                    context.update(job -> job.withStreamLag(Math.round(lag * 10) / 10.0));
                }
                if (ReshardExecutor.stopped(context)) {
                    return;
                }
                JobAction action = context.job().pendingAction().orElse(null);
                if (action == JobAction.COMPLETE) {
                    streams.stop();
                    end(JobPhase.DONE, "completed: the reverse streams stopped; " + plan.targetNames() + " serve for good");
                    return;
                }
                if (action == JobAction.REVERSE && reverse(streams)) {
                    streams.stop();
                    end(JobPhase.REVERSED, "reversed: " + plan.source() + " serves again");
                    return;
                }
                Thread.sleep(ReshardExecutor.POLL.toMillis());
            }
        } finally {
            streams.close();
        }
    }

    /** The reverse cutover; whether traffic went back to the source. */
    private boolean reverse(CopyStreams streams) throws Exception {
        context.update(job -> job.withRequestedAction(null).withError(null));
        context.phase(JobPhase.REVERSING);
        String refusal = precheck(streams);
        if (refusal != null) {
            return back("reverse refused: " + refusal);
        }
        Cutover.Outcome outcome = new Cutover(topology, context.clock()).run(new Cutover.Request(context.job().id(),
                plan.targetNames(), plan.reverseEdit(), ReshardCutover.MAX_HOLD, ReshardCutover.ACK_TIMEOUT), remaining -> {
            Map<String, MariaDbGtidPosition> wanted = new LinkedHashMap<>();
            for (CopyTarget target : plan.targets()) {
                wanted.put(target.name(), MariaDbGtidPosition.parse(ReshardCutover.query(target.endpoint(), "SELECT @@gtid_binlog_pos")));
            }
            Duration wait = remaining.minusMillis(500);
            if (wait.isNegative() || !streams.awaitPositions(wanted, wait)) {
                throw new IllegalStateException("the source did not apply the targets' positions " + wanted + " in time");
            }
        });
        if (!outcome.switched()) {
            return back("reverse aborted, writes go to " + plan.targetNames() + " again: " + outcome.reason());
        }
        ObjectNode record = JsonNodeFactory.instance.objectNode().put("hold_version", outcome.holdVersion())
                .put("switch_version", outcome.switchVersion()).put("writes_held_ms", outcome.held().toMillis())
                .put("proxies_drained_ms", outcome.acknowledged().toMillis());
        context.checkpoint("reverse", record);
        LOG.log(System.Logger.Level.INFO, "job " + context.job().id() + ": traffic moved back to " + plan.source()
                + "; writes held " + outcome.held().toMillis() + " ms");
        return true;
    }

    private String precheck(CopyStreams streams) throws java.sql.SQLException {
        double lag = streams.lagSeconds();
        if (lag > ReshardCutover.MAX_LAG.toSeconds()) {
            return "the reverse streams lag " + lag + " s (at most " + ReshardCutover.MAX_LAG.toSeconds() + " s)";
        }
        for (CopyTarget target : plan.targets()) {
            long age = ReshardCutover.oldestTransactionSeconds(target.endpoint());
            if (age > ReshardCutover.MAX_TRANSACTION_AGE.toSeconds()) {
                return "a transaction on " + target.name() + " has been open " + age + " s (at most "
                        + ReshardCutover.MAX_TRANSACTION_AGE.toSeconds() + " s): its writes would hold the reverse";
            }
        }
        return null;
    }

    private boolean back(String reason) throws Exception {
        context.back(JobPhase.SWITCHED, reason);
        return false;
    }

    /**
     * A job taken over in {@code reversing}: its hold, if left, is lifted; whether the reverse's switch was written decides
     * between {@code reversed} and {@code switched}. Whether the job is over.
     */
    private boolean recovered() throws Exception {
        CutoverRecovery.Outcome outcome = CutoverRecovery.settle(context, topology, live, plan.reverseEdit(), "reverse");
        if (outcome.switched()) {
            end(JobPhase.REVERSED, "its reverse had switched before its runner stopped");
            return true;
        }
        context.update(current -> current.withError(outcome.stoppedBeforeSwitch()));
        context.phase(JobPhase.SWITCHED);
        return false;
    }

    private void end(JobPhase phase, String what) throws Exception {
        dropState();
        context.update(job -> job.withRequestedAction(null).withStreamLag(null));
        context.phase(phase);
        LOG.log(System.Logger.Level.INFO, "job " + context.job().id() + " " + what);
    }

    private Map<String, MariaDbGtidPosition> reverseFrom() {
        JsonNode recorded = context.job().checkpoint("reverse_from").orElseThrow(() -> new IllegalStateException(
                "job " + context.job().id() + " switched without the targets' positions (reverse_from): no reverse streams"));
        Map<String, MariaDbGtidPosition> from = new LinkedHashMap<>();
        for (CopyTarget target : plan.targets()) {
            JsonNode position = recorded.get(target.name());
            if (position == null) {
                throw new IllegalStateException("job " + context.job().id() + " has no reverse_from position for " + target.name());
            }
            from.put(target.name(), MariaDbGtidPosition.parse(position.asText()));
        }
        return from;
    }

    private CopyStreams restart(CopyStreams failed, Map<String, MariaDbGtidPosition> from) throws Exception {
        String reason = "a reverse stream stopped (started again in " + RESTART_PAUSE.toSeconds() + " s): "
                + failed.failure().getMessage();
        LOG.log(System.Logger.Level.WARNING, "job " + context.job().id() + ": " + reason);
        failed.close();
        context.update(job -> job.withError(reason));
        Thread.sleep(RESTART_PAUSE.toMillis());
        return start(from);
    }

    /** One stream per target into the source, each from its stored position, or from {@code from} the first time. */
    private CopyStreams start(Map<String, MariaDbGtidPosition> from) {
        Map<String, ChangeStream> streams = new LinkedHashMap<>();
        boolean first = true;
        for (CopyTarget target : plan.targets()) {
            Set<String> schemas = new TreeSet<>();
            Set<String> tables = new TreeSet<>();
            for (CopyTable table : plan.tables()) {
                if (first || table.vindex() != null) {
                    schemas.add(table.schema());
                    tables.add(table.qualifiedName());
                }
            }
            first = false;
            JdbcApplyTarget into = stateOf(target);
            if (into.load().isFresh()) {
                try (TargetSession session = into.open()) {
                    session.saveWatermark(from.get(target.name()));
                }
            }
            streams.put(target.name(), ChangeStream.builder()
                    .source(target.endpoint())
                    .target(into)
                    .tables(new TableFilter(schemas, Set.of(), tables, Set.of()))
                    .workers(workers)
                    .notices(message -> LOG.log(System.Logger.Level.INFO, "job " + context.job().id() + ", reverse from "
                            + target.name() + ": " + message))
                    .build());
        }
        return CopyStreams.launch(streams);
    }

    private void dropState() {
        for (CopyTarget target : plan.targets()) {
            try {
                stateOf(target).dropState();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "job " + context.job().id() + ": the reverse stream state of "
                        + target.name() + " stays on " + plan.source() + ": " + e.getMessage());
            }
        }
    }

    private JdbcApplyTarget stateOf(CopyTarget target) {
        return new JdbcApplyTarget(plan.sourceEndpoint(), StateTables.of(namespace(context.job().id(), target.name())));
    }

    /** {@code rev_<job>_<target>}, in the characters a namespace allows, shortened with a hash when long. */
    static String namespace(String job, String target) {
        String plain = ("rev_" + job + "_" + target).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (plain.length() <= StateTables.MAX_NAMESPACE) {
            return plain;
        }
        return plain.substring(0, StateTables.MAX_NAMESPACE - 9) + "_" + String.format("%08x", plain.hashCode());
    }
}
