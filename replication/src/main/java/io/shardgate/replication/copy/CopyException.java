package io.shardgate.replication.copy;

/** The copy cannot go on: a table it cannot copy, a target that refuses the schema, a source without binlog. */
public final class CopyException extends RuntimeException {
    public CopyException(String message) {
        super(message);
    }

    public CopyException(String message, Throwable cause) {
        super(message, cause);
    }
}
