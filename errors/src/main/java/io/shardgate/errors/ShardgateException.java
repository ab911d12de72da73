package io.shardgate.errors;

import static java.util.Objects.requireNonNull;

/**
 * An error with its catalog entry: the client gets an ERR packet with the entry's errno and SQLSTATE
 * and {@link #errorMessage()}. Made by {@link ErrorCode#exception(Object...)}; a subclass names a
 * failure of its own (a global sequence, an XA step) and keeps its own message, which then fills its
 * entry's one-argument template.
 */
public class ShardgateException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ErrorCode code;
    private final String errorMessage;

    /** An occurrence of {@code code} whose message is already the client's. */
    static ShardgateException of(ErrorCode code, String errorMessage) {
        return new ShardgateException(code, errorMessage, errorMessage, null);
    }

    /**
     * For subclasses: {@code message} is this exception's own message and fills {@code code}'s template
     * (which takes one {@code %s}) for the client.
     */
    protected ShardgateException(ErrorCode code, String message, Throwable cause) {
        this(code, message, requireNonNull(code, "code is null").message(message), cause);
    }

    private ShardgateException(ErrorCode code, String message, String errorMessage, Throwable cause) {
        super(requireNonNull(message, "message is null"), cause);
        this.code = requireNonNull(code, "code is null");
        this.errorMessage = requireNonNull(errorMessage, "errorMessage is null");
    }

    /** The same error, with the exception that caused it (for the log; the client's message is unchanged). */
    public ShardgateException withCause(Throwable cause) {
        return new ShardgateException(code, getMessage(), errorMessage, cause);
    }

    public ErrorCode code() {
        return code;
    }

    public int errno() {
        return code.errno();
    }

    public String sqlState() {
        return code.sqlState();
    }

    /** The message of the client's ERR packet. */
    public String errorMessage() {
        return errorMessage;
    }
}
