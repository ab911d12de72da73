package io.shardgate.proxy.sharding;

/**
 * A cross-shard commit that did not commit, or an XA control-plane failure. When
 * {@link #branchesLeftPrepared()} is true the outcome is not known yet: the branches stay
 * prepared, their connections must be closed (not reused), and {@link XaRecovery} resolves them
 * from the decision log.
 */
public final class XaException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final boolean branchesLeftPrepared;

    public XaException(String message, Throwable cause) {
        this(message, cause, false);
    }

    public XaException(String message, Throwable cause, boolean branchesLeftPrepared) {
        super(message, cause);
        this.branchesLeftPrepared = branchesLeftPrepared;
    }

    public boolean branchesLeftPrepared() {
        return branchesLeftPrepared;
    }
}
