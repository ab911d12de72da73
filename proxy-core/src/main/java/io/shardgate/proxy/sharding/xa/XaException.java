package io.shardgate.proxy.sharding.xa;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;

/**
 * A cross-shard commit that did not commit, or an XA control-plane failure. When
 * {@link #branchesLeftPrepared()} is true the outcome is not known yet: the branches stay
 * prepared, their connections must be closed (not reused), and {@link XaRecovery} resolves them
 * from the decision log. The client gets {@link ErrorCode#XA_OUTCOME_UNKNOWN} then, and
 * {@link ErrorCode#XA_FAILED} otherwise; its connection stays usable.
 */
public final class XaException extends ShardgateException {
    private static final long serialVersionUID = 1L;
    private final boolean branchesLeftPrepared;

    public XaException(String message, Throwable cause) {
        this(message, cause, false);
    }

    public XaException(String message, Throwable cause, boolean branchesLeftPrepared) {
        super(branchesLeftPrepared ? ErrorCode.XA_OUTCOME_UNKNOWN : ErrorCode.XA_FAILED, message, cause);
        this.branchesLeftPrepared = branchesLeftPrepared;
    }

    public boolean branchesLeftPrepared() {
        return branchesLeftPrepared;
    }
}
