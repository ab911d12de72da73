package io.shardgate.replication.topology;

/** A topology could not be started or controlled; the message says which node and why. */
public class TopologyException extends RuntimeException {
    public TopologyException(String message) {
        super(message);
    }

    public TopologyException(String message, Throwable cause) {
        super(message, cause);
    }
}
