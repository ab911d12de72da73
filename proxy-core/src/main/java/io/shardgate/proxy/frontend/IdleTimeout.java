package io.shardgate.proxy.frontend;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Fires {@link IdleStateEvent#ALL_IDLE_STATE_EVENT} when a client connection has neither sent nor
 * been sent anything for the idle timeout ({@link FrontendHandler} closes it unless a command is
 * running). Netty's {@code IdleStateHandler} watches writes by a listener on every write's promise,
 * which costs a promise and a listener per packet; this handler notes the time per read and per
 * flush instead (a response is flushed, not written, last), which marks the same moments.
 */
final class IdleTimeout extends ChannelDuplexHandler implements Runnable {
    private final long timeoutNanos;
    private final LongSupplier nanoTime;
    private ChannelHandlerContext ctx;
    private long lastActivity;
    private ScheduledFuture<?> check;

    IdleTimeout(Duration timeout) {
        this(timeout, System::nanoTime);
    }

    IdleTimeout(Duration timeout, LongSupplier nanoTime) {
        this.timeoutNanos = timeout.toNanos();
        this.nanoTime = nanoTime;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (ctx.channel().isActive()) {
            start();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start();
        ctx.fireChannelActive();
    }

    private void start() {
        if (timeoutNanos <= 0 || check != null) {
            return;
        }
        lastActivity = nanoTime.getAsLong();
        schedule(timeoutNanos);
    }

    private void schedule(long delayNanos) {
        check = ctx.executor().schedule(this, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        lastActivity = nanoTime.getAsLong();
        ctx.fireChannelRead(msg);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        lastActivity = nanoTime.getAsLong();
        ctx.flush();
    }

    /** The check: idle for the whole timeout fires the event (and checks again a timeout later), else waits for the rest. */
    @Override
    public void run() {
        if (!ctx.channel().isOpen()) {
            return;
        }
        long idle = nanoTime.getAsLong() - lastActivity;
        if (idle >= timeoutNanos) {
            schedule(timeoutNanos);
            ctx.fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        } else {
            schedule(timeoutNanos - idle);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        stop();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    private void stop() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }
}
