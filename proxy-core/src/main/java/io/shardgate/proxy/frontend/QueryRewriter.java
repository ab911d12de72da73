package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites that keep the proxy transparent. {@code CONNECTION_ID()} answers Shardgate's own
 * connection id, the one the handshake announced and KILL takes; the backend's id would name
 * another client's session, or nothing. And MySQL Connector/J 8+ reads
 * {@code @@transaction_isolation} and {@code @@transaction_read_only}, which MariaDB 10.11 does
 * not know (ERR 1193); MariaDB's names are {@code tx_isolation} and {@code tx_read_only}.
 *
 * <p>Only what {@link SqlLexer} proves is code is rewritten: the word {@code CONNECTION_ID}
 * (not qualified) followed by {@code (} and {@code )}, and a {@code @@} system variable token. A
 * string, a quoted identifier or a comment that spells the same is left alone. A statement that
 * needs no rewrite keeps its packet; one that does is spliced: every byte outside the rewritten
 * tokens is the client's own.
 *
 * <p>A rewrite would rename its column: {@link SelectAliases} keeps its name.
 */
final class QueryRewriter {
    private static final String TRANSACTION_PREFIX = "TRANSACTION_";

    /**
     * One rewrite: the chars {@code [start, end)} of the statement become {@code replacement}. A
     * rewrite is ASCII ({@code alias} null); an alias is inserted ({@code start == end}) and spells
     * {@code AS `...`} around the statement's own chars {@code alias} (pairs of [from, to) ranges),
     * whose bytes the packet splice copies from the client's packet, backticks doubled.
     */
    record Edit(int start, int end, String replacement, int[] alias) {
        Edit(int start, int end, String replacement) {
            this(start, end, replacement, null);
        }
    }

    private QueryRewriter() {
    }

    /** The rewrites {@code sql} needs, in order; empty (and cheap) for nearly every statement. */
    static List<Edit> edits(String sql, long connectionId, boolean noBackslashEscapes) {
        boolean variables = sql.indexOf("@@") >= 0 && SqlText.containsIgnoreCase(sql, "transaction_");
        boolean connectionIds = SqlText.containsIgnoreCase(sql, "connection_id");
        if (!variables && !connectionIds) {
            return List.of();
        }
        List<Edit> edits = new ArrayList<>(2);
        SqlLexer lexer = new SqlLexer(sql, noBackslashEscapes);
        boolean afterDot = false;
        TokenType type = lexer.next();
        while (type != TokenType.END) {
            if (type == TokenType.VARIABLE && variables) {
                variable(sql, lexer.start(), lexer.end(), edits);
            } else if (type == TokenType.WORD && connectionIds && !afterDot && lexer.isWord("CONNECTION_ID")) {
                int start = lexer.start();
                afterDot = false;
                type = lexer.next();
                if (!lexer.isOperator('(')) {
                    continue; // look at this token again
                }
                type = lexer.next();
                if (!lexer.isOperator(')')) {
                    continue;
                }
                edits.add(new Edit(start, lexer.end(), Long.toString(connectionId)));
            }
            afterDot = lexer.isOperator('.');
            type = lexer.next();
        }
        if (!edits.isEmpty()) {
            SelectAliases.add(sql, noBackslashEscapes, edits);
        }
        return edits;
    }

    /** {@code @@[session.|global.|local.]transaction_isolation | transaction_read_only}: its {@code transaction_} becomes {@code tx_}. */
    private static void variable(String sql, int start, int end, List<Edit> edits) {
        if (end - start < 2 || sql.charAt(start + 1) != '@') {
            return; // a user variable
        }
        int name = start + 2;
        int dot = sql.indexOf('.', name);
        if (dot >= 0 && dot < end) {
            String scope = sql.substring(name, dot);
            if (!(scope.equalsIgnoreCase("session") || scope.equalsIgnoreCase("global") || scope.equalsIgnoreCase("local"))) {
                return;
            }
            name = dot + 1;
        }
        String variable = sql.substring(name, end);
        if (variable.equalsIgnoreCase("transaction_isolation") || variable.equalsIgnoreCase("transaction_read_only")) {
            edits.add(new Edit(name, name + TRANSACTION_PREFIX.length(), "tx_"));
        }
    }

