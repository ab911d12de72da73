package io.shardgate.storage.checksum;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * {@code shardgate checksum --config F schema.table}, minus the config: given the shards and a
 * table, prints one tab-separated line per shard, then one for the logical table:
 * <pre>
 * s0	500	5f1c3a9b
 * s1	500	91ab33c0
 * shop.orders	1000	ceb7095b
 * </pre>
 * (name, row count, checksum as eight hex digits; the logical line sums the counts and XORs the
 * checksums). Every shard is checksummed over the same column list; shards that disagree on the
 * table's columns are an error, since their checksums could not be compared.
 *
 * <p>Exit codes: 0 done, 1 a shard failed (the error is on stderr, naming the shard), 2 bad
 * arguments.
 */
public final class ChecksumCommand {
    private final TableChecksum checksum;

    public ChecksumCommand() {
        this(new TableChecksum());
    }

    ChecksumCommand(TableChecksum checksum) {
        this.checksum = requireNonNull(checksum, "checksum is null");
    }

    public int run(List<ChecksumTarget> targets, String qualifiedTable, PrintStream out, PrintStream err) {
        requireNonNull(targets, "targets is null");
        requireNonNull(out, "out is null");
        requireNonNull(err, "err is null");
        TableName table;
        try {
            table = TableName.parse(requireNonNull(qualifiedTable, "qualifiedTable is null"));
            if (targets.isEmpty()) {
                throw new IllegalArgumentException("no shards to checksum");
            }
        } catch (IllegalArgumentException e) {
            err.println("checksum: " + e.getMessage());
            return 2;
        }
        Map<String, ChecksumResult> results = new LinkedHashMap<>();
        TableColumns agreed = null;
        String agreedBy = null;
        for (ChecksumTarget target : targets) {
            try (Connection connection = DriverManager.getConnection(target.jdbcUrl(), target.user(), target.password())) {
                TableColumns columns = checksum.columns(connection, table);
                if (agreed == null) {
                    agreed = columns;
                    agreedBy = target.shard();
                } else if (!agreed.names().equals(columns.names()) || !agreed.nullable().equals(columns.nullable())) {
                    err.println("checksum: shards " + agreedBy + " and " + target.shard() + " disagree on the columns of "
                            + table + ": " + agreed.names() + " vs " + columns.names());
                    return 1;
                }
                results.put(target.shard(), checksum.checksum(connection, table, agreed, PkRange.all()));
            } catch (SQLException e) {
                err.println("checksum: shard " + target.shard() + ": " + e.getMessage());
                return 1;
            }
        }
        ChecksumResult total = ChecksumResult.empty();
        for (Map.Entry<String, ChecksumResult> entry : results.entrySet()) {
            out.println(line(entry.getKey(), entry.getValue()));
            total = total.combine(entry.getValue());
        }
        out.println(line(table.toString(), total));
        return 0;
    }

    static String line(String name, ChecksumResult result) {
        return name + "\t" + result.rows() + "\t" + result.hex();
    }
}
