package io.shardgate.proxy.session;

import java.util.Map;

/**
 * The character set a client asks for in its handshake, as the session settings that give a
 * backend connection (which Shardgate opens with utf8mb4_general_ci) the same state: what the
 * server itself would have set for that client. Ids the table does not know keep utf8mb4, as a
 * MariaDB server does for ids it does not know.
 */
public final class HandshakeCharset {
    /** The collation Shardgate's backend connections log in with. */
    public static final int BACKEND_COLLATION = 45;

    private record Entry(String charset, String collation) {
    }

    private static final Map<Integer, Entry> KNOWN = Map.ofEntries(
            Map.entry(8, new Entry("latin1", "latin1_swedish_ci")),
            Map.entry(47, new Entry("latin1", "latin1_bin")),
            Map.entry(5, new Entry("latin1", "latin1_german1_ci")),
            Map.entry(15, new Entry("latin1", "latin1_danish_ci")),
            Map.entry(31, new Entry("latin1", "latin1_german2_ci")),
            Map.entry(48, new Entry("latin1", "latin1_general_ci")),
            Map.entry(49, new Entry("latin1", "latin1_general_cs")),
            Map.entry(94, new Entry("latin1", "latin1_spanish_ci")),
            Map.entry(33, new Entry("utf8mb3", "utf8mb3_general_ci")),
            Map.entry(83, new Entry("utf8mb3", "utf8mb3_bin")),
            Map.entry(192, new Entry("utf8mb3", "utf8mb3_unicode_ci")),
            Map.entry(46, new Entry("utf8mb4", "utf8mb4_bin")),
            Map.entry(224, new Entry("utf8mb4", "utf8mb4_unicode_ci")),
            Map.entry(63, new Entry("binary", "binary")),
            Map.entry(11, new Entry("ascii", "ascii_general_ci")),
            Map.entry(28, new Entry("gbk", "gbk_chinese_ci")),
            Map.entry(88, new Entry("sjis", "sjis_bin")),
            Map.entry(13, new Entry("sjis", "sjis_japanese_ci")));

    private HandshakeCharset() {
    }

    /** The system variables a fresh session of a client with {@code collationId} has, relative to a backend login. */
    public static SessionVariables settings(int collationId) {
        Entry entry = KNOWN.get(collationId);
        if (entry == null) {
            return SessionVariables.NONE;
        }
        return SessionVariables.of(Map.of("character_set_client", entry.charset, "character_set_connection", entry.charset,
                "character_set_results", entry.charset, "collation_connection", entry.collation));
    }
}
