package io.shardgate.proxy.sharding;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

import static java.util.Objects.requireNonNull;

/**
 * Makes the gtrids of one proxy process: {@code sg-<instance>-<counter>}, the instance id random
 * (64 bits) for each process start, so gtrids never repeat across proxies or restarts, and short
 * enough (at most 39 bytes) for XA's 64.
 */
public final class GlobalTransactionIds {
    private static final String PREFIX = "sg-";

    private final String instanceId;
    private final AtomicLong counter = new AtomicLong();

    /** With a fresh random instance id; make one per proxy process. */
    public GlobalTransactionIds() {
        this(randomInstanceId());
    }

    /** With a given instance id (lowercase hex, 1 to 16 digits). */
    public GlobalTransactionIds(String instanceId) {
        requireNonNull(instanceId, "instanceId is null");
        if (!instanceId.matches("[0-9a-f]{1,16}")) {
            throw new IllegalArgumentException("instance id '" + instanceId + "' (expected: 1 to 16 lowercase hex digits)");
        }
        this.instanceId = instanceId;
    }

    private static String randomInstanceId() {
        byte[] bytes = new byte[8];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    public String instanceId() {
        return instanceId;
    }

    /** A gtrid no other call of any proxy returns. */
    public String next() {
        return PREFIX + instanceId + "-" + counter.incrementAndGet();
    }
}
