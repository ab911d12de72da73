package io.shardgate.replication.stream;

/**
 * The source could not be reached for a moment (its control connection dropped). Unlike a
 * {@link StreamException}, the reader answers it by reading again from its last transaction.
 */
public final class SourceUnavailableException extends RuntimeException {
    public SourceUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
