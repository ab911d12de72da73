package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.session.ClientStatement;

/**
 * Checks a client's prepared-statement command against the protocol and the statement it names,
 * before any of it reaches a backend: a backend must only ever see packets it answers in the way
 * the response tracker expects. Each check returns null for a well-formed packet, else the error
 * to answer:
 *
 * <ul>
 *   <li>a head that is cut short (no statement id, no flags or iteration count, no row count, no
 *       parameter number): {@link ErrorCode#MALFORMED_PACKET}, which closes the client connection;</li>
 *   <li>a COM_STMT_EXECUTE parameter block that does not match the statement (NULL bitmap or
 *       new-params-bound flag missing, a flag other than 0 or 1, types left out on a statement that
 *       never had any, an unknown field type, a value cut short or a length that runs past the
 *       packet): {@link ErrorCode#WRONG_ARGUMENTS}, as MariaDB answers; the session stays usable;</li>
 *   <li>COM_STMT_SEND_LONG_DATA for a parameter the statement does not have: it has no response, so
 *       the error waits for the statement's next execute, as in MariaDB.</li>
 * </ul>
 *
 * <p>Layouts: https://mariadb.com/kb/en/com_stmt_execute/, com_stmt_fetch/, com_stmt_send_long_data/,
 * com_stmt_bulk_execute/. Values of parameters that got long data are not in the packet; with long
 * data pending the values are left for the server to judge.
 */
final class StatementPacketCheck {
    /** Command byte, statement id, flags, iteration count. */
    static final int EXECUTE_HEAD = 10;
    /** Command byte, statement id, number of rows. */
    static final int FETCH_LENGTH = 9;
    /** Command byte, statement id, parameter number. */
    static final int LONG_DATA_HEAD = 7;
    /** Command byte, statement id, flags (2 bytes). */
    static final int BULK_HEAD = 7;

    private StatementPacketCheck() {
    }

    /** The head every statement command shares: the command byte and the statement id. */
    static ShardgateException statementId(ByteBuf payload, Command command) {
        return payload.readableBytes() < 5 ? malformed("COM_" + command + " without a statement id: " + payload.readableBytes()
                + " bytes (expected: >= 5)") : null;
    }

    /** COM_STMT_EXECUTE, COM_STMT_FETCH or COM_STMT_BULK_EXECUTE of {@code statement}. */
    static ShardgateException check(ByteBuf payload, Command command, ClientStatement statement, boolean longDataPending) {
        return switch (command) {
            case STMT_EXECUTE -> execute(payload, statement, longDataPending);
            case STMT_FETCH -> payload.readableBytes() < FETCH_LENGTH ? malformed("COM_STMT_FETCH: "
                    + payload.readableBytes() + " bytes (expected: " + FETCH_LENGTH + ")") : null;
            case STMT_BULK_EXECUTE -> payload.readableBytes() < BULK_HEAD ? malformed("COM_STMT_BULK_EXECUTE: "
                    + payload.readableBytes() + " bytes (expected: >= " + BULK_HEAD + ")") : null;
            default -> null;
        };
    }

    /** Whether a COM_STMT_SEND_LONG_DATA names a parameter of {@code statement} (it has no response either way). */
    static boolean longDataFits(ByteBuf payload, ClientStatement statement) {
        if (payload.readableBytes() < LONG_DATA_HEAD) {
            return false;
        }
        return payload.getUnsignedShortLE(payload.readerIndex() + 5) < statement.parameters();
    }

