package io.shardgate.proxy.topology;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Where and how the etcd topology store reaches its cluster.
 *
 * @param endpoints  the members' client URLs, such as {@code http://10.0.0.1:2379}
 * @param prefix     the deployment's key prefix, such as {@code /shardgate/default}: the document is
 *                   {@code <prefix>/topology}, each proxy's registration {@code <prefix>/proxies/<id>}
 * @param dialTimeout the deadline of every call; the store counts as unavailable once it has not answered for this long
 * @param leaseTtl   how long a proxy's registration outlives the proxy (whole seconds, at least 1)
 */
public record EtcdStoreSettings(List<String> endpoints, String prefix, Duration dialTimeout, Duration leaseTtl) {
    public static final String DEFAULT_PREFIX = "/shardgate/default";

    public EtcdStoreSettings {
        requireNonNull(endpoints, "endpoints is null");
        requireNonNull(prefix, "prefix is null");
        requireNonNull(dialTimeout, "dialTimeout is null");
        requireNonNull(leaseTtl, "leaseTtl is null");
        endpoints = List.copyOf(endpoints);
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("etcd endpoints are empty");
        }
        for (String endpoint : endpoints) {
            if (!isHttpUrl(endpoint)) {
                throw new IllegalArgumentException("etcd endpoint " + endpoint + " is not http(s)://host:port");
            }
        }
        if (!prefix.startsWith("/") || prefix.endsWith("/")) {
            throw new IllegalArgumentException("etcd prefix must start with / and not end with /: " + prefix);
        }
        if (dialTimeout.isNegative() || dialTimeout.isZero()) {
            throw new IllegalArgumentException("etcd dial timeout must be positive: " + dialTimeout);
        }
        if (leaseTtl.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("etcd lease TTL must be at least 1 s: " + leaseTtl);
        }
    }

    private static boolean isHttpUrl(String endpoint) {
        try {
            URI uri = new URI(endpoint);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
                    && uri.getPort() > 0;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** The key of the topology document. */
    String topologyKey() {
        return prefix + "/topology";
    }

    /** The prefix of the proxies' registrations (ends in a slash). */
    String proxiesPrefix() {
        return prefix + "/proxies/";
    }

    /** The lease TTL in whole seconds, rounded up. */
    long leaseTtlSeconds() {
        return (leaseTtl.toMillis() + 999) / 1000;
    }

    /** "etcd http://a:2379,http://b:2379". */
    String describe() {
        return "etcd " + String.join(",", endpoints);
    }
}
