package io.shardgate.proxy.sharding;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.ResponseSink;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.router.plan.InsertSplit;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.ShardSelection;
import io.shardgate.router.plan.StaticRows;
import io.shardgate.router.planner.Planner;
import io.shardgate.router.schema.ShardingSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * COM_STMT_PREPARE in a sharded deployment. The statement is planned first, so a statement the
 * planner refuses gets the planner's error at PREPARE, as its text form would. Its metadata (the
 * result's column definitions) comes from preparing, on a shard the plan routes to, the SQL that
 * shard can run: the plan's own shard SQL when the plan is one route (PARTITION naming shards is
 * gone from it, and the columns are exactly the client's), or, when operators merge shard results
 * (whose shard SQL carries helper columns), the client's statement without its shard PARTITION
 * clauses. The backend statement is closed at once: executions run the plan, with the parameters
 * bound by Shardgate. EXPLAIN SHARDGATE needs no shard: its one column is Shardgate's.
 *
 * <p>The client sees as many parameters as its statement has {@code ?} (the plan's parameter
 * count), whatever the shard SQL has.
 */
public final class ShardedPrepare {
    private static final int PREPARE_OK_LENGTH = 12;
    /** As {@link OutputColumns} types the column at execution. */
    private static final int UTF8MB4_GENERAL_CI = 45;

    private ShardedPrepare() {
    }

    /** Where a statement's metadata is read: {@code sql} prepared on {@code shard}; a null shard for none (EXPLAIN SHARDGATE). */
    public record Source(String shard, String sql, int parameters, List<byte[]> localColumns) {
    }

    /**
     * A prepared statement's metadata as the client gets it.
     *
     * @param parameters the client statement's {@code ?} count
     * @param columns    the result's column definition payloads (empty for a statement without a result)
     * @param warnings   the backend's warning count at PREPARE
     */
    public record Metadata(int parameters, List<byte[]> columns, int warnings) {

        /** The PREPARE response's payloads for statement {@code statementId}, EOF packets included unless the client dropped them. */
        public List<ByteBuf> payloads(int statementId, boolean deprecateEof, int status, ByteBufAllocator alloc) {
            List<ByteBuf> out = new ArrayList<>();
            out.add(alloc.buffer(PREPARE_OK_LENGTH).writeByte(0x00).writeIntLE(statementId).writeShortLE(columns.size())
                    .writeShortLE(parameters).writeByte(0x00).writeShortLE(warnings));
            if (parameters > 0) {
                ColumnDefinition parameter = ColumnDefinition.computed("?", ColumnDefinition.TYPE_VAR_STRING,
                        ColumnDefinition.BINARY_CHARSET, 0, ColumnDefinition.FLAG_BINARY, 0);
                for (int i = 0; i < parameters; i++) {
                    out.add(parameter.encode(alloc));
                }
                if (!deprecateEof) {
                    out.add(eof(status, alloc));
                }
            }
            if (!columns.isEmpty()) {
                for (byte[] column : columns) {
                    out.add(Unpooled.wrappedBuffer(column));
                }
                if (!deprecateEof) {
                    out.add(eof(status, alloc));
                }
            }
            return out;
        }

        private static ByteBuf eof(int status, ByteBufAllocator alloc) {
            return alloc.buffer(5).writeByte(0xFE).writeShortLE(0).writeShortLE(status);
        }
    }

    /** Where {@code plan}'s metadata comes from. */
    public static Source source(Plan plan, ShardingSchema schema) {
        PlanNode root = plan.root();
        if (root instanceof StaticRows rows) {
            return new Source(null, null, plan.parameterCount(), List.of(
                    toBytes(ColumnDefinition.computed(rows.column(), ColumnDefinition.TYPE_VAR_STRING, UTF8MB4_GENERAL_CI, 1024L * 4, 0, 0x27))));
        }
        if (root instanceof Route route) {
            return new Source(shardOf(route), route.sql().text(), plan.parameterCount(), null);
        }
        PlanNode leaf = firstLeaf(root);
        String shard = leaf instanceof Route route ? shardOf(route)
                : leaf instanceof InsertSplit split ? split.candidates().get(0) : schema.defaultShard();
        return new Source(shard, new Planner(schema).withoutShardPartitions(plan.sql()), plan.parameterCount(), null);
    }