    /** {@code sql} with {@code edits} applied (for statements that are planned, not forwarded). */
    static String apply(String sql, List<Edit> edits) {
        if (edits.isEmpty()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        int at = 0;
        for (Edit edit : edits) {
            out.append(sql, at, edit.start()).append(edit.replacement());
            at = edit.end();
        }
        return out.append(sql, at, sql.length()).toString();
    }

    /** {@code sql} with its rewrites applied ({@code sql} itself when nothing changes). */
    static String rewrite(String sql, long connectionId, boolean noBackslashEscapes) {
        return apply(sql, edits(sql, connectionId, noBackslashEscapes));
    }

    /**
     * The COM_QUERY {@code packet} whose statement {@code sql} was read from in {@code charset}, with
     * its rewrites: {@code packet} itself when there are none, else a new packet (the old one is
     * released) of the original bytes with only the rewritten tokens replaced. Throws
     * {@link ClientCharset.UnmappableTextException} (the packet untouched) when a rewrite is needed in
     * a statement that is not valid text in {@code charset}, where char and byte positions cannot be
     * matched up.
     */
    static MySqlPacket rewrite(MySqlPacket packet, String sql, ClientCharset charset, long connectionId,
                               boolean noBackslashEscapes) {
        List<Edit> edits = edits(sql, connectionId, noBackslashEscapes);
        if (edits.isEmpty()) {
            return packet;
        }
        ByteBuf payload = packet.payload();
        int base = payload.readerIndex() + 1; // after the command byte
        if (!charset.lossless()) {
            byte[] original = new byte[payload.writerIndex() - base];
            payload.getBytes(base, original);
            if (!charset.exact(original, sql)) {
                throw ClientCharset.UnmappableTextException.invalid(charset);
            }
        }
        ByteBuf spliced = Unpooled.buffer(payload.readableBytes() + 16 * edits.size());
        spliced.writeBytes(payload, payload.readerIndex(), 1);
        int charAt = 0;
        int byteAt = base;
        for (Edit edit : edits) {
            int kept = charset.encode(sql, charAt, edit.start()).length;
            spliced.writeBytes(payload, byteAt, kept);
            byteAt += kept + charset.encode(sql, edit.start(), edit.end()).length;
            if (edit.alias() == null) {
                spliced.writeBytes(edit.replacement().getBytes(StandardCharsets.US_ASCII));
            } else {
                writeAlias(spliced, payload, byteAt, sql, charset, edit);
            }
            charAt = edit.end();
        }
        spliced.writeBytes(payload, byteAt, payload.writerIndex() - byteAt);
        int sequence = packet.sequenceId();
        packet.release();
        return new MySqlPacket(sequence, spliced);
    }

    /**
     * Writes {@code AS `...`} for the alias {@code edit} (inserted at the char whose byte in
     * {@code payload} is {@code byteAt}): the item's own bytes, its backticks doubled.
     */
    private static void writeAlias(ByteBuf out, ByteBuf payload, int byteAt, String sql, ClientCharset charset, Edit edit) {
        out.writeBytes(" AS `".getBytes(StandardCharsets.US_ASCII));
        int[] alias = edit.alias();
        int at = byteAt - charset.encode(sql, alias[0], edit.start()).length; // the byte of char alias[0]
        int charAt = alias[0];
        for (int r = 0; r < alias.length; r += 2) {
            at += charset.encode(sql, charAt, alias[r]).length; // skip a comment
            charAt = alias[r];
            while (charAt < alias[r + 1]) {
                int tick = sql.indexOf('`', charAt);
                int stop = tick < 0 || tick >= alias[r + 1] ? alias[r + 1] : tick;
                int length = charset.encode(sql, charAt, stop).length;
                out.writeBytes(payload, at, length);
                at += length;
                charAt = stop;
                if (stop == tick) {
                    out.writeBytes("``".getBytes(StandardCharsets.US_ASCII));
                    at += charset.encode(sql, tick, tick + 1).length;
                    charAt = tick + 1;
                }
            }
        }
        out.writeByte('`');
    }
}
