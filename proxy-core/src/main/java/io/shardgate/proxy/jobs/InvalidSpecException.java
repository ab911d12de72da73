package io.shardgate.proxy.jobs;

/** A job request that cannot run: the message starts with the field at fault ({@code targets[1].key_range: …}). */
public final class InvalidSpecException extends IllegalArgumentException {
    public InvalidSpecException(String field, String message) {
        super(field + ": " + message);
    }
}
