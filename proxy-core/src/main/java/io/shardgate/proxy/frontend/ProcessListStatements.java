package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.LocalResultSet;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.router.classify.Classification;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.shardgate.proxy.protocol.ColumnDefinition.BINARY_CHARSET;
import static io.shardgate.proxy.protocol.ColumnDefinition.FLAG_BINARY;
import static io.shardgate.proxy.protocol.ColumnDefinition.FLAG_NOT_NULL;

/**
 * The process list is Shardgate's: {@code SHOW [FULL] PROCESSLIST} is answered by the proxy with
 * the column definitions MariaDB 10.11 sends, and a statement that reads
 * {@code information_schema.PROCESSLIST} goes to a backend with the proxy's sessions in place of the
 * table ({@link ProcessListQuery}). Either way the rows are the clients of Shardgate, whose ids
 * {@code KILL} takes, never a backend's threads.
 */
final class ProcessListStatements {
    /** MariaDB's {@code PROCESS_LIST_WIDTH}: SHOW PROCESSLIST without FULL cuts Info there. */
    static final int SHOW_INFO_WIDTH = 100;
    private static final int UTF8MB4_GENERAL_CI = 45;
    private static final int TEXT_DECIMALS = 39;
    /** As MariaDB 10.11 describes SHOW PROCESSLIST's columns to a utf8mb4 client (the text lengths are in bytes). */
    private static final List<ColumnDefinition> SHOW_COLUMNS = List.of(
            ColumnDefinition.computed("Id", ColumnDefinition.TYPE_LONGLONG, BINARY_CHARSET, 11, FLAG_NOT_NULL | FLAG_BINARY, 0),
            text("User", 128, true), text("Host", 64, true), text("db", 64, false), text("Command", 16, true),
            ColumnDefinition.computed("Time", ColumnDefinition.TYPE_LONG, BINARY_CHARSET, 7, FLAG_NOT_NULL | FLAG_BINARY, 0),
            text("State", 30, false), text("Info", SHOW_INFO_WIDTH, false),
            ColumnDefinition.computed("Progress", ColumnDefinition.TYPE_DOUBLE, BINARY_CHARSET, 7, FLAG_NOT_NULL | FLAG_BINARY, 3));
    /** SHOW FULL PROCESSLIST's Info: a LONGTEXT as MariaDB describes it. */
    private static final ColumnDefinition FULL_INFO = ColumnDefinition.computed("Info", ColumnDefinition.TYPE_LONG_BLOB,
            UTF8MB4_GENERAL_CI, 201326592L, 0, TEXT_DECIMALS);

    private final CommandScope scope;

    ProcessListStatements(CommandScope scope) {
        this.scope = scope;
    }

    private static ColumnDefinition text(String name, int chars, boolean notNull) {
        return ColumnDefinition.computed(name, ColumnDefinition.TYPE_VAR_STRING, UTF8MB4_GENERAL_CI, chars * 4L,
                notNull ? FLAG_NOT_NULL : 0, TEXT_DECIMALS);
    }

    /**
     * Answers {@code sql} (read from {@code packet}, which this method then owns) if it reads the
     * process list; false (the packet untouched) when it does not.
     */
    boolean answer(MySqlPacket packet, String sql, Classification classification) {
        if (classification.multiStatement() || !SqlText.containsIgnoreCase(sql, "processlist")) {
            return false; // nearly every statement: one scan, no lexing
        }
        Boolean full = ProcessListQuery.show(sql);
        if (full != null) {
            packet.release();
            scope.writeResult(show(full));
            return true;
        }
        ClientSession session = scope.session();
        String withRows = ProcessListQuery.rewrite(sql, session.noBackslashEscapes(), session.schema(), () -> rows("Filling schema table"));
        if (withRows == null) {
            return false;
        }
        ClientCharset charset = session.clientCharset();
        boolean exact = StatementText.exact(charset, packet, sql);
        packet.release();
        byte[] bytes;
        try {
            if (!exact) {
                throw ClientCharset.UnmappableTextException.invalid(charset);
            }
            // CONNECTION_ID() is the proxy's id here too (WHERE ID = CONNECTION_ID()).
            bytes = charset.encode(QueryRewriter.rewrite(withRows, session.connectionId(), session.noBackslashEscapes()));
        } catch (ClientCharset.UnmappableTextException e) {
            scope.writeError(1, scope.context().errors().translate(e).packet());
            return true;
        }
        MySqlPacket query = MySqlPacket.command(Command.QUERY, bytes);
        scope.runner().query(query, classification, false, null, false);
        return true;
    }

    private List<ProcessList.Row> rows(String askingState) {
        return ProcessList.rows(scope.context().registry(), scope.session(), askingState, System.nanoTime());
    }

    private LocalResultSet show(boolean full) {
        List<List<String>> rows = new ArrayList<>();
        for (ProcessList.Row row : rows("starting")) {
            String info = row.info();
            if (!full && info != null && info.length() > SHOW_INFO_WIDTH) {
                info = info.substring(0, SHOW_INFO_WIDTH);
            }
            rows.add(Arrays.asList(Long.toString(row.id()), row.user(), row.host(), row.db(), row.command(),
                    Long.toString(row.seconds()), row.state(), info, "0.000"));
        }
        List<ColumnDefinition> columns = SHOW_COLUMNS;
        if (full) {
            columns = new ArrayList<>(SHOW_COLUMNS);
            columns.set(7, FULL_INFO);
        }
        return LocalResultSet.of(columns, rows);
    }
}
