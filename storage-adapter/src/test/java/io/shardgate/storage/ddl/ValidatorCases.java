package io.shardgate.storage.ddl;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The golden cases of {@code /ddl/validator_cases.txt}; see the file's header for the format.
 * Public so that integration tests in other modules can run the same cases against servers.
 */
public final class ValidatorCases {
    private ValidatorCases() {
    }

    /**
     * One case.
     *
     * @param line                the line number of its {@code sql:}
     * @param title               its {@code ==} line
     * @param innodb              the expectation for the InnoDB shard
     * @param rocksdb             the expectation for the MyRocks shard
     * @param innodbServerError   the error an InnoDB server answers the accepted statement with, or 0
     * @param rocksdbServerError  the same for MyRocks
     */
    public record Case(int line, String title, String sql, boolean allow, String innodb, String rocksdb,
                       int innodbServerError, int rocksdbServerError) {
        @Override
        public String toString() {
            return "line " + line + ": " + sql + (allow ? " (allow blocking)" : "");
        }
    }

    public static List<Case> load() {
        try (InputStream in = ValidatorCases.class.getResourceAsStream("/ddl/validator_cases.txt")) {
            if (in == null) {
                throw new IllegalStateException("no /ddl/validator_cases.txt on the class path");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Case> parse(String text) {
        List<Case> cases = new ArrayList<>();
        String title = "";
        String sql = null;
        int sqlLine = 0;
        boolean allow = false;
        String innodb = null;
        String rocksdb = null;
        int innodbServer = 0;
        int rocksdbServer = 0;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i <= lines.length; i++) {
            String line = i < lines.length ? lines[i] : "";
            if (line.startsWith("#")) {
                continue;
            }
            if (line.isBlank()) {
                if (sql != null) {
                    if (innodb == null || rocksdb == null) {
                        throw new IllegalArgumentException("line " + sqlLine + ": a case needs innodb: and rocksdb:");
                    }
                    cases.add(new Case(sqlLine, title, sql, allow, innodb, rocksdb, innodbServer, rocksdbServer));
                }
                sql = null;
                allow = false;
                innodb = null;
                rocksdb = null;
                innodbServer = 0;
                rocksdbServer = 0;
            } else if (line.startsWith("== ")) {
                title = line.substring(3);
            } else if (line.startsWith("sql: ")) {
                sql = line.substring(5);
                sqlLine = i + 1;
            } else if (line.equals("allow: true")) {
                allow = true;
            } else if (line.startsWith("innodb: ")) {
                innodb = line.substring(8);
            } else if (line.startsWith("rocksdb: ")) {
                rocksdb = line.substring(9);
            } else if (line.startsWith("innodb-server: ")) {
                innodbServer = Integer.parseInt(line.substring(15).split(" ")[0]);
            } else if (line.startsWith("rocksdb-server: ")) {
                rocksdbServer = Integer.parseInt(line.substring(16).split(" ")[0]);
            } else {
                throw new IllegalArgumentException("line " + (i + 1) + ": cannot read '" + line + "'");
            }
        }
        return List.copyOf(cases);
    }
}