    /** A shard the route runs on: its fixed first shard, or (routed per execution) its first candidate, which holds the table too. */
    private static String shardOf(Route route) {
        if (route.selection() instanceof ShardSelection.Keyed keyed) {
            return keyed.candidates().get(0);
        }
        return route.selection().fixed().orElseThrow().get(0);
    }

    private static PlanNode firstLeaf(PlanNode node) {
        return node.inputs().isEmpty() ? node : firstLeaf(node.inputs().get(0));
    }

    private static byte[] toBytes(ColumnDefinition column) {
        ByteBuf encoded = column.encode(io.netty.buffer.UnpooledByteBufAllocator.DEFAULT);
        byte[] bytes = new byte[encoded.readableBytes()];
        encoded.readBytes(bytes);
        encoded.release();
        return bytes;
    }

    /**
     * Prepares {@code source} on {@code connection} and closes it there again; the connection goes
     * back to its pool (closed if its response did not end cleanly). A backend error fails the
     * future with that error. The SQL goes out in the client's character set, as the statement's executions do.
     */
    static CompletableFuture<Metadata> prepareOn(BackendConnection connection, Source source, ClientCharset charset) {
        return prepareOn(connection, source, charset, false);
    }

    /** {@link #prepareOn(BackendConnection, Source, ClientCharset)}; {@code keep}: the connection stays with the session (a lock connection). */
    static CompletableFuture<Metadata> prepareOn(BackendConnection connection, Source source, ClientCharset charset, boolean keep) {
        CompletableFuture<Metadata> result = new CompletableFuture<>();
        Collector collector = new Collector(connection, source.parameters(), result, keep);
        try {
            connection.execute(MySqlPacket.command(Command.STMT_PREPARE, charset.encode(source.sql())), Command.STMT_PREPARE, collector);
        } catch (RuntimeException e) {
            if (!keep) {
                connection.owner().discard(connection);
            }
            result.completeExceptionally(e);
        }
        return result;
    }

    /** Reads a PREPARE response: its OK, then parameter and column definitions (EOF packets skipped). */
    private static final class Collector implements ResponseSink {
        private final BackendConnection connection;
        private final int clientParameters;
        private final CompletableFuture<Metadata> result;
        private final boolean keep;
        private final List<byte[]> definitions = new ArrayList<>();
        private ErrPacket error;
        private int statementId = -1;
        private int columns;
        private int parameters;
        private int warnings;

        Collector(BackendConnection connection, int clientParameters, CompletableFuture<Metadata> result, boolean keep) {
            this.connection = connection;
            this.keep = keep;
            this.clientParameters = clientParameters;
            this.result = result;
        }

        @Override
        public void packet(MySqlPacket packet) {
            try {
                ByteBuf payload = packet.payload();
                int header = packet.header();
                if (header == ErrPacket.HEADER) {
                    if (error == null && statementId < 0) {
                        error = ErrPacket.decode(payload);
                    }
                } else if (statementId < 0 && header == 0x00 && payload.readableBytes() >= 9) {
                    int at = payload.readerIndex();
                    statementId = payload.getIntLE(at + 1);
                    columns = payload.getUnsignedShortLE(at + 5);
                    parameters = payload.getUnsignedShortLE(at + 7);
                    warnings = payload.readableBytes() >= 12 ? payload.getUnsignedShortLE(at + 10) : 0;
                } else if (!(header == 0xFE && payload.readableBytes() < 9)) {
                    byte[] bytes = new byte[payload.readableBytes()];
                    payload.getBytes(payload.readerIndex(), bytes);
                    definitions.add(bytes);
                }
            } finally {
                packet.release();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void complete(int status, boolean failed) {
            if (statementId >= 0) {
                connection.closeStatement(statementId);
            }
            if (!keep && connection.isOpen()) {
                connection.owner().release(connection);
            } else if (!keep) {
                connection.owner().discard(connection);
            }
            if (error != null) {
                result.completeExceptionally(new BackendErrorException(error));
            } else if (statementId < 0 || definitions.size() != parameters + columns) {
                result.completeExceptionally(new IllegalStateException("a PREPARE response of " + definitions.size()
                        + " definitions for " + parameters + " parameters and " + columns + " columns"));
            } else {
                result.complete(new Metadata(clientParameters, List.copyOf(definitions.subList(parameters, definitions.size())),
                        warnings));
            }
        }

        @Override
        public void failed(Throwable cause) {
            if (!keep) {
                connection.owner().discard(connection);
            }
            result.completeExceptionally(cause);
        }
    }
}
