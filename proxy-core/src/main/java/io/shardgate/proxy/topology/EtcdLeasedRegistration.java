package io.shardgate.proxy.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * This proxy's registration in etcd: the JSON under {@code <prefix>/proxies/<id>}, attached to a lease that jetcd keeps
 * alive. When the lease is lost (etcd was away for longer than its TTL, or said it no longer knows it), the store's
 * probe calls {@link #renewIfLost(boolean)} once etcd answers again: a new lease, the registration put again.
 */
final class EtcdLeasedRegistration {
    private final Client client;
    private final EtcdCalls calls;
    private final RegistrationJson json;
    private final String proxiesPrefix;
    private final long ttlSeconds;
    // Written under this.
    private ProxyRegistration registration;
    private volatile long leaseId;
    private CloseableClient keepAlive;
    /** The lease is gone, or the registration could not be written: the probe registers again. */
    private volatile boolean leaseLost;

    EtcdLeasedRegistration(Client client, EtcdCalls calls, RegistrationJson json, String proxiesPrefix, long ttlSeconds) {
        this.client = client;
        this.calls = calls;
        this.json = json;
        this.proxiesPrefix = proxiesPrefix;
        this.ttlSeconds = ttlSeconds;
    }

    synchronized void register(ProxyRegistration newRegistration) {
        if (registration != null && !registration.id().equals(newRegistration.id())) {
            throw new IllegalArgumentException("this store registers proxy " + registration.id() + ", not "
                    + newRegistration.id());
        }
        registration = newRegistration;
        try {
            if (leaseId == 0 || leaseLost) {
                grantLease();
            }
            put();
        } catch (TopologyStoreUnavailableException e) {
            // Not registered (or not updated) now: the probe registers it once etcd answers.
            leaseLost = true;
            throw e;
        }
    }

    /**
     * Registers again under a new lease when the lease was lost, or when the registration is gone from etcd (its lease
     * expired while etcd was away). Called once etcd answers after an outage, and then every probe while the lease is
     * known lost.
     */
    synchronized void renewIfLost(boolean afterOutage) {
        if (registration == null) {
            return;
        }
        if (!leaseLost && afterOutage) {
            long count = calls.await("check the registration of proxy " + registration.id(),
                    () -> client.getKVClient().get(key(), GetOption.builder()
                            .withCountOnly(true).build())).getCount();
            leaseLost = count == 0;
        }
        if (leaseLost) {
            grantLease();
            put();
        }
    }

    boolean leaseLost() {
        return leaseLost;
    }

    private void grantLease() {
        stopKeepAlive();
        long id = calls.await("grant a lease of " + ttlSeconds + " s", () -> client.getLeaseClient().grant(ttlSeconds))
                .getID();
        leaseId = id;
        leaseLost = false;
        keepAlive = client.getLeaseClient().keepAlive(id, new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse response) {
                if (response.getTTL() <= 0) {
                    lost(id);
                }
            }

            @Override
            public void onError(Throwable error) {
                lost(id);
            }

            @Override
            public void onCompleted() {
                lost(id);
            }
        });
    }

    /** From jetcd's threads, so it takes no lock (a call waiting under the lock may need those threads). */
    private void lost(long id) {
        if (id == leaseId) {
            leaseLost = true;
        }
    }

    private void put() {
        ByteSequence value = ByteSequence.from(json.write(registration), StandardCharsets.UTF_8);
        long lease = leaseId;
        calls.await("register proxy " + registration.id(),
                () -> client.getKVClient().put(key(), value, PutOption.builder().withLeaseId(lease).build()));
    }

    private ByteSequence key() {
        return ByteSequence.from(proxiesPrefix + registration.id(), StandardCharsets.UTF_8);
    }

    /** Revokes the lease, which deletes the registration, waiting at most {@code deadline}; best effort. */
    synchronized void revoke(Duration deadline) {
        stopKeepAlive();
        if (leaseId != 0) {
            long lease = leaseId;
            leaseId = 0;
            try {
                calls.await("revoke lease " + Long.toHexString(lease), deadline,
                        () -> client.getLeaseClient().revoke(lease));
            } catch (TopologyStoreUnavailableException e) {
                // The lease expires by itself after its TTL.
            }
        }
    }

    /** Stops renewing the lease without revoking it: etcd drops the registration after the TTL, as if we died. */
    synchronized void abandon() {
        stopKeepAlive();
        leaseId = 0;
    }

    private void stopKeepAlive() {
        if (keepAlive != null) {
            keepAlive.close();
            keepAlive = null;
        }
    }
}
