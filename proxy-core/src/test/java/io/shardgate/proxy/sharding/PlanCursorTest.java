package io.shardgate.proxy.sharding;

import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.proxy.execution.ClientChannel;
import io.shardgate.proxy.execution.Packets;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ValueKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cursor over a plan's row stream ({@link PlanCursor}), against a fake stream of numbered rows and a client
 * {@link EmbeddedChannel}: the packets are MariaDB 10.11's (recorded from the server with a raw client): the column
 * definitions end with CURSOR_EXISTS (an EOF packet, or under CLIENT_DEPRECATE_EOF an OK with the EOF header), each
 * fetch sends at most its count of binary rows, and the fetch that meets the end says LAST_ROW_SENT.
 */
class PlanCursorTest {
    private static final int STATUS = ServerStatus.AUTOCOMMIT;
    private static final ColumnDefinition ID = ColumnDefinition.computed("id", ColumnDefinition.TYPE_LONGLONG, 63, 20, 0, 0);

    private final EmbeddedChannel client = new EmbeddedChannel();
    private final FakeShards shards = new FakeShards();

    @AfterEach
    void finish() {
        Packets.received(client);
        assertThat(client.finishAndReleaseAll()).isFalse();
    }

    private ClientChannel out(boolean deprecateEof) {
        return new ClientChannel(client, Capabilities.CLIENT_PROTOCOL_41 | (deprecateEof ? Capabilities.CLIENT_DEPRECATE_EOF : 0));
    }

    private PlanCursor open(int rows, boolean deprecateEof) {
        shards.stream = new NumberedRows(rows);
        PlanCursor.Opened opened = new PlanCursor(5, shards, Runnable::run).open(out(deprecateEof)).join();
        assertThat(opened.cursor()).isNotNull();
        return opened.cursor();
    }

    @Test
    void theColumnDefinitionsEndWithCursorExistsAsMariaDbSendsThem() {
        open(20, false);
        List<String> sent = Packets.received(client);
        assertThat(sent).hasSize(3);
        assertThat(sent.get(0)).isEqualTo("1:01");
        assertThat(sent.get(2)).as("EOF with SERVER_STATUS_CURSOR_EXISTS").isEqualTo("3:fe00004200");
        assertThat(shards.stream.read).as("only the first row is read at execute").isEqualTo(1);

        open(20, true);
        sent = Packets.received(client);
        assertThat(sent).hasSize(3);
        assertThat(sent.get(2)).as("under CLIENT_DEPRECATE_EOF an OK with the EOF header, which MariaDB sends here too")
                .isEqualTo("3:fe000042000000");
    }

