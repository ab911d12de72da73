package io.shardgate.proxy.execution;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.PacketEncoder;

import java.util.concurrent.TimeUnit;

/**
 * The client connection as a response is written to it: packets numbered from 1 (or relayed with
 * the backend's numbers), and backpressure: while the client's socket buffer is full a plan worker
 * waits (and so stops reading shard rows, which stops the shards' connections in turn), and a
 * relay on an event loop stops its backend connection's reads ({@link #pauseWhileFull}).
 */
public final class ClientChannel {
    /** The size of the buffer small relayed packets are gathered in. */
    static final int BATCH = 8192;
    private final Channel channel;
    private final long capabilities;
    private final Object writable = new Object();
    private int sequence = 1;
    /** Small relayed packets gathered for one write ({@link #relay}); null: none. Only the thread relaying touches it. */
    private ByteBuf batch;
    private Runnable onWritable;
    /** The backend connection {@link #onWritable} resumes, when it is a {@link #pauseWhileFull} of one. */
    private BackendConnection pausedSource;

    public ClientChannel(Channel channel, long capabilities) {
        this.channel = channel;
        this.capabilities = capabilities;
    }

    public long capabilities() {
        return capabilities;
    }

    /** The client connection's event loop. */
    public EventLoop eventLoop() {
        return channel.eventLoop();
    }

    public ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /** Starts a new response (sequence ids from 1 again). */
    public void restart() {
        sequence = 1;
    }

    public void write(ByteBuf payload) {
        drain();
        channel.write(new MySqlPacket(sequence++ & 0xFF, payload), channel.voidPromise());
        if (!channel.isWritable()) {
            channel.flush();
            awaitWritable();
        }
    }

    /**
     * Writes a backend's packet as it is, sequence id included (a byte-for-byte relay); the response
     * continues after it. Small packets (an OK, column definitions, rows: most of a response) are
     * copied, header and all, one after another into one buffer that goes out as a single write at
     * the next {@link #flush} or {@link #drain}, or when full: one buffer and one send per response
     * where a packet each would cost a buffer, an outbound entry and an iovec each.
     */
    public void relay(MySqlPacket packet) {
        sequence = packet.sequenceId() + 1;
        ByteBuf payload = packet.payload();
        int length = payload.readableBytes();
        if (length >= PacketEncoder.COPY_LIMIT) {
            drain();
            channel.write(packet, channel.voidPromise());
            return;
        }
        try {
            if (batch != null && batch.writableBytes() < 4 + length) {
                drain();
            }
            if (batch == null) {
                batch = channel.alloc().ioBuffer(BATCH);
            }
            batch.writeMediumLE(length).writeByte(packet.sequenceId()).writeBytes(payload, payload.readerIndex(), length);
        } finally {
            packet.release();
        }
    }

    /** Writes (without flushing) what {@link #relay} has gathered; anything else written to the client goes after it. */
    public void drain() {
        ByteBuf gathered = batch;
        if (gathered != null) {
            batch = null;
            channel.write(gathered, channel.voidPromise());
        }
    }

    /**
     * Stops reading {@code source} until the client's socket takes writes again. This runs on the
     * source's event loop while {@link #writabilityChanged} runs on the client's: the client may
     * drain between the caller's check and the pause, so the resume is registered first and
     * writability checked again after it ({@link #onWritable}).
     */
    public void pauseWhileFull(BackendConnection source) {
        source.autoRead(false);
        arm(() -> source.autoRead(true), source);
    }

    /** {@code source}'s response ended (it reads again by itself then): a resume still waiting for it is dropped. */
    public void cancelPause(BackendConnection source) {
        synchronized (writable) {
            if (pausedSource == source) {
                pausedSource = null;
                onWritable = null;
            }
        }
    }

    /**
     * Writes without waiting for the client (on an event loop, where waiting would block it); the
     * caller checks {@link #isWritable()} and pauses its source until {@link #onWritable} fires.
     */
    public void send(ByteBuf payload) {
        drain();
        channel.write(new MySqlPacket(sequence++ & 0xFF, payload), channel.voidPromise());
    }

    public boolean isWritable() {
        return channel.isWritable();
    }

    /**
     * Runs {@code action} once, the next time the client's socket accepts writes again, or at once
     * when the client is gone: a closed channel never becomes writable, and a source paused for it
     * (a shard connection with reading off) would stay busy, out of its pool, for ever.
     */
    public void onWritable(Runnable action) {
        arm(action, null);
    }

    private void arm(Runnable action, BackendConnection source) {
        synchronized (writable) {
            onWritable = action;
            pausedSource = source;
        }
        if (channel.isWritable() || !channel.isActive()) {
            fireWritable();
        }
    }

    private void fireWritable() {
        Runnable action;
        synchronized (writable) {
            action = onWritable;
            onWritable = null;
            pausedSource = null;
        }
        if (action != null) {
            action.run();
        }
    }

    /** The sequence id the next packet of this response takes (an ERR after part of a result, say). */
    public int nextSequence() {
        return sequence & 0xFF;
    }

    public void flush() {
        drain();
        channel.flush();
    }

    public boolean isActive() {
        return channel.isActive();
    }

    /** The client's socket accepts writes again, or the client is gone (called on its event loop). */
    public void writabilityChanged() {
        synchronized (writable) {
            writable.notifyAll();
        }
        if (channel.isWritable() || !channel.isActive()) {
            fireWritable();
        }
    }

    private void awaitWritable() {
        synchronized (writable) {
            while (!channel.isWritable() && channel.isActive()) {
                try {
                    writable.wait(TimeUnit.MILLISECONDS.toMillis(100));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
