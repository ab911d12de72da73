package io.shardgate.replication.stream;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ChecksumType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializationException;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.TableMapEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * An {@link EventDeserializer} that decodes a TABLE_MAP event once per table id while the event's
 * bytes stay the same. A row event is preceded by the table map of its table in every
 * transaction, and with {@code binlog_row_metadata=FULL} that map carries every column name:
 * decoding it again each time was a large share of the reader's work. A repeated map is handed
 * out as the same object, so {@link TransactionAssembler} can also keep what it resolved from it.
 *
 * <p>The library wraps any table-map deserializer other than its own in one that decodes twice,
 * so the cache sits here, in the method that reads table maps, instead.
 *
 * <p>One instance per binlog connection, like the table ids it keys on.
 */
final class RepeatedTableMaps extends EventDeserializer {
    /** Table ids are few per connection but grow with DDL; forget them all past this many. */
    private static final int MAX_TABLES = 4096;

    private final TableMapEventDataDeserializer decoder = new TableMapEventDataDeserializer();
    private final Map<Long, Decoded> decoded = new HashMap<>();
    /** The library's map that row events look their table up in. */
    private final Map<Long, TableMapEventData> tableMaps;
    private int checksumLength;

    RepeatedTableMaps(EventHeaderDeserializer headers, EventDataDeserializer<?> fallback,
                      Map<EventType, EventDataDeserializer> byType, Map<Long, TableMapEventData> tableMaps) {
        super(headers, fallback, byType, tableMaps);
        this.tableMaps = tableMaps;
    }

    @Override
    public void setChecksumType(ChecksumType checksumType) {
        super.setChecksumType(checksumType);
        this.checksumLength = checksumType.getLength();
    }

    @Override
    public EventData deserializeTableMapEventData(ByteArrayInputStream input, EventHeader header) throws IOException {
        TableMapEventData data;
        input.enterBlock((int) header.getDataLength() - checksumLength);
        try {
            data = decode(input.read(input.available()));
        } catch (IOException | RuntimeException e) {
            throw new EventDataDeserializationException(header, e);
        } finally {
            input.skipToTheEndOfTheBlock();
            input.skip(checksumLength);
        }
        tableMaps.put(data.getTableId(), data);
        return data;
    }

    private TableMapEventData decode(byte[] body) throws IOException {
        long tableId = tableId(body);
        Decoded known = decoded.get(tableId);
        if (known != null && Arrays.equals(known.body, body)) {
            return known.data;
        }
        TableMapEventData data = decoder.deserialize(new ByteArrayInputStream(body));
        if (decoded.size() >= MAX_TABLES) {
            decoded.clear();
        }
        decoded.put(tableId, new Decoded(body, data));
        return data;
    }

    /** The post-header's first 6 bytes, little-endian. */
    private static long tableId(byte[] body) {
        long id = 0;
        for (int i = Math.min(6, body.length) - 1; i >= 0; i--) {
            id = (id << 8) | (body[i] & 0xFF);
        }
        return id;
    }

    private record Decoded(byte[] body, TableMapEventData data) {
    }
}
