package io.shardgate.storage.ddl;

import io.shardgate.errors.ErrorCode;
import io.shardgate.storage.Engine;

import static java.util.Objects.requireNonNull;

/** What {@link DdlValidator} decided about one statement for one shard. */
public sealed interface DdlVerdict permits DdlVerdict.Accepted, DdlVerdict.Refused {

    /**
     * Send {@code sql} to the shard.
     *
     * @param sql       the statement as given, or with its ENGINE= values replaced by the shard's engine
     *                  and ALGORITHM/LOCK clauses added
     * @param rewritten whether it differs from the statement as given
     */
    record Accepted(String sql, boolean rewritten) implements DdlVerdict {
        public Accepted {
            requireNonNull(sql, "sql is null");
        }
    }

    /**
     * Send nothing; answer the client with this error.
     *
     * @param clause the part of the statement refused
     */
    record Refused(ErrorCode code, String shard, Engine engine, String clause, String message) implements DdlVerdict {
        public Refused {
            requireNonNull(code, "code is null");
            requireNonNull(shard, "shard is null");
            requireNonNull(engine, "engine is null");
            requireNonNull(clause, "clause is null");
            requireNonNull(message, "message is null");
        }

        static Refused of(ErrorCode code, String shard, Engine engine, String clause, String detail) {
            return new Refused(code, shard, engine, clause, code.message(shard, engine.serverName(), clause, detail));
        }

        public int errno() {
            return code.errno();
        }

        public String sqlState() {
            return code.sqlState();
        }
    }
}
