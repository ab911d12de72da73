package io.shardgate.proxy.frontend;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Shardgate's own client sessions as rows of {@code SHOW PROCESSLIST} and
 * {@code information_schema.PROCESSLIST}: the ids the handshake announced, {@code CONNECTION_ID()}
 * answers and KILL takes. Like a MariaDB account without the PROCESS privilege, a client sees the
 * sessions of its own user (the ones KILL lets it end). The asking session itself is running the
 * statement that reads the list, as MariaDB shows it.
 */
final class ProcessList {
    /** MariaDB's {@code PROCESS_LIST_INFO_WIDTH}: information_schema.PROCESSLIST's INFO is cut there. */
    static final int INFO_WIDTH = 65535;

    /** One session. {@code db} and {@code info} may be null; {@code state} is empty for a sleeping session. */
    record Row(long id, String user, String host, String db, String command, long timeMs, String state, String info) {
        /** Whole seconds, as the {@code Time} column shows them. */
        long seconds() {
            return timeMs / 1000;
        }
    }

    private ProcessList() {
    }

    /**
     * The sessions of {@code asking}'s user, by id, at {@code nowNanos}; the asking session's state
     * is {@code askingState} (MariaDB's {@code starting} for SHOW PROCESSLIST, {@code Filling schema
     * table} for information_schema).
     */
    static List<Row> rows(ConnectionRegistry registry, ClientSession asking, String askingState, long nowNanos) {
        List<Row> rows = new ArrayList<>();
        for (ClientSession session : registry.sessions()) {
            if (!session.user().equals(asking.user())) {
                continue;
            }
            SessionActivity activity = session.activity();
            String command = activity.command();
            String info = activity.info();
            long elapsed = Math.max(0, nowNanos - activity.sinceNanos());
            String state = session == asking ? askingState : command.equals("Sleep") ? "" : "Executing";
            String schema = session.schema();
            rows.add(new Row(session.connectionId(), session.user(), host(session), schema == null || schema.isEmpty() ? null : schema,
                    command, TimeUnit.NANOSECONDS.toMillis(elapsed), state, info));
        }
        rows.sort(Comparator.comparingLong(Row::id));
        return rows;
    }

    /** {@code address:port} as MariaDB's Host column shows a TCP client. */
    private static String host(ClientSession session) {
        return session.channel().remoteAddress() instanceof InetSocketAddress address
                ? session.host() + ":" + address.getPort() : session.host();
    }
}
