package io.shardgate.proxy.error;

import io.shardgate.proxy.protocol.ErrPacket;

/** An error with its catalog entry; the front end turns it into an ERR packet. */
public final class ShardgateException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient ErrPacket packet;
    private final ErrorCode code;

    ShardgateException(ErrorCode code, Object... args) {
        this(code, code.packet(args), null);
    }

    private ShardgateException(ErrorCode code, ErrPacket packet, Throwable cause) {
        super(packet.message(), cause);
        this.code = code;
        this.packet = packet;
    }

    public ShardgateException withCause(Throwable cause) {
        return new ShardgateException(code, packet, cause);
    }

    public ErrorCode code() {
        return code;
    }

    public ErrPacket packet() {
        return packet;
    }
}
