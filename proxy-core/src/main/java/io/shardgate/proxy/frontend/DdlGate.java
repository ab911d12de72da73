package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.ddl.DdlRefusal;
import io.shardgate.storage.ddl.DdlValidator;
import io.shardgate.storage.ddl.DdlVerdict;

import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Checks CREATE TABLE, CREATE INDEX, ALTER TABLE and DROP INDEX against the shard's engine before
 * the statement reaches it: what the engine would silently ignore or drop (MyRocks and foreign
 * keys, say) is refused with an error naming shard, engine and clause; an ALTER without ALGORITHM
 * and LOCK gets the least blocking ones the engine allows; an ALTER that would block writes is
 * refused unless the session set {@code shardgate_allow_blocking_ddl}. The refusals and their codes
 * are the storage adapters' ({@link DdlRefusal}, listed in docs/errors.md).
 *
 * <p>With one shard, a statement the validator cannot parse goes through as it is: "all shards
 * or none" holds trivially.
 */
final class DdlGate {
    private static final Pattern DDL = Pattern.compile(
            "\\s*(CREATE\\s+(OR\\s+REPLACE\\s+)?(TEMPORARY\\s+)?TABLE|CREATE\\s+(OR\\s+REPLACE\\s+)?(UNIQUE\\s+|FULLTEXT\\s+|SPATIAL\\s+)?INDEX"
                    + "|ALTER\\s+(ONLINE\\s+)?(IGNORE\\s+)?TABLE|DROP\\s+INDEX)\\s",
            Pattern.CASE_INSENSITIVE);

    /** What to send, or the error to answer instead. */
    record Outcome(String sql, ErrPacket refusal) {
    }

    private final DdlValidator validator = new DdlValidator();
    private final String shard;
    private final Supplier<EngineCapabilities> capabilities;

    DdlGate(String shard, Supplier<EngineCapabilities> capabilities) {
        this.shard = shard;
        this.capabilities = capabilities;
    }

    /** Null when {@code sql} is not DDL this gate checks, or the shard's capabilities are unknown. */
    Outcome check(String sql, boolean allowBlockingDdl) {
        if (!(SqlText.startsWithIgnoreCase(sql, "create") || SqlText.startsWithIgnoreCase(sql, "alter")
                || SqlText.startsWithIgnoreCase(sql, "drop")) || !DDL.matcher(sql).lookingAt()) {
            return null;
        }
        EngineCapabilities engine = capabilities.get();
        if (engine == null) {
            return null;
        }
        DdlVerdict verdict = validator.validate(sql, engine, shard, allowBlockingDdl);
        if (verdict instanceof DdlVerdict.Accepted accepted) {
            return new Outcome(accepted.sql(), null);
        }
        DdlVerdict.Refused refused = (DdlVerdict.Refused) verdict;
        if (refused.code() == DdlRefusal.DDL_NOT_UNDERSTOOD) {
            return new Outcome(sql, null);
        }
        return new Outcome(null, new ErrPacket(refused.errno(), refused.sqlState(), refused.message()));
    }
}
