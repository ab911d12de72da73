package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Compatibility rewrites for MariaDB backends. MySQL Connector/J 8+ reads
 * {@code @@transaction_isolation} and {@code @@transaction_read_only}, which MariaDB 10.11 does
 * not know (ERR 1193); MariaDB's names are {@code tx_isolation} and {@code tx_read_only}. Only
 * the {@code @@} system-variable form is rewritten, so column aliases and strings stay as they are.
 */
final class QueryRewriter {
    private static final Pattern VARIABLE = Pattern.compile(
            "@@((?:session\\.|global\\.|local\\.)?)transaction_(isolation|read_only)\\b", Pattern.CASE_INSENSITIVE);

    private QueryRewriter() {
    }

    /** Returns {@code packet} itself when nothing changes, else a new packet (and releases the old one). */
    static MySqlPacket rewrite(MySqlPacket packet, String sql) {
        if (sql.indexOf("@@") < 0 || !containsIgnoreCase(sql, "transaction_")) {
            return packet;
        }
        String rewritten = VARIABLE.matcher(sql).replaceAll("@@$1tx_$2");
        if (rewritten.equals(sql)) {
            return packet;
        }
        byte[] bytes = rewritten.getBytes(StandardCharsets.UTF_8);
        ByteBuf payload = Unpooled.buffer(1 + bytes.length).writeByte(Command.QUERY.code()).writeBytes(bytes);
        int sequence = packet.sequenceId();
        packet.release();
        return new MySqlPacket(sequence, payload);
    }

    private static boolean containsIgnoreCase(String text, String lowerNeedle) {
        return text.toLowerCase(java.util.Locale.ROOT).contains(lowerNeedle);
    }
}
