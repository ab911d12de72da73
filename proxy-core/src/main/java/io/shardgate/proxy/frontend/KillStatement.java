package io.shardgate.proxy.frontend;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code KILL [CONNECTION | QUERY] n}, which Shardgate answers itself: n is a Shardgate connection id. */
record KillStatement(long connectionId, boolean queryOnly) {
    private static final Pattern KILL = Pattern.compile(
            "\\s*KILL\\s+(?:(CONNECTION|QUERY)\\s+)?(\\d+)\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    static Optional<KillStatement> parse(String sql) {
        if (sql.length() > 64 || !SqlText.startsWithLetter(sql, 'k')) {
            return Optional.empty();
        }
        Matcher m = KILL.matcher(sql);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new KillStatement(Long.parseLong(m.group(2)), "QUERY".equalsIgnoreCase(m.group(1))));
    }
}
