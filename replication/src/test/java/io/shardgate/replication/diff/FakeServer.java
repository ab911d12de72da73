package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.ChecksumResult;
import io.shardgate.storage.checksum.PkRange;
import io.shardgate.storage.checksum.RowChecksum;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/**
 * One server's table in memory: rows kept in key order under a {@link KeyOrder}, each a key and a
 * content string whose CRC32 is the row's checksum. Counts the reads it serves.
 */
final class FakeServer implements ServerReader {
    private final KeyOrder order;
    private final List<Row> rows = new ArrayList<>();
    int checksums;
    int rowReads;
    long rowsRead;

    record Row(List<Object> key, String content, Object[] shardKey) {
    }

    FakeServer(KeyOrder order) {
        this.order = order;
    }

    FakeServer put(List<Object> key, String content) {
        return put(key, content, key.toArray());
    }

    FakeServer put(List<Object> key, String content, Object[] shardKey) {
        if (rows.isEmpty() || order.compare(rows.get(rows.size() - 1).key(), key) < 0) {
            rows.add(new Row(key, content, shardKey));
            return this;
        }
        rows.removeIf(row -> order.compare(row.key(), key) == 0);
        rows.add(new Row(key, content, shardKey));
        rows.sort((a, b) -> order.compare(a.key(), b.key()));
        return this;
    }

    FakeServer remove(List<Object> key) {
        rows.removeIf(row -> order.compare(row.key(), key) == 0);
        return this;
    }

    int size() {
        return rows.size();
    }

    static long crc(String content) {
        CRC32 crc = new CRC32();
        crc.update(content.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }

    private List<Row> in(PkRange range) {
        return rows.stream()
                .filter(row -> range.lowerInclusive().isEmpty() || order.compare(row.key(), range.lowerInclusive()) >= 0)
                .filter(row -> range.upperExclusive().isEmpty() || order.compare(row.key(), range.upperExclusive()) < 0)
                .toList();
    }

    @Override
    public ChecksumResult checksum(PkRange range) {
        checksums++;
        ChecksumResult result = ChecksumResult.empty();
        for (Row row : in(range)) {
            result = result.combine(new ChecksumResult(1, crc(row.content())));
        }
        return result;
    }

    @Override
    public Optional<List<Object>> keyAt(PkRange range, long offset) {
        List<Row> in = in(range);
        return offset < in.size() ? Optional.of(in.get((int) offset).key()) : Optional.empty();
    }

    @Override
    public Optional<List<Object>> lastKey() {
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(rows.size() - 1).key());
    }

    @Override
    public List<RowChecksum> rows(PkRange range) {
        rowReads++;
        List<RowChecksum> out = new ArrayList<>();
        for (Row row : in(range)) {
            out.add(new RowChecksum(row.key(), crc(row.content())));
        }
        rowsRead += out.size();
        return out;
    }

    @Override
    public void keyColumns(PkRange range, List<String> columns, Consumer<List<Object>> consumer) {
        for (Row row : in(range)) {
            List<Object> values = new ArrayList<>(row.key());
            values.addAll(List.of(row.shardKey()));
            consumer.accept(values);
        }
    }
}
