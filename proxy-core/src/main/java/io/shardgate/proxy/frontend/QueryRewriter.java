package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Rewrites that keep the proxy transparent. {@code CONNECTION_ID()} answers Shardgate's own
 * connection id, the one the handshake announced and KILL takes; the backend's id would name
 * another client's session, or nothing. And MySQL Connector/J 8+ reads
 * {@code @@transaction_isolation} and {@code @@transaction_read_only}, which MariaDB 10.11 does
 * not know (ERR 1193); MariaDB's names are {@code tx_isolation} and {@code tx_read_only}. Only
 * the {@code @@} system-variable form is rewritten, so column aliases and strings stay as they are.
 */
final class QueryRewriter {
    private static final Pattern VARIABLE = Pattern.compile(
            "@@((?:session\\.|global\\.|local\\.)?)transaction_(isolation|read_only)\\b", Pattern.CASE_INSENSITIVE);

    private static final Pattern CONNECTION_ID = Pattern.compile("\\bCONNECTION_ID\\s*\\(\\s*\\)",
            Pattern.CASE_INSENSITIVE);

    private QueryRewriter() {
    }

    /** The statement text with the rewrites applied ({@code sql} itself when nothing changes). */
    static String rewrite(String sql, long connectionId) {
        String rewritten = sql;
        if (sql.indexOf("@@") >= 0 && SqlText.containsIgnoreCase(sql, "transaction_")) {
            rewritten = VARIABLE.matcher(rewritten).replaceAll("@@$1tx_$2");
        }
        if (SqlText.containsIgnoreCase(sql, "connection_id")) {
            rewritten = CONNECTION_ID.matcher(rewritten).replaceAll(Long.toString(connectionId));
        }
        return rewritten;
    }

    /** Returns {@code packet} itself when nothing changes, else a new packet (and releases the old one). */
    static MySqlPacket rewrite(MySqlPacket packet, String sql, long connectionId) {
        String rewritten = rewrite(sql, connectionId);
        if (rewritten.equals(sql)) {
            return packet;
        }
        byte[] bytes = rewritten.getBytes(StandardCharsets.UTF_8);
        ByteBuf payload = Unpooled.buffer(1 + bytes.length).writeByte(Command.QUERY.code()).writeBytes(bytes);
        int sequence = packet.sequenceId();
        packet.release();
        return new MySqlPacket(sequence, payload);
    }
}
