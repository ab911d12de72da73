package io.shardgate.proxy.topology;

import io.etcd.jetcd.Client;
import io.grpc.ManagedChannel;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Makes jetcd's gRPC channel try to reconnect now. gRPC backs off between reconnection attempts up to
 * two minutes, so after a long etcd outage a proxy would find etcd back only when its backoff ends,
 * tens of seconds late. While the store's probe fails, each probe asks gRPC to try again at once
 * ({@link ManagedChannel#resetConnectBackoff()}): one connection attempt per probe interval instead.
 *
 * <p>jetcd has no accessor for its channel, so this reaches it by reflection ({@code ClientImpl.connectionManager},
 * {@code ClientConnectionManager.getChannel()}, jetcd 0.8). Should jetcd's internals change, it logs once and does
 * nothing: the store then recovers at gRPC's own pace.
 */
public final class ReconnectNow {
    private static final System.Logger LOG = System.getLogger(ReconnectNow.class.getName());
    private final Client client;
    private volatile boolean broken;

    public ReconnectNow(Client client) {
        this.client = client;
    }

    public void reset() {
        if (broken) {
            return;
        }
        try {
            Field manager = client.getClass().getDeclaredField("connectionManager");
            manager.setAccessible(true);
            Object connections = manager.get(client);
            Method channel = connections.getClass().getDeclaredMethod("getChannel");
            channel.setAccessible(true);
            ((ManagedChannel) channel.invoke(connections)).resetConnectBackoff();
        } catch (ReflectiveOperationException | RuntimeException e) {
            broken = true;
            LOG.log(System.Logger.Level.WARNING, "cannot reach jetcd's gRPC channel to reconnect at once after an etcd outage;"
                    + " reconnection follows gRPC's backoff: " + e);
        }
    }
}
