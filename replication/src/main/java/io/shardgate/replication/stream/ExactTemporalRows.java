package io.shardgate.replication.stream;

import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.AnnotateRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.BinlogCheckpointEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.DeleteRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderV4Deserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.FormatDescriptionEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.IntVarEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.MariadbGtidEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.MariadbGtidListEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.QueryEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.RotateEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.UpdateRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.WriteRowsEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.XAPrepareEventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.XidEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/**
 * An {@link EventDeserializer} for MariaDB whose row events decode DATE, DATETIME2, TIME2 and
 * TIMESTAMP2 with {@link TemporalDecoder} (as SQL literal strings) instead of the library's own
 * decoding. The library offers no hook for this short of registering every event type itself,
 * which {@link #create()} does, mirroring the library's default registrations.
 */
final class ExactTemporalRows {
    private ExactTemporalRows() {
    }

    static EventDeserializer create() {
        Map<Long, TableMapEventData> tableMaps = new HashMap<>();
        Map<EventType, EventDataDeserializer> byType = new HashMap<>();
        byType.put(EventType.FORMAT_DESCRIPTION, new FormatDescriptionEventDataDeserializer());
        byType.put(EventType.ROTATE, new RotateEventDataDeserializer());
        byType.put(EventType.INTVAR, new IntVarEventDataDeserializer());
        byType.put(EventType.QUERY, new QueryEventDataDeserializer());
        byType.put(EventType.TABLE_MAP, new TableMapEventDataDeserializer());
        byType.put(EventType.XID, new XidEventDataDeserializer());
        byType.put(EventType.WRITE_ROWS, new Write(tableMaps));
        byType.put(EventType.UPDATE_ROWS, new Update(tableMaps));
        byType.put(EventType.DELETE_ROWS, new Delete(tableMaps));
        byType.put(EventType.EXT_WRITE_ROWS, new Write(tableMaps).setMayContainExtraInformation(true));
        byType.put(EventType.EXT_UPDATE_ROWS, new Update(tableMaps).setMayContainExtraInformation(true));
        byType.put(EventType.EXT_DELETE_ROWS, new Delete(tableMaps).setMayContainExtraInformation(true));
        byType.put(EventType.XA_PREPARE, new XAPrepareEventDataDeserializer());
        byType.put(EventType.ANNOTATE_ROWS, new AnnotateRowsEventDataDeserializer());
        byType.put(EventType.MARIADB_GTID, new MariadbGtidEventDataDeserializer());
        byType.put(EventType.BINLOG_CHECKPOINT, new BinlogCheckpointEventDataDeserializer());
        byType.put(EventType.MARIADB_GTID_LIST, new MariadbGtidListEventDataDeserializer());
        return new RepeatedTableMaps(new EventHeaderV4Deserializer(), new NullEventDataDeserializer(), byType, tableMaps);
    }

    private static Serializable date(ByteArrayInputStream in) throws IOException {
        return TemporalDecoder.date(in.readInteger(3));
    }

    private static Serializable dateTime(int fsp, ByteArrayInputStream in) throws IOException {
        long packed = TemporalDecoder.bigEndian(in.read(5), 0, 5);
        return TemporalDecoder.dateTime2(packed, fraction(fsp, in));
    }

    private static Serializable time(int fsp, ByteArrayInputStream in) throws IOException {
        return TemporalDecoder.time2(fsp, in.read(3 + (fsp + 1) / 2));
    }

    private static Serializable timestamp(int fsp, ByteArrayInputStream in) throws IOException {
        long seconds = TemporalDecoder.bigEndian(in.read(4), 0, 4);
        return TemporalDecoder.timestamp2(seconds, fraction(fsp, in));
    }

    private static int fraction(int fsp, ByteArrayInputStream in) throws IOException {
        int bytes = (fsp + 1) / 2;
        return bytes == 0 ? 0 : TemporalDecoder.fractionMicros(TemporalDecoder.bigEndian(in.read(bytes), 0, bytes), bytes);
    }

    private static final class Write extends WriteRowsEventDataDeserializer {
        Write(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
        }

        @Override
        protected Serializable deserializeDate(ByteArrayInputStream in) throws IOException {
            return date(in);
        }

        @Override
        protected Serializable deserializeDatetimeV2(int meta, ByteArrayInputStream in) throws IOException {
            return dateTime(meta, in);
        }

        @Override
        protected Serializable deserializeTimeV2(int meta, ByteArrayInputStream in) throws IOException {
            return time(meta, in);
        }

        @Override
        protected Serializable deserializeTimestampV2(int meta, ByteArrayInputStream in) throws IOException {
            return timestamp(meta, in);
        }
    }

    private static final class Update extends UpdateRowsEventDataDeserializer {
        Update(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
        }

        @Override
        protected Serializable deserializeDate(ByteArrayInputStream in) throws IOException {
            return date(in);
        }

        @Override
        protected Serializable deserializeDatetimeV2(int meta, ByteArrayInputStream in) throws IOException {
            return dateTime(meta, in);
        }

        @Override
        protected Serializable deserializeTimeV2(int meta, ByteArrayInputStream in) throws IOException {
            return time(meta, in);
        }

        @Override
        protected Serializable deserializeTimestampV2(int meta, ByteArrayInputStream in) throws IOException {
            return timestamp(meta, in);
        }
    }

    private static final class Delete extends DeleteRowsEventDataDeserializer {
        Delete(Map<Long, TableMapEventData> tableMaps) {
            super(tableMaps);
        }

        @Override
        protected Serializable deserializeDate(ByteArrayInputStream in) throws IOException {
            return date(in);
        }

        @Override
        protected Serializable deserializeDatetimeV2(int meta, ByteArrayInputStream in) throws IOException {
            return dateTime(meta, in);
        }

        @Override
        protected Serializable deserializeTimeV2(int meta, ByteArrayInputStream in) throws IOException {
            return time(meta, in);
        }

        @Override
        protected Serializable deserializeTimestampV2(int meta, ByteArrayInputStream in) throws IOException {
            return timestamp(meta, in);
        }
    }
}
