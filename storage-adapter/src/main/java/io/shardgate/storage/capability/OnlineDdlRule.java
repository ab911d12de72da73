package io.shardgate.storage.capability;

import static java.util.Objects.requireNonNull;

/**
 * The least blocking way an engine runs one kind of ALTER, and how sure that is.
 *
 * @param best      the cheapest algorithm and the weakest lock the engine accepts
 * @param certainty whether {@code best} holds for every statement of this kind
 */
public record OnlineDdlRule(AlterChoice best, Certainty certainty) {
    public OnlineDdlRule {
        requireNonNull(best, "best is null");
        requireNonNull(certainty, "certainty is null");
    }

    public static OnlineDdlRule exact(AlterAlgorithm algorithm, AlterLock lock) {
        return new OnlineDdlRule(AlterChoice.of(algorithm, lock), Certainty.EXACT);
    }

    /** {@code best} holds for some statements of this kind only; the lock is still enforceable. */
    public static OnlineDdlRule lockOnly(AlterAlgorithm algorithm, AlterLock lock) {
        return new OnlineDdlRule(AlterChoice.of(algorithm, lock), Certainty.LOCK_ONLY);
    }

    /** Nothing is known; such a statement counts as blocking. */
    public static OnlineDdlRule unknown() {
        return new OnlineDdlRule(AlterChoice.of(AlterAlgorithm.COPY, AlterLock.SHARED), Certainty.UNKNOWN);
    }

    /** How far a rule can be written into the statement. Ordered from most to least certain. */
    public enum Certainty {
        /** ALGORITHM and LOCK both hold for every statement of the kind: add both. */
        EXACT,
        /**
         * The algorithm depends on what the validator cannot see (the old column definition,
         * the session's {@code foreign_key_checks}); add only {@code LOCK=}, which the server
         * enforces by refusing rather than blocking.
         */
        LOCK_ONLY,
        /** Add nothing (partition clauses refuse ALGORITHM/LOCK), and treat as blocking. */
        UNKNOWN;

        static Certainty weaker(Certainty a, Certainty b) {
            return a.compareTo(b) >= 0 ? a : b;
        }
    }
}
