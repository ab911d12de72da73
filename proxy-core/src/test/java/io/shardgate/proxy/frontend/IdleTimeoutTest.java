package io.shardgate.proxy.frontend;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateEvent;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The client idle timeout: the time since the last read or flush, checked by one scheduled task; no write listeners. */
class IdleTimeoutTest {
    private final AtomicLong now = new AtomicLong();
    private final List<Object> events = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel();

    IdleTimeoutTest() {
        channel.freezeTime();
        channel.pipeline().addLast(new IdleTimeout(Duration.ofSeconds(10), now::get), new ChannelInboundHandlerAdapter() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                events.add(evt);
            }
        });
    }

    private void advance(long seconds) {
        now.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
        channel.advanceTimeBy(seconds, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
    }

    @Test
    void firesOnceTheConnectionWasQuietForTheWholeTimeout() {
        advance(9);
        assertThat(events).isEmpty();
        advance(1);
        assertThat(events).containsExactly(IdleStateEvent.ALL_IDLE_STATE_EVENT);
    }

    @Test
    void aReadOrAFlushStartsTheWaitAgain() {
        advance(8);
        channel.writeInbound("command");
        advance(8);
        assertThat(events).as("8 s after the read").isEmpty();
        channel.flush();
        advance(8);
        assertThat(events).as("8 s after the response's flush").isEmpty();
        advance(2);
        assertThat(events).containsExactly(IdleStateEvent.ALL_IDLE_STATE_EVENT);
    }

    @Test
    void writesWithoutAFlushDoNotCountAndAClosedChannelIsNotChecked() {
        channel.write("half a response");
        advance(10);
        assertThat(events).hasSize(1);
        channel.close();
        advance(30);
        assertThat(events).hasSize(1);
    }
}
