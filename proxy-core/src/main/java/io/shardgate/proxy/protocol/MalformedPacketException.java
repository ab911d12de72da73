package io.shardgate.proxy.protocol;

/** A packet that does not follow the protocol; the message says what was expected. */
public class MalformedPacketException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedPacketException(String message) {
        super(message);
    }
}
