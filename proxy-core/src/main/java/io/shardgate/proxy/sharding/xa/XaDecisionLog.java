package io.shardgate.proxy.sharding.xa;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;

/**
 * The durable record of what became of each global transaction whose outcome is not settled yet
 * ({@link XaDecisionTable} keeps it on the decision shard). Presumed abort: a transaction with no
 * record is rolled back. The coordinator only ever logs COMMIT; ABORT records are fences that
 * recovery writes (see {@link XaDecision#ABORT}). Calls block: run them off event loops.
 *
 * @throws XaException from every method, when the log cannot be read or written
 */
public interface XaDecisionLog {

    /**
     * Records {@code proposed} for {@code gtrid} unless a decision is already recorded, durably,
     * and returns the decision that holds: {@code proposed}, or the one recorded first.
     */
    XaDecision decide(String gtrid, XaDecision proposed);

    /** Drops the record of {@code gtrid}, once no branch of it can still be prepared. */
    void forget(String gtrid);

    /** The gtrids whose decision was recorded at least {@code age} ago. */
    Set<String> decidedBefore(Duration age);

    /** Drops the records of {@code gtrids}; returns how many there were. */
    int forgetAll(Collection<String> gtrids);
}
