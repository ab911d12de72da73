package io.shardgate.storage.ddl;

import io.shardgate.errors.ErrorCode;
import io.shardgate.storage.capability.AlterAlgorithm;
import io.shardgate.storage.capability.AlterChoice;
import io.shardgate.storage.capability.AlterLock;
import io.shardgate.storage.capability.OnlineDdlRule;
import io.shardgate.storage.capability.OnlineDdlRule.Certainty;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Decides, for one ALTER on one engine, which ALGORITHM/LOCK clauses to add, or why to refuse.
 * Pure; {@link DdlValidator} applies the result.
 *
 * <ol>
 *   <li>An ALGORITHM or LOCK cheaper than the engine's best is refused (ER 1845), as the server
 *       would refuse it, but before any shard ran it.</li>
 *   <li>The statement blocks writes when its effective choice does ({@link AlterChoice#blocksWrites()}),
 *       when the algorithm depends on the definition and the lock is not NONE, or when nothing is
 *       known about it; an explicit {@code LOCK=NONE} or {@code ALGORITHM=INSTANT} never blocks,
 *       since the server refuses rather than block. A blocking statement is refused (ER 1846)
 *       unless blocking DDL is allowed.</li>
 *   <li>Missing clauses are added: both for an exact rule; only a missing {@code LOCK=} when the
 *       algorithm depends on the definition (and not even that when blocking is allowed, so the
 *       server may choose a blocking algorithm); none when nothing is known.</li>
 * </ol>
 */
final class OnlineDdlDecision {
    static final String ALLOW_BLOCKING = "SET SESSION shardgate_allow_blocking_ddl = ON";

    private OnlineDdlDecision() {
    }

    /** Refuse with {@code code}, or proceed adding {@code clauses} (such as {@code ALGORITHM=NOCOPY}). */
    record Outcome(Optional<Refusal> refusal, List<String> clauses) {
    }

    record Refusal(ErrorCode code, String clause, String detail) {
    }

    static Outcome decide(OnlineDdlRule rule, AlterRequest request, boolean allowBlocking) {
        requireNonNull(rule, "rule is null");
        requireNonNull(request, "request is null");
        AlterChoice best = rule.best();
        Certainty certainty = rule.certainty();
        Optional<AlterAlgorithm> algorithm;
        Optional<AlterLock> lock;
        try {
            algorithm = request.algorithm().filter(v -> !v.equals("DEFAULT")).map(AlterAlgorithm::valueOf);
            lock = request.lock().filter(v -> !v.equals("DEFAULT")).map(AlterLock::valueOf);
        } catch (IllegalArgumentException e) {
            return refuse(ErrorCode.DDL_NOT_UNDERSTOOD, request.algorithm().orElse("") + "/" + request.lock().orElse(""),
                    "unknown ALGORITHM or LOCK value (ALGORITHM=" + request.algorithm().orElse("-") + ", LOCK="
                            + request.lock().orElse("-") + ")");
        }

        if (certainty != Certainty.UNKNOWN) {
            if (algorithm.isPresent() && algorithm.get().compareTo(best.algorithm()) < 0) {
                return refuse(ErrorCode.ALTER_ALGORITHM_UNAVAILABLE, "ALGORITHM=" + algorithm.get(),
                        "ALGORITHM=" + best.algorithm());
            }
            if (lock.isPresent() && lock.get().compareTo(best.lock()) < 0) {
                return refuse(ErrorCode.ALTER_ALGORITHM_UNAVAILABLE, "LOCK=" + lock.get(), "LOCK=" + best.lock());
            }
        }
        AlterAlgorithm effectiveAlgorithm = algorithm.orElse(best.algorithm());
        AlterLock effectiveLock = lock.orElse(effectiveAlgorithm == AlterAlgorithm.COPY
                ? AlterLock.max(best.lock(), AlterLock.SHARED) : best.lock());

        boolean guaranteed = lock.equals(Optional.of(AlterLock.NONE)) || algorithm.equals(Optional.of(AlterAlgorithm.INSTANT));
        boolean blocking;
        String blockingClause;
        if (guaranteed) {
            blocking = false;
            blockingClause = "";
        } else if (certainty == Certainty.UNKNOWN) {
            blocking = true;
            blockingClause = "An ALTER whose locking Shardgate cannot determine (without LOCK=NONE)";
        } else if (certainty == Certainty.LOCK_ONLY && algorithm.isEmpty()) {
            blocking = effectiveLock != AlterLock.NONE;
            blockingClause = "LOCK=" + effectiveLock;
        } else {
            AlterChoice effective = AlterChoice.of(effectiveAlgorithm, effectiveLock);
            blocking = effective.blocksWrites();
            blockingClause = "ALGORITHM=" + effectiveAlgorithm + ", LOCK=" + effectiveLock;
        }
        if (blocking && !allowBlocking) {
            return refuse(ErrorCode.BLOCKING_DDL, blockingClause, ALLOW_BLOCKING);
        }

        List<String> clauses = new ArrayList<>();
        switch (certainty) {
            case EXACT -> {
                if (request.algorithm().isEmpty()) {
                    clauses.add("ALGORITHM=" + effectiveAlgorithm);
                }
                if (request.lock().isEmpty()) {
                    clauses.add("LOCK=" + effectiveLock);
                }
            }
            case LOCK_ONLY -> {
                if (request.lock().isEmpty() && !allowBlocking) {
                    clauses.add("LOCK=" + effectiveLock);
                }
            }
            case UNKNOWN -> {
                // Partition clauses refuse ALGORITHM/LOCK; add nothing.
            }
        }
        return new Outcome(Optional.empty(), List.copyOf(clauses));
    }

    private static Outcome refuse(ErrorCode code, String clause, String detail) {
        return new Outcome(Optional.of(new Refusal(code, clause, detail)), List.of());
    }
}
