package io.shardgate.replication.stream;

/** The change stream cannot go on: bad source setup, an unreadable event, a row that cannot be applied. */
public class StreamException extends RuntimeException {
    public StreamException(String message) {
        super(message);
    }

    public StreamException(String message, Throwable cause) {
        super(message, cause);
    }
}
