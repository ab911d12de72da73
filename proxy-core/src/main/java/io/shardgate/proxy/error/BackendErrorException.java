package io.shardgate.proxy.error;

import io.shardgate.proxy.protocol.ErrPacket;

import static java.util.Objects.requireNonNull;

/** A backend answered with ERR; the client gets that packet verbatim. */
public final class BackendErrorException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient ErrPacket packet;

    public BackendErrorException(ErrPacket packet) {
        super(requireNonNull(packet, "packet is null").errno() + " (" + packet.sqlState() + "): " + packet.message());
        this.packet = packet;
    }

    public ErrPacket packet() {
        return packet;
    }
}
