package io.shardgate.replication.gtid;

/**
 * One MariaDB GTID, {@code domain-server-sequence}, such as {@code 0-1-42}. The sequence number
 * orders transactions within a domain; the server id records who wrote it.
 */
public record MariaDbGtid(long domain, long server, long sequence) {
    public MariaDbGtid {
        if (domain < 0 || server < 0 || sequence < 0) {
            throw new IllegalArgumentException("GTID parts must be non-negative: " + domain + "-" + server + "-" + sequence);
        }
    }

    public static MariaDbGtid parse(String text) {
        String[] parts = text.trim().split("-", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("GTID '" + text + "' must be DOMAIN-SERVER-SEQUENCE, such as 0-1-42");
        }
        try {
            return new MariaDbGtid(Long.parseUnsignedLong(parts[0]), Long.parseUnsignedLong(parts[1]),
                    Long.parseUnsignedLong(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("GTID '" + text + "' must be DOMAIN-SERVER-SEQUENCE, such as 0-1-42", e);
        }
    }

    @Override
    public String toString() {
        return domain + "-" + server + "-" + sequence;
    }
}
