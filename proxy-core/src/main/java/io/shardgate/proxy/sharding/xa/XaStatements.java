package io.shardgate.proxy.sharding.xa;

/** The XA statements Shardgate sends, for one branch's {@link XaId}. */
public final class XaStatements {
    /** Lists the prepared branches of a server: formatID, gtrid_length, bqual_length, data. */
    public static final String RECOVER = "XA RECOVER";
    /** How {@link #commit} and {@link #commitOnePhase} begin: the statements whose OK carries the commit's GTID. */
    public static final String COMMIT_PREFIX = "XA COMMIT ";

    private XaStatements() {
    }

    public static String start(XaId id) {
        return "XA START " + id.sql();
    }

    public static String end(XaId id) {
        return "XA END " + id.sql();
    }

    public static String prepare(XaId id) {
        return "XA PREPARE " + id.sql();
    }

    public static String commit(XaId id) {
        return COMMIT_PREFIX + id.sql();
    }

    /** Commits an ended (not prepared) branch without a prepare: for a transaction on one shard. */
    public static String commitOnePhase(XaId id) {
        return COMMIT_PREFIX + id.sql() + " ONE PHASE";
    }

    public static String rollback(XaId id) {
        return "XA ROLLBACK " + id.sql();
    }
}