    static ShardgateException execute(ByteBuf payload, ClientStatement statement, boolean longDataPending) {
        int length = payload.readableBytes();
        if (length < EXECUTE_HEAD) {
            return malformed("COM_STMT_EXECUTE: " + length + " bytes (expected: >= " + EXECUTE_HEAD + ")");
        }
        int parameters = statement.parameters();
        if (parameters == 0) {
            return null; // the server ignores what follows the head
        }
        int end = payload.readerIndex() + length;
        int bitmap = payload.readerIndex() + EXECUTE_HEAD;
        int flag = bitmap + (parameters + 7) / 8;
        if (flag >= end) {
            return wrongArguments();
        }
        int bound = payload.getUnsignedByte(flag);
        int at = flag + 1;
        byte[] types;
        if (bound == 1) {
            if (at + 2 * parameters > end) {
                return wrongArguments();
            }
            types = new byte[2 * parameters];
            payload.getBytes(at, types);
            at += types.length;
        } else if (bound == 0) {
            types = statement.parameterTypes();
            if (types == null || types.length != 2 * parameters) {
                return wrongArguments(); // no types now and none before: the backend statement would use another session's
            }
        } else {
            return wrongArguments();
        }
        for (int i = 0; i < parameters; i++) {
            if (!known(types[2 * i] & 0xFF)) {
                return wrongArguments();
            }
        }
        if (longDataPending) {
            return null;
        }
        for (int i = 0; i < parameters; i++) {
            if ((payload.getByte(bitmap + i / 8) & 1 << (i % 8)) != 0) {
                continue;
            }
            at = skipValue(payload, at, end, types[2 * i] & 0xFF);
            if (at < 0) {
                return wrongArguments();
            }
        }
        return null;
    }

    /** The index after the value of {@code type} at {@code at}, or -1 when it runs past {@code end}. */
    private static int skipValue(ByteBuf payload, int at, int end, int type) {
        int size = switch (type) {
            case ColumnDefinition.TYPE_NULL -> 0;
            case ColumnDefinition.TYPE_TINY -> 1;
            case ColumnDefinition.TYPE_SHORT, ColumnDefinition.TYPE_YEAR -> 2;
            case ColumnDefinition.TYPE_LONG, ColumnDefinition.TYPE_INT24, ColumnDefinition.TYPE_FLOAT -> 4;
            case ColumnDefinition.TYPE_LONGLONG, ColumnDefinition.TYPE_DOUBLE -> 8;
            case ColumnDefinition.TYPE_DATE, ColumnDefinition.TYPE_NEWDATE, ColumnDefinition.TYPE_DATETIME,
                    ColumnDefinition.TYPE_DATETIME2, ColumnDefinition.TYPE_TIMESTAMP, ColumnDefinition.TYPE_TIMESTAMP2,
                    ColumnDefinition.TYPE_TIME, ColumnDefinition.TYPE_TIME2 -> {
                if (at >= end) {
                    yield -1;
                }
                int n = payload.getUnsignedByte(at);
                at++;
                yield n;
            }
            default -> {
                if (at >= end) {
                    yield -1;
                }
                int first = payload.getUnsignedByte(at);
                int prefix = switch (first) {
                    case 0xFC -> 2;
                    case 0xFD -> 3;
                    case 0xFE -> 8;
                    case 0xFB, 0xFF -> -1;
                    default -> 0;
                };
                if (prefix < 0 || at + 1 + prefix > end) {
                    yield -1;
                }
                long n = switch (prefix) {
                    case 0 -> first;
                    case 2 -> payload.getUnsignedShortLE(at + 1);
                    case 3 -> payload.getUnsignedMediumLE(at + 1);
                    default -> payload.getLongLE(at + 1);
                };
                if (n < 0 || n > end) {
                    yield -1;
                }
                at += 1 + prefix;
                yield (int) n;
            }
        };
        if (size < 0 || at + (long) size > end) {
            return -1;
        }
        return at + size;
    }

    private static boolean known(int type) {
        return type <= ColumnDefinition.TYPE_TIME2 || type >= ColumnDefinition.TYPE_JSON;
    }

    private static ShardgateException malformed(String what) {
        return ErrorCode.MALFORMED_PACKET.exception(what);
    }

    private static ShardgateException wrongArguments() {
        return ErrorCode.WRONG_ARGUMENTS.exception("mysqld_stmt_execute");
    }
}
