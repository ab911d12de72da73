package io.shardgate.replication.gtid;

import java.util.Collections;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

import static java.util.Objects.requireNonNull;

/**
 * A MariaDB replication position: the last GTID per domain, as in {@code @@gtid_current_pos}
 * ({@code "0-1-42,1-3-7"}). Position A has reached position B when, in every domain of B, A's
 * sequence number is at least B's. Server ids do not take part in the order.
 */
public final class MariaDbGtidPosition {
    private static final MariaDbGtidPosition EMPTY = new MariaDbGtidPosition(Map.of());

    private final Map<Long, MariaDbGtid> byDomain;

    private MariaDbGtidPosition(Map<Long, MariaDbGtid> byDomain) {
        this.byDomain = byDomain;
    }

    public static MariaDbGtidPosition empty() {
        return EMPTY;
    }

    /** Parses a comma-separated list; an empty string is the empty position. Two GTIDs of one domain is an error. */
    public static MariaDbGtidPosition parse(String text) {
        requireNonNull(text, "text is null");
        if (text.isBlank()) {
            return EMPTY;
        }
        Map<Long, MariaDbGtid> byDomain = new TreeMap<>();
        for (String part : text.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            MariaDbGtid gtid = MariaDbGtid.parse(part);
            if (byDomain.put(gtid.domain(), gtid) != null) {
                throw new IllegalArgumentException("GTID position '" + text + "' names domain " + gtid.domain() + " twice");
            }
        }
        return new MariaDbGtidPosition(Collections.unmodifiableMap(byDomain));
    }

    public Map<Long, MariaDbGtid> byDomain() {
        return byDomain;
    }

    /** This position with {@code gtid} applied: its domain's entry becomes {@code gtid} if that is newer. */
    public MariaDbGtidPosition with(MariaDbGtid gtid) {
        MariaDbGtid current = byDomain.get(gtid.domain());
        if (current != null && current.sequence() >= gtid.sequence()) {
            return this;
        }
        if (byDomain.isEmpty() || (current != null && byDomain.size() == 1)) {
            return new MariaDbGtidPosition(Map.of(gtid.domain(), gtid));
        }
        Map<Long, MariaDbGtid> next = new TreeMap<>(byDomain);
        next.put(gtid.domain(), gtid);
        return new MariaDbGtidPosition(Collections.unmodifiableMap(next));
    }

    /** True when every transaction in {@code other} is also in this position. */
    public boolean hasReached(MariaDbGtidPosition other) {
        for (MariaDbGtid wanted : other.byDomain.values()) {
            MariaDbGtid have = byDomain.get(wanted.domain());
            if (have == null || have.sequence() < wanted.sequence()) {
                return false;
            }
        }
        return true;
    }

    public boolean isEmpty() {
        return byDomain.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MariaDbGtidPosition other && byDomain.equals(other.byDomain);
    }

    @Override
    public int hashCode() {
        return byDomain.hashCode();
    }

    @Override
    public String toString() {
        StringJoiner joiner = new StringJoiner(",");
        byDomain.values().forEach(gtid -> joiner.add(gtid.toString()));
        return joiner.toString();
    }
}
