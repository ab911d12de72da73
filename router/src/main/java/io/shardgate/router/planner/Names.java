package io.shardgate.router.planner;

import com.alibaba.druid.sql.SQLUtils;

import java.util.Locale;

/** Identifier helpers. */
final class Names {
    private Names() {
    }

    /** An identifier without its quotes. */
    static String plain(String name) {
        return name == null ? null : SQLUtils.normalize(name);
    }

    static boolean same(String a, String b) {
        return a != null && b != null && plain(a).equalsIgnoreCase(plain(b));
    }

    static String lower(String name) {
        return plain(name).toLowerCase(Locale.ROOT);
    }

    /** {@code name} as a backquoted identifier. */
    static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** The position of {@code name} in {@code columns}, compared as MariaDB compares column names (ignoring case); -1 when absent. */
    static int indexOf(java.util.List<String> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }
}
