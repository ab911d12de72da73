package io.shardgate.proxy.sharding.xa;

import java.util.Locale;

/** What became of a global transaction, as the decision log records it. */
public enum XaDecision {
    /** Written by the coordinator once every branch prepared: the commit point. */
    COMMIT,
    /** Written only by recovery (or by a coordinator that could not log its commit), to fence a
     * transaction it is about to roll back against a late commit decision. */
    ABORT;

    /** The value in {@code _shardgate.xa_decisions.decision}. */
    String sqlValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    static XaDecision fromSql(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
