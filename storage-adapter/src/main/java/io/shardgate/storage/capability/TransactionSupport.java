package io.shardgate.storage.capability;

import java.time.Duration;
import java.util.EnumSet;
import java.util.OptionalLong;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * How transactions behave on an engine.
 *
 * @param isolationLevels the levels a transaction may use; others fail with ER 4057 on MyRocks
 * @param gapLocks        whether REPEATABLE READ locks gaps (no phantom inserts); MyRocks does not, and says nothing
 * @param binlogFormats   the {@code binlog_format} values DML works under; others fail with ER 1665
 * @param lockWaitTimeout how long a row-lock wait lasts before ER 1205
 * @param rowLockLimit    most row locks one transaction may hold before ER 1296 (MyRocks'
 *                        {@code rocksdb_max_row_locks}); empty when there is no cap
 */
public record TransactionSupport(Set<IsolationLevel> isolationLevels, boolean gapLocks, Set<BinlogFormat> binlogFormats,
                                 Duration lockWaitTimeout, OptionalLong rowLockLimit) {
    public TransactionSupport {
        isolationLevels = Set.copyOf(EnumSet.copyOf(requireNonNull(isolationLevels, "isolationLevels is null")));
        binlogFormats = Set.copyOf(EnumSet.copyOf(requireNonNull(binlogFormats, "binlogFormats is null")));
        requireNonNull(lockWaitTimeout, "lockWaitTimeout is null");
        requireNonNull(rowLockLimit, "rowLockLimit is null");
    }
}
