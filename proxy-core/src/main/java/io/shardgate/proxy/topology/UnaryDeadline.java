package io.shardgate.proxy.topology;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Gives every unary etcd call a gRPC deadline (streams, the watch and the lease keep-alive, live on). Without one, a
 * call made while etcd is away waits in the channel for a connection and is sent when etcd is back: a
 * compare-and-set the caller was told had failed would then be applied seconds later. With it, gRPC drops the call
 * at the deadline; one that was sent in time and answered late is the documented "cannot know" case.
 */
public final class UnaryDeadline implements ClientInterceptor {
    private final Supplier<Duration> deadline;

    public UnaryDeadline(Supplier<Duration> deadline) {
        this.deadline = deadline;
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        if (method.getType() != MethodDescriptor.MethodType.UNARY || options.getDeadline() != null) {
            return next.newCall(method, options);
        }
        return next.newCall(method, options.withDeadlineAfter(deadline.get().toNanos(), TimeUnit.NANOSECONDS));
    }
}
