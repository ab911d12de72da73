package io.shardgate.replication.lag;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicationStatusTest {

    /** A {@code SHOW ALL SLAVES STATUS} row with both threads running and no error, then {@code changes}. */
    private static Map<String, String> row(String... changes) {
        Map<String, String> row = new HashMap<>(Map.of("Connection_name", "", "Slave_IO_Running", "Yes",
                "Slave_SQL_Running", "Yes", "Last_Errno", "0", "Last_Error", "", "Last_IO_Errno", "0",
                "Last_IO_Error", "", "Last_SQL_Errno", "0", "Last_SQL_Error", ""));
        for (int i = 0; i < changes.length; i += 2) {
            row.put(changes[i], changes[i + 1]);
        }
        return row;
    }

    @Test
    void bothThreadsRunningIsHealthy() {
        assertThat(ReplicationStatus.of(List.of(row())))
                .isEqualTo(new ReplicationStatus(ReplicaState.HEALTHY, true, true, ""));
    }

    @Test
    void noRowIsNotAReplica() {
        assertThat(ReplicationStatus.of(List.of()).state()).isEqualTo(ReplicaState.NOT_A_REPLICA);
    }

    @Test
    void stoppedThreads() {
        assertThat(ReplicationStatus.of(List.of(row("Slave_SQL_Running", "No"))))
                .isEqualTo(new ReplicationStatus(ReplicaState.SQL_THREAD_STOPPED, true, false, ""));
        assertThat(ReplicationStatus.of(List.of(row("Slave_IO_Running", "Connecting"))))
                .isEqualTo(new ReplicationStatus(ReplicaState.IO_THREAD_STOPPED, false, true, ""));
        assertThat(ReplicationStatus.of(List.of(row("Slave_IO_Running", "No", "Slave_SQL_Running", "No"))).state())
                .isEqualTo(ReplicaState.SQL_THREAD_STOPPED);
    }

    @Test
    void anyErrnoIsAReplicationErrorWithItsText() {
        assertThat(ReplicationStatus.of(List.of(row("Slave_SQL_Running", "No", "Last_SQL_Errno", "1062",
                "Last_SQL_Error", "Duplicate entry '1' for key 'PRIMARY'", "Last_Errno", "1062"))))
                .isEqualTo(new ReplicationStatus(ReplicaState.REPLICATION_ERROR, true, false,
                        "SQL error 1062: Duplicate entry '1' for key 'PRIMARY'"));
        assertThat(ReplicationStatus.of(List.of(row("Slave_IO_Running", "Connecting", "Last_IO_Errno", "2003",
                "Last_IO_Error", "error connecting to master"))).error())
                .isEqualTo("IO error 2003: error connecting to master");
        assertThat(ReplicationStatus.of(List.of(row("Last_Errno", "1146", "Last_Error", "no table"))).state())
                .isEqualTo(ReplicaState.REPLICATION_ERROR);
    }

    @Test
    void theLeastHealthyConnectionDecidesAndNamesItself() {
        ReplicationStatus status = ReplicationStatus.of(List.of(row(),
                row("Connection_name", "east", "Slave_SQL_Running", "No"),
                row("Connection_name", "west", "Last_IO_Errno", "1236", "Last_IO_Error", "binlog purged")));

        assertThat(status).isEqualTo(new ReplicationStatus(ReplicaState.REPLICATION_ERROR, true, false,
                "connection 'west': IO error 1236: binlog purged"));
    }
}
