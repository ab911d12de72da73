package io.shardgate.proxy.routing;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * The text a client carries from one connection to another for read-your-writes across a pool.
 * Two versions, both read everywhere:
 * <ul>
 *   <li>{@code sg1:mariadb:<GTID position>}, for example {@code sg1:mariadb:0-1-42,1-2-7}: one
 *       position, what a deployment of one shard (unsharded) gives. Presented to a sharded
 *       deployment it holds for every shard (safe, but a shard whose replicas never reach it reads
 *       from its primary).</li>
 *   <li>{@code sg2:mariadb:<shard>=<GTID position>;<shard>=<GTID position>...}, for example
 *       {@code sg2:mariadb:s0=0-1-42;s1=0-2-7}: one position per shard the session wrote, keyed by
 *       shard name, since shards may or may not share GTID domain ids. What a sharded deployment
 *       gives. Shard names appear sorted; characters other than {@code A-Z a-z 0-9 _ . -} are
 *       percent-encoded (UTF-8). A shard the deployment does not know is ignored (no read of this
 *       deployment can see its writes anyway); {@code sg2:mariadb:} names no write.</li>
 * </ul>
 * The flavor field leaves room for MySQL GTID sets ({@code sgN:mysql:...}); this version reads
 * MariaDB positions only.
 */
public final class CausalToken {
    private static final String V1 = "sg1:mariadb:";
    private static final String V2 = "sg2:mariadb:";

    private CausalToken() {
    }

    /** A version 1 token: one position (a deployment of one shard). */
    public static String of(MariaDbGtidPosition position) {
        return V1 + position;
    }

    /** A version 2 token: a position per shard; shards with an empty position are left out. */
    public static String of(Map<String, MariaDbGtidPosition> byShard) {
        StringJoiner shards = new StringJoiner(";");
        new TreeMap<>(byShard).forEach((shard, position) -> {
            if (!position.isEmpty()) {
                shards.add(encode(shard) + "=" + position);
            }
        });
        return V2 + shards;
    }

    /** What {@code token} requires; IllegalArgumentException for anything but a token of either version (or ''). */
    public static Presented parse(String token) {
        requireNonNull(token, "token is null");
        if (token.isEmpty()) {
            return Presented.NONE;
        }
        if (token.startsWith(V1)) {
            return new Presented(Map.of(), MariaDbGtidPosition.parse(token.substring(V1.length())));
        }
        if (!token.startsWith(V2)) {
            throw new IllegalArgumentException("a Shardgate causality token starts with '" + V2 + "' or '" + V1 + "'");
        }
        String body = token.substring(V2.length());
        Map<String, MariaDbGtidPosition> byShard = new LinkedHashMap<>();
        if (!body.isEmpty()) {
            for (String entry : body.split(";", -1)) {
                int equals = entry.indexOf('=');
                if (equals <= 0) {
                    throw new IllegalArgumentException("'" + entry + "' is not <shard>=<GTID position>");
                }
                String shard = decode(entry.substring(0, equals));
                if (byShard.put(shard, MariaDbGtidPosition.parse(entry.substring(equals + 1))) != null) {
                    throw new IllegalArgumentException("the token names shard " + shard + " twice");
                }
            }
        }
        return new Presented(Map.copyOf(byShard), MariaDbGtidPosition.empty());
    }

    /** The position that has reached both {@code a} and {@code b}: per domain, the later GTID. */
    public static MariaDbGtidPosition union(MariaDbGtidPosition a, MariaDbGtidPosition b) {
        MariaDbGtidPosition union = a;
        for (MariaDbGtid gtid : b.byDomain().values()) {
            union = union.with(gtid);
        }
        return union;
    }

    /**
     * What a presented token requires of the replicas that serve the session's reads.
     *
     * @param byShard    per shard, by name (version 2)
     * @param everyShard of every shard (version 1: a position without a shard name)
     */
    public record Presented(Map<String, MariaDbGtidPosition> byShard, MariaDbGtidPosition everyShard) {
        static final Presented NONE = new Presented(Map.of(), MariaDbGtidPosition.empty());

        public Presented {
            byShard = Map.copyOf(byShard);
            requireNonNull(everyShard, "everyShard is null");
        }

        /** What a replica of {@code shard} must have applied. */
        public MariaDbGtidPosition forShard(String shard) {
            return union(byShard.getOrDefault(shard, MariaDbGtidPosition.empty()), everyShard);
        }
    }

    private static String encode(String shard) {
        StringBuilder out = new StringBuilder();
        for (byte b : shard.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if (plain(c)) {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return out.toString();
    }

    private static boolean plain(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    }

    private static String decode(String encoded) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%') {
                int high = i + 2 < encoded.length() ? Character.digit(encoded.charAt(i + 1), 16) : -1;
                int low = i + 2 < encoded.length() ? Character.digit(encoded.charAt(i + 2), 16) : -1;
                if (high < 0 || low < 0) {
                    throw new IllegalArgumentException("bad percent escape in shard name '" + encoded + "'");
                }
                bytes.write(high << 4 | low);
                i += 2;
            } else if (plain(c)) {
                bytes.write(c);
            } else {
                throw new IllegalArgumentException("shard name '" + encoded + "' holds '" + c + "' unescaped");
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
