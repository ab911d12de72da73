package io.shardgate.proxy.sharding.xa;

import io.shardgate.proxy.sharding.ControlPlane;
import io.shardgate.proxy.sharding.FailureText;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * Finishes Shardgate's prepared XA branches that no coordinator will finish: run at proxy startup,
 * then periodically. One pass ({@link #resolveAll()}):
 * <ol>
 *   <li>notes the decisions older than the retention (candidates for cleanup);</li>
 *   <li>runs {@code XA RECOVER} on every shard primary and keeps the branches with
 *       {@link XaId#FORMAT_ID};</li>
 *   <li>for each gtrid not {@code inFlight} in this process, asks the log with
 *       {@code decide(gtrid, ABORT)}: COMMIT recorded means commit every branch; otherwise ABORT is
 *       now recorded (presumed abort, fenced so a coordinator still running elsewhere cannot log
 *       COMMIT afterwards) and every branch rolls back;</li>
 *   <li>when every shard could be scanned, deletes the noted decisions whose gtrid had no prepared
 *       branch: a decision is only written once all branches prepared, so a gtrid absent from a scan
 *       taken after the decision was read has nothing left to decide. ABORT fences are only deleted
 *       once older than the retention, which must outlast any coordinator between prepare and
 *       decision.</li>
 * </ol>
 * A branch still attached to a live session (another proxy's) cannot be finished from here: the
 * server answers XAER_NOTA and the branch counts as unavailable. With {@code patient} (what a running proxy uses), a
 * gtrid is only decided once an earlier pass of this instance saw it prepared too: another proxy's transaction between
 * its PREPARE and its decision (milliseconds) is left to that proxy instead of being fenced into a rollback, and a
 * branch a crashed coordinator left is finished one pass later. Errors are counted per shard and
 * retried by the next pass. Passes of one instance do not overlap.
 */
public final class XaRecovery {
    private static final System.Logger LOG = System.getLogger(XaRecovery.class.getName());
    private static final int XAER_NOTA = 1397;

    private final ControlPlane controlPlane;
    private final XaDecisionLog log;
    private final Predicate<String> inFlight;
    private final Duration decisionRetention;
    private final boolean patient;
    /** Gtrids the last pass saw prepared and not in flight here (with {@code patient}). */
    private Set<String> seenLastPass = Set.of();

    /**
     * @param inFlight          true for a gtrid this process is still running (see {@link XaCoordinator#inFlight})
     * @param decisionRetention how old a settled decision must be before cleanup deletes it
     */
    public XaRecovery(ControlPlane controlPlane, XaDecisionLog log, Predicate<String> inFlight, Duration decisionRetention) {
        this(controlPlane, log, inFlight, decisionRetention, false);
    }

    /** @param patient decide a gtrid only once an earlier pass of this instance saw it prepared too */
    public XaRecovery(ControlPlane controlPlane, XaDecisionLog log, Predicate<String> inFlight, Duration decisionRetention,
                      boolean patient) {
        this.patient = patient;
        this.controlPlane = requireNonNull(controlPlane, "controlPlane is null");
        this.log = requireNonNull(log, "log is null");
        this.inFlight = requireNonNull(inFlight, "inFlight is null");
        this.decisionRetention = requireNonNull(decisionRetention, "decisionRetention is null");
        if (decisionRetention.isNegative()) {
            throw new IllegalArgumentException("decision retention " + decisionRetention + " (expected: >= 0)");
        }
    }

    /** One recovery pass over every shard; blocks. */
    public synchronized XaRecoverySummary resolveAll() {
        Set<String> cleanupCandidates = oldDecisions();
        Map<String, Tally> tallies = new LinkedHashMap<>();
        Map<String, List<XaId>> preparedByShard = new LinkedHashMap<>();
        Map<String, Set<String>> shardsByGtrid = new LinkedHashMap<>();
        for (String shard : controlPlane.shards()) {
            tallies.put(shard, new Tally());
            try {
                List<XaId> prepared = prepared(shard);
                preparedByShard.put(shard, prepared);
                for (XaId id : prepared) {
                    shardsByGtrid.computeIfAbsent(id.gtrid(), gtrid -> new HashSet<>()).add(shard);
                }
            } catch (SQLException | RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "XA recovery: cannot list prepared branches on shard " + shard
                        + ": " + FailureText.of(e));
            }
        }
        Map<String, XaDecision> decisions = decide(shardsByGtrid, tallies);
        preparedByShard.forEach((shard, prepared) -> {
            Tally tally = tallies.get(shard);
            tally.scanned = true;
            for (XaId id : prepared) {
                XaDecision decision = decisions.get(id.gtrid());
                if (decision != null) {
                    finish(shard, id, decision, tally);
                }
            }
        });
        int deleted = 0;
        if (cleanupCandidates != null && preparedByShard.size() == tallies.size()) {
            cleanupCandidates.removeAll(shardsByGtrid.keySet());
            cleanupCandidates.removeIf(inFlight);
            deleted = deleteDecisions(cleanupCandidates);
        }
        Map<String, XaRecoverySummary.Shard> shards = new LinkedHashMap<>();
        tallies.forEach((shard, tally) -> shards.put(shard, tally.toShard()));
        XaRecoverySummary summary = new XaRecoverySummary(shards, deleted);
        if (!shardsByGtrid.isEmpty() || deleted > 0) {
            LOG.log(System.Logger.Level.INFO, "XA recovery: " + summary);
        }
        return summary;
    }

    private Set<String> oldDecisions() {
        try {
            return new HashSet<>(log.decidedBefore(decisionRetention));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "XA recovery: cannot read old decisions; no cleanup this pass: "
                    + FailureText.of(e));
            return null;
        }
    }

    /** Shardgate's prepared branches on {@code shard}'s primary. */
    private List<XaId> prepared(String shard) throws SQLException {
        List<XaId> prepared = new ArrayList<>();
        try (Connection connection = controlPlane.dataSource(shard).getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(XaStatements.RECOVER)) {
            while (rows.next()) {
                try {
                    XaId.fromRecoverRow(rows.getLong("formatID"), rows.getLong("gtrid_length"),
                            rows.getLong("bqual_length"), rows.getBytes("data")).ifPresent(prepared::add);
                } catch (IllegalArgumentException e) {
                    LOG.log(System.Logger.Level.WARNING, "XA recovery: shard " + shard + ": skipping " + FailureText.of(e));
                }
            }
        }
        return prepared;
    }

    /** The decision of each gtrid to finish now; the gtrids left out are in flight or undecidable. */
    private Map<String, XaDecision> decide(Map<String, Set<String>> shardsByGtrid, Map<String, Tally> tallies) {
        Map<String, XaDecision> decisions = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        shardsByGtrid.forEach((gtrid, shards) -> {
            if (inFlight.test(gtrid)) {
                shards.forEach(shard -> tallies.get(shard).skippedInFlight++);
                return;
            }
            seen.add(gtrid);
            if (patient && !seenLastPass.contains(gtrid)) {
                shards.forEach(shard -> tallies.get(shard).skippedInFlight++); // maybe another proxy's, in flight there
                return;
            }
            try {
                decisions.put(gtrid, log.decide(gtrid, XaDecision.ABORT));
            } catch (RuntimeException e) {
                shards.forEach(shard -> tallies.get(shard).failed++);
                LOG.log(System.Logger.Level.WARNING, "XA recovery: cannot decide " + gtrid + ": " + FailureText.of(e));
            }
        });
        seenLastPass = seen;
        return decisions;
    }

    private void finish(String shard, XaId id, XaDecision decision, Tally tally) {
        String sql = decision == XaDecision.COMMIT ? XaStatements.commit(id) : XaStatements.rollback(id);
        try (Connection connection = controlPlane.dataSource(shard).getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
            if (decision == XaDecision.COMMIT) {
                tally.committed++;
            } else {
                tally.rolledBack++;
            }
        } catch (SQLException | RuntimeException e) {
            if (e instanceof SQLException sqlError && sqlError.getErrorCode() == XAER_NOTA) {
                tally.unavailable++;
            } else {
                tally.failed++;
                LOG.log(System.Logger.Level.WARNING, "XA recovery: " + sql + " failed on shard " + shard + ": "
                        + FailureText.of(e));
            }
        }
    }

    private int deleteDecisions(Set<String> gtrids) {
        try {
            return log.forgetAll(gtrids);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "XA recovery: cannot delete settled decisions: " + FailureText.of(e));
            return 0;
        }
    }

    /** One shard's counts during a pass. */
    private static final class Tally {
        boolean scanned;
        int committed;
        int rolledBack;
        int skippedInFlight;
        int unavailable;
        int failed;

        XaRecoverySummary.Shard toShard() {
            return new XaRecoverySummary.Shard(scanned, committed, rolledBack, skippedInFlight, unavailable, failed);
        }
    }
}
