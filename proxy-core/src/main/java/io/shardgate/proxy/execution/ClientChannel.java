package io.shardgate.proxy.execution;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.protocol.MySqlPacket;

import java.util.concurrent.TimeUnit;

/**
 * The client connection as a response is written to it: packets numbered from 1 (or relayed with
 * the backend's numbers), and backpressure: while the client's socket buffer is full a plan worker
 * waits (and so stops reading shard rows, which stops the shards' connections in turn), and a
 * relay on an event loop stops its backend connection's reads ({@link #pauseWhileFull}).
 */
public final class ClientChannel {
    private final Channel channel;
    private final long capabilities;
    private final Object writable = new Object();
    private int sequence = 1;
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
        channel.write(new MySqlPacket(sequence++ & 0xFF, payload), channel.voidPromise());
        if (!channel.isWritable()) {
            channel.flush();
            awaitWritable();
        }
    }

    /** Writes a backend's packet as it is, sequence id included (a byte-for-byte relay); the response continues after it. */
    public void relay(MySqlPacket packet) {
        sequence = packet.sequenceId() + 1;
        channel.write(packet, channel.voidPromise());
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
