package io.shardgate.proxy.protocol.compress;

import static java.util.Objects.requireNonNull;

/**
 * The compressed sequence id of one channel, shared by its {@link CompressedFrameDecoder} and
 * {@link CompressedFrameEncoder}.
 *
 * <p>Compressed frames carry their own sequence id, counted independently of the sequence ids of
 * the packets inside them but reset the same way. One counter serves both directions, as in
 * MySQL's {@code net_serv.cc}:
 * <ul>
 *   <li>every frame sent takes the next id and advances it (255 wraps to 0);</li>
 *   <li>a frame received with id {@code s} must carry the next id, and the next id becomes
 *       {@code s + 1}: a reply continues from the last frame received;</li>
 *   <li>a command starts at 0. A client {@link #reset() resets} before it sends a command, so a
 *       server accepts a frame with id 0 at any time as the start of a new command.</li>
 * </ul>
 * Example: a client sends a 20 MiB COM_QUERY as frames 0 and 1; the server answers with frames
 * 2, 3, ...; the next command starts at 0 again.
 *
 * <p>Confined to the channel's event loop, like the handlers that share it.
 */
public final class CompressionSequence {

    /** Which end of the connection this channel is. */
    public enum Side {
        /** We accept connections: the peer starts commands (the front end). */
        SERVER,
        /** We send commands: the encoder restarts at 0 with each command (the backend). */
        CLIENT
    }

    private final Side side;
    private int next;

    public CompressionSequence(Side side) {
        this.side = requireNonNull(side, "side is null");
    }

    public Side side() {
        return side;
    }

    /** The id the next frame, in either direction, is expected to carry. */
    public int next() {
        return next;
    }

    /** Takes the id for a frame about to be sent. */
    public int nextForSend() {
        int id = next;
        next = (next + 1) & 0xFF;
        return id;
    }

    /**
     * Records a frame received with {@code sequenceId}.
     *
     * @throws CompressedFrameException if the id is neither the expected one nor 0 (a new command)
     */
    public void received(int sequenceId) {
        if (sequenceId < 0 || sequenceId > 0xFF) {
            throw new IllegalArgumentException("sequenceId: " + sequenceId + " (expected: 0..255)");
        }
        if (sequenceId != next && sequenceId != 0) {
            throw new CompressedFrameException("compressed sequence id: " + sequenceId
                    + " (expected: " + next + " or 0 for a new command)");
        }
        next = (sequenceId + 1) & 0xFF;
    }

    /** Starts a new command: the next frame sent carries id 0. */
    public void reset() {
        next = 0;
    }

    @Override
    public String toString() {
        return "CompressionSequence{side=" + side + ", next=" + next + "}";
    }
}