    @Test
    void eachFetchSendsAtMostItsRowsAndTheOneThatMeetsTheEndSaysLastRowSent() {
        PlanCursor cursor = open(20, true);
        Packets.received(client);

        List<String> first = fetch(cursor, 7);
        assertThat(first).hasSize(8);
        assertThat(first.get(0)).as("a binary row: header 00, null bitmap, the BIGINT 0").isEqualTo("1:00000000000000000000");
        assertThat(first.get(7)).isEqualTo("8:fe000042000000");
        assertThat(shards.stream.read).as("rows are read as they are fetched").isEqualTo(7);
        assertThat(shards.released).isEmpty();

        assertThat(fetch(cursor, 7)).hasSize(8).last().isEqualTo("8:fe000042000000");
        List<String> last = fetch(cursor, 7);
        assertThat(last).as("the 6 rows left, then LAST_ROW_SENT without CURSOR_EXISTS").hasSize(7);
        assertThat(last.get(6)).isEqualTo("7:fe000082000000");
        assertThat(cursor.isClosed()).isTrue();
        assertThat(shards.released).as("its shard results released, their warnings kept").containsExactly(true);
        assertThat(shards.stream.closed).isTrue();

        CompletableFuture<StatementOutcome> again = cursor.fetch(7, out(true));
        assertThat(failure(again)).isInstanceOfSatisfying(ShardgateException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_OPEN_CURSOR));
    }

    @Test
    void aFetchThatEndsExactlyOnTheLastRowLeavesTheCursorOpenForAnEmptyLastFetch() {
        PlanCursor cursor = open(14, false);
        Packets.received(client);
        assertThat(fetch(cursor, 7, false)).hasSize(8).last().isEqualTo("8:fe00004200");
        assertThat(fetch(cursor, 7, false)).hasSize(8).last().isEqualTo("8:fe00004200");
        StatementOutcome outcome = cursor.fetch(7, out(false)).join();
        assertThat(Packets.received(client)).containsExactly("1:fe00008200");
        assertThat(outcome.rowsSent()).isZero();
        assertThat(cursor.isClosed()).isTrue();
    }

    @Test
    void anEmptyResultOpensACursorAndGivesItsConnectionsBackAtOnce() {
        PlanCursor cursor = open(0, true);
        assertThat(Packets.received(client)).hasSize(3).last().isEqualTo("3:fe000042000000");
        assertThat(shards.released).as("released at execute").containsExactly(true);
        assertThat(fetch(cursor, 7)).containsExactly("1:fe000082000000");
    }

    @Test
    void closingMidWayReleasesTheShardResultsWithoutKeepingTheirWarnings() {
        PlanCursor cursor = open(20, true);
        Packets.received(client);
        fetch(cursor, 3);
        cursor.close().join();
        assertThat(shards.stream.closed).isTrue();
        assertThat(shards.released).containsExactly(false);
        assertThat(failure(cursor.fetch(7, out(true)))).isInstanceOfSatisfying(ShardgateException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_OPEN_CURSOR));
        cursor.close().join();
        assertThat(shards.released).as("once").hasSize(1);
    }

    @Test
    void aShardErrorWhileFetchingFailsTheFetchAfterTheRowsBeforeItAndClosesTheCursor() {
        PlanCursor cursor = open(20, true);
        Packets.received(client);
        shards.stream.failAt = 4;
        BackendErrorException error = new BackendErrorException(new ErrPacket(1213, "40001", "Deadlock found"));
        shards.stream.error = error;

        assertThat(failure(cursor.fetch(7, out(true)))).isSameAs(error);
        assertThat(Packets.received(client)).as("the rows before the error; the ERR is the caller's").hasSize(4);
        assertThat(cursor.isClosed()).isTrue();
        assertThat(shards.released).containsExactly(true);
        assertThat(shards.failures).containsExactly(error);
    }

    @Test
    void aCursorOpenedInATransactionIsReadAtExecuteAndEndsWithIt() {
        shards.transaction = 3;
        PlanCursor cursor = open(20, true);
        Packets.received(client);
        assertThat(shards.released).as("read whole at execute: the branch connections serve the next statement")
                .containsExactly(true);
        assertThat(fetch(cursor, 2)).hasSize(3);

        shards.transaction = -1; // COMMIT: its transaction ended
        assertThat(failure(cursor.fetch(2, out(true)))).isInstanceOfSatisfying(ShardgateException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_OPEN_CURSOR));
        assertThat(Packets.received(client)).isEmpty();
        assertThat(shards.released).containsExactly(true);
    }

    @Test
    void aCursorInATransactionServesEveryRowFromWhatItReadAtExecute() {
        shards.transaction = 3;
        PlanCursor cursor = open(20, true);
        Packets.received(client);
        int rows = 0;
        List<String> batch;
        do {
            batch = fetch(cursor, 6);
            rows += batch.size() - 1;
        } while (!cursor.isClosed());
        assertThat(rows).isEqualTo(20);
    }

    @Test
    void aCursorInATransactionHoldsAtMostTheBufferedRowsLimit() {
        shards.transaction = 3;
        shards.maxBufferedRows = 5;
        shards.stream = new NumberedRows(20);
        Throwable error = failure(new PlanCursor(9, shards, Runnable::run).open(out(true)));
        assertThat(error).isInstanceOfSatisfying(ShardgateException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.BUFFER_LIMIT));
        assertThat(shards.released).containsExactly(true);
    }

    @Test
    void aStatementWithoutAResultSetAnswersOkAsWithoutACursor() {
        shards.stream = new NumberedRows(0);
        shards.stream.columns = List.of();
        PlanCursor.Opened opened = new PlanCursor(5, shards, Runnable::run).open(out(true)).join();
        assertThat(opened.cursor()).isNull();
        assertThat(Packets.received(client)).containsExactly("1:00000002000000");
        assertThat(shards.released).containsExactly(true);
    }

    private List<String> fetch(PlanCursor cursor, int rows) {
        return fetch(cursor, rows, true);
    }

    private List<String> fetch(PlanCursor cursor, int rows, boolean deprecateEof) {
        cursor.fetch(rows, out(deprecateEof)).join();
        return Packets.received(client);
    }

    private static Throwable failure(CompletableFuture<?> future) {
        return future.handle((ok, error) -> error).join();
    }

    /** The session's side, recording what the cursor asked of it. */
    private static final class FakeShards implements PlanCursor.Shards {
        NumberedRows stream;
        long transaction = -1;
        long maxBufferedRows = Long.MAX_VALUE;
        final List<Boolean> released = new ArrayList<>();
        final List<RuntimeException> failures = new ArrayList<>();

        @Override
        public RowStream open() {
            return stream;
        }

        @Override
        public List<ColumnDefinition> definitions(List<ColumnMeta> columns) {
            return List.of(ID);
        }

        @Override
        public List<ColumnDefinition> cursorDefinitions(List<ColumnDefinition> definitions) {
            return definitions;
        }

        @Override
        public void release(boolean keepWarnings) {
            released.add(keepWarnings);
        }

        @Override
        public int status() {
            return STATUS;
        }

        @Override
        public long transaction() {
            return transaction;
        }

        @Override
        public void failed(RuntimeException error) {
            failures.add(error);
        }

        @Override
        public int shardsTouched() {
            return 2;
        }

        @Override
        public long maxBufferedRows() {
            return maxBufferedRows;
        }
    }

    /** Rows 0, 1, 2, ... of one BIGINT column; fails at row {@code failAt} when told to. */
    private static final class NumberedRows implements RowStream {
        private final int rows;
        List<ColumnMeta> columns = List.of(ColumnMeta.of("id", ValueKind.INTEGER));
        int read;
        int failAt = -1;
        RuntimeException error;
        boolean closed;

        NumberedRows(int rows) {
            this.rows = rows;
        }

        @Override
        public List<ColumnMeta> columns() {
            return columns;
        }

        @Override
        public Row next() {
            if (read == failAt) {
                throw error;
            }
            if (read >= rows) {
                return null;
            }
            return Row.of((long) read++);
        }

        @Override
        public Completion completion() {
            return Completion.NONE;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
