package io.shardgate.replication.copy;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.gtid.SnapshotPoint;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CopyCheckpointTest {

    @Test
    void roundTripsThroughJsonWithTypedKeys() {
        CopyCheckpoint checkpoint = new CopyCheckpoint("shop.orders", List.of(
                new PkValue(KeyColumn.Kind.INTEGER, "18446744073709551615"),
                new PkValue(KeyColumn.Kind.STRING, "C3A9'\\22"),
                new PkValue(KeyColumn.Kind.TEMPORAL, "2024-01-02 10:00:00.123456"),
                new PkValue(KeyColumn.Kind.DECIMAL, "-0.10"),
                new PkValue(KeyColumn.Kind.BINARY, "00FF")),
                "0-1-42,1-2-7", 123_456, 1_000_000, false);
        String json = checkpoint.toJson();
        assertThat(json).contains("\"table\":\"shop.orders\"").contains("\"kind\":\"INTEGER\"")
                .contains("\"position\":\"0-1-42,1-2-7\"");
        CopyCheckpoint back = CopyCheckpoint.fromJson(json);
        assertThat(back).isEqualTo(checkpoint);
        assertThat(back.gtid().toString()).isEqualTo("0-1-42,1-2-7");
        assertThat(back.started()).isTrue();
    }

    @Test
    void keepsTheSnapshotsLookbackAndReadsCheckpointsWrittenWithoutOne() {
        SnapshotPoint point = new SnapshotPoint(MariaDbGtidPosition.parse("0-1-42"), MariaDbGtidPosition.parse("0-1-37"));
        CopyCheckpoint checkpoint = new CopyCheckpoint("shop.t", List.of(new PkValue(KeyColumn.Kind.INTEGER, "7")), point,
                5, 10, false);
        CopyCheckpoint back = CopyCheckpoint.fromJson(checkpoint.toJson());
        assertThat(back.point()).isEqualTo(point);

        CopyCheckpoint older = CopyCheckpoint.fromJson("{\"table\":\"shop.t\",\"lastPk\":[{\"kind\":\"INTEGER\",\"value\":\"7\"}],"
                + "\"position\":\"0-1-42\",\"rowsCopied\":5,\"rowsTotal\":10,\"done\":false}");
        assertThat(older.point()).as("read from the position itself").isEqualTo(SnapshotPoint.at(MariaDbGtidPosition.parse("0-1-42")));
    }

    @Test
    void aTableNotStartedHasNoKeyNorPosition() {
        CopyCheckpoint start = CopyCheckpoint.start("shop.t", 10);
        assertThat(start.started()).isFalse();
        assertThat(CopyCheckpoint.fromJson(start.toJson())).isEqualTo(start);
        assertThat(start.gtid().isEmpty()).isTrue();
    }

    @Test
    void refusesWhatIsNotACheckpoint() {
        assertThatThrownBy(() -> CopyCheckpoint.fromJson("{\"table\":1")).hasMessageStartingWith("not a copy checkpoint");
        assertThatThrownBy(() -> new CopyCheckpoint("t", List.of(), "x-y", 0, 0, false))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
