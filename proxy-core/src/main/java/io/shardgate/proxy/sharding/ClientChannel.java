package io.shardgate.proxy.sharding;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.shardgate.proxy.protocol.MySqlPacket;

import java.util.concurrent.TimeUnit;

/**
 * The client connection as a plan worker writes a response to it: packets numbered from 1, and
 * backpressure: while the client's socket buffer is full the worker waits (and so stops reading
 * shard rows, which stops the shards' connections in turn).
 */
public final class ClientChannel {
    private final Channel channel;
    private final long capabilities;
    private final Object writable = new Object();
    private int sequence = 1;
    private Runnable onWritable;

    public ClientChannel(Channel channel, long capabilities) {
        this.channel = channel;
        this.capabilities = capabilities;
    }

    long capabilities() {
        return capabilities;
    }

    ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /** Starts a new response (sequence ids from 1 again). */
    public void restart() {
        sequence = 1;
    }

    void write(ByteBuf payload) {
        channel.write(new MySqlPacket(sequence++ & 0xFF, payload), channel.voidPromise());
        if (!channel.isWritable()) {
            channel.flush();
            awaitWritable();
        }
    }

    /**
     * Writes without waiting for the client (on an event loop, where waiting would block it); the
     * caller checks {@link #isWritable()} and pauses its source until {@link #onWritable} fires.
     */
    void send(ByteBuf payload) {
        channel.write(new MySqlPacket(sequence++ & 0xFF, payload), channel.voidPromise());
    }

    boolean isWritable() {
        return channel.isWritable();
    }

    /**
     * Runs {@code action} once, the next time the client's socket accepts writes again, or at once
     * when the client is gone: a closed channel never becomes writable, and a source paused for it
     * (a shard connection with reading off) would stay busy, out of its pool, for ever.
     */
    void onWritable(Runnable action) {
        synchronized (writable) {
            onWritable = action;
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
        }
        if (action != null) {
            action.run();
        }
    }

    /** The sequence id the next packet of this response takes (an ERR after part of a result, say). */
    public int nextSequence() {
        return sequence & 0xFF;
    }

    void flush() {
        channel.flush();
    }

    boolean isActive() {
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
