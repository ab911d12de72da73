package io.shardgate.proxy.topology;

/** Lets integration tests make an etcd store "die": its lease is no longer renewed, nor revoked. */
public final class EtcdStoreCrash {
    private EtcdStoreCrash() {
    }

    public static void die(EtcdTopologyStore store) {
        store.abandonForTest();
    }
}
