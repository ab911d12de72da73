package io.shardgate.proxy.topology;

/** The topology store cannot be reached; the message names it. */
public final class TopologyStoreUnavailableException extends RuntimeException {
    public TopologyStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public TopologyStoreUnavailableException(String message) {
        super(message);
    }
}
