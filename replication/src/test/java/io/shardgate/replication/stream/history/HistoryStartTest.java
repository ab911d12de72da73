package io.shardgate.replication.stream.history;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.replication.stream.SourceSchemaCatalog;
import io.shardgate.replication.stream.TableFilter;
import io.shardgate.replication.stream.apply.AppliedPositions;
import io.shardgate.replication.stream.apply.ApplyTarget;
import io.shardgate.replication.stream.apply.TargetSession;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a stream's schema history starts: stored, given, the target's present tables, or nothing. */
class HistoryStartTest {
    private final List<String> notices = new ArrayList<>();
    /** Never connected to: every shape here comes from the target or the caller. */
    private final SourceSchemaCatalog source = new SourceSchemaCatalog(new ServerEndpoint("127.0.0.1", 1, "u", "p"));

    /** A target that keeps its history in memory and has {@code present} tables. */
    private static final class MemoryTarget implements ApplyTarget {
        final List<TableVersion> stored = new ArrayList<>();
        final List<TableShape> present = new ArrayList<>();

        @Override
        public AppliedPositions load() {
            return AppliedPositions.none();
        }

        @Override
        public TargetSession open() {
            throw new UnsupportedOperationException("no sessions in this test");
        }

        @Override
        public void saveFloor(io.shardgate.replication.gtid.MariaDbGtidPosition floor) {
            throw new UnsupportedOperationException("no floor in this test");
        }

        @Override
        public List<TableVersion> loadSchemaHistory() {
            return List.copyOf(stored);
        }

        @Override
        public void saveSchemaHistory(List<TableVersion> versions) {
            stored.addAll(versions);
        }

        @Override
        public List<TableShape> presentShapes(TableFilter filter) {
            return present.stream().filter(s -> filter.carriesTable(s.name().schema(), s.name().table())).toList();
        }
    }

    private static TableShape shape(String schema, String table, String... columns) {
        List<ColumnShape> list = new ArrayList<>();
        for (String column : columns) {
            list.add(new ColumnShape(column, false, null, false, false));
        }
        return new TableShape(new TableName(schema, table), list, List.of(columns[0]), null);
    }

    private SchemaHistory open(MemoryTarget target, List<TableShape> given, String start) {
        return HistoryStart.open(target, TableFilter.schemas(Set.of("app")), MariaDbGtidPosition.parse(start), given,
                source, notices::add);
    }

    @Test
    void aStoredHistoryWinsOverGivenAndPresentShapes() {
        MemoryTarget target = new MemoryTarget();
        target.stored.add(new TableVersion(new TableName("app", "t"), new MariaDbGtid(0, 1, 5), 3,
                shape("app", "t", "id", "stored"), null));
        target.present.add(shape("app", "t", "id", "present"));
        SchemaHistory history = open(target, List.of(shape("app", "t", "id", "given")), "0-1-9");
        assertThat(history.shape(new TableName("app", "t")).columnNames()).containsExactly("id", "stored");
        assertThat(notices).containsExactly("schema history: 1 tables as of 0-1-9 from the history stored on the target");
    }

    @Test
    void givenShapesComeBeforeTheTargetsAndAreStored() {
        MemoryTarget target = new MemoryTarget();
        target.present.add(shape("app", "t", "id", "present"));
        SchemaHistory history = open(target, List.of(shape("app", "t", "id", "given"), shape("other", "x", "id")), "0-1-9");
        assertThat(history.shape(new TableName("app", "t")).columnNames()).containsExactly("id", "given");
        assertThat(history.shape(new TableName("other", "x"))).isNull();
        assertThat(target.stored).extracting(TableVersion::gtid).containsExactly(SchemaHistory.BOOTSTRAP);
        assertThat(notices).containsExactly("schema history: 1 tables as of 0-1-9 from the shapes the caller gave");
    }

    @Test
    void withoutStoredOrGivenShapesTheTargetsTablesAreTaken() {
        MemoryTarget target = new MemoryTarget();
        target.present.add(shape("app", "t", "id", "present"));
        SchemaHistory history = open(target, null, "0-1-9");
        assertThat(history.shape(new TableName("app", "t")).columnNames()).containsExactly("id", "present");
        assertThat(notices).containsExactly("schema history: 1 tables as of 0-1-9 from the target's information_schema");
        // Stored: a restart finds them, whatever the target's tables are by then.
        target.present.clear();
        notices.clear();
        assertThat(open(target, null, "0-1-9").shape(new TableName("app", "t")).columnNames()).containsExactly("id", "present");
    }

    @Test
    void aTargetWithoutTheStreamsTablesLeavesThemToTheSourcesPresentColumns() {
        MemoryTarget target = new MemoryTarget();
        SchemaHistory history = open(target, null, "");
        assertThat(history.shape(new TableName("app", "t"))).isNull();
        assertThat(target.stored).isEmpty();
        assertThat(notices).singleElement().asString().contains("source's present columns when first seen");
    }
}
