package io.shardgate.proxy.backend;

import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Reads the whole response to one of Shardgate's own commands (a SET, a reset, a prepare, a small
 * query) into a future: the response's packets go to {@code result} when it ends with OK or EOF, and
 * an ERR completes the future with a {@link BackendErrorException}. Nothing of it reaches a client.
 */
final class ResponseCollector<T> implements ResponseSink {
    private final Function<List<byte[]>, T> result;
    private final boolean keepPackets;
    private final List<byte[]> packets = new ArrayList<>();
    private final CompletableFuture<T> future = new CompletableFuture<>();
    private ErrPacket error;

    /** @param keepPackets false when {@code result} does not read the packets (a command answered by OK) */
    ResponseCollector(Function<List<byte[]>, T> result, boolean keepPackets) {
        this.result = requireNonNull(result, "result is null");
        this.keepPackets = keepPackets;
    }

    CompletableFuture<T> result() {
        return future;
    }

    @Override
    public void packet(MySqlPacket response) {
        try {
            if (response.header() == ErrPacket.HEADER && error == null) {
                error = ErrPacket.decode(response.payload());
            } else if (error == null && keepPackets) {
                byte[] bytes = new byte[response.payload().readableBytes()];
                response.payload().getBytes(response.payload().readerIndex(), bytes);
                packets.add(bytes);
            }
        } finally {
            response.release();
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void complete(int status, boolean failed) {
        if (failed && error != null) {
            future.completeExceptionally(new BackendErrorException(error));
            return;
        }
        try {
            future.complete(result.apply(packets));
        } catch (RuntimeException e) {
            future.completeExceptionally(e);
        }
    }

    @Override
    public void failed(Throwable cause) {
        future.completeExceptionally(cause);
    }
}
