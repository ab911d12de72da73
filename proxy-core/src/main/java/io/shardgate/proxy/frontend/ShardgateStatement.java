package io.shardgate.proxy.frontend;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Statements Shardgate answers itself and never sends to a backend:
 * <ul>
 *   <li>{@code SET [@@session.|SESSION ]shardgate_max_lag_ms = N | DEFAULT}: the session's freshness budget;</li>
 *   <li>{@code SELECT @@[session.]shardgate_max_lag_ms};</li>
 *   <li>{@code SELECT @@[session.]shardgate_causal_token}: the session's causality token;</li>
 *   <li>{@code SET [@@session.|SESSION ]shardgate_causal_token = '…'}: read-your-writes from another session;</li>
 *   <li>{@code SET [SESSION ]shardgate_allow_blocking_ddl = ON | OFF}: lets ALTERs that block writes through;</li>
 *   <li>{@code SHOW SHARDGATE BACKENDS}.</li>
 * </ul>
 */
sealed interface ShardgateStatement {
    record SetMaxLag(OptionalLong millis) implements ShardgateStatement {
    }

    record GetMaxLag() implements ShardgateStatement {
    }

    record GetCausalToken() implements ShardgateStatement {
    }

    record SetCausalToken(String token) implements ShardgateStatement {
    }

    record ShowBackends() implements ShardgateStatement {
    }

    record SetAllowBlockingDdl(boolean allowed) implements ShardgateStatement {
    }

    String SCOPE = "(?:@@session\\.|@@|session\\s+|local\\s+)?";
    Pattern SET_MAX_LAG = Pattern.compile("\\s*set\\s+" + SCOPE + "shardgate_max_lag_ms\\s*(?:=|:=)\\s*(\\d{1,12}|default)\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);
    Pattern GET = Pattern.compile("\\s*select\\s+@@(?:session\\.)?(shardgate_max_lag_ms|shardgate_causal_token)\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);
    Pattern SET_TOKEN = Pattern.compile("\\s*set\\s+" + SCOPE + "shardgate_causal_token\\s*(?:=|:=)\\s*'([^'\\\\]*)'\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);
    Pattern SET_BLOCKING_DDL = Pattern.compile("\\s*set\\s+" + SCOPE
            + "shardgate_allow_blocking_ddl\\s*(?:=|:=)\\s*'?(on|off|1|0|true|false|default)'?\\s*;?\\s*", Pattern.CASE_INSENSITIVE);
    Pattern SHOW_BACKENDS = Pattern.compile("\\s*show\\s+shardgate\\s+backends\\s*;?\\s*", Pattern.CASE_INSENSITIVE);

    /** The Shardgate statement {@code sql} is, if any; cheap for everything else. */
    static Optional<ShardgateStatement> parse(String sql) {
        if (sql.length() > 512 || !SqlText.containsIgnoreCase(sql, "shardgate")) {
            return Optional.empty();
        }
        Matcher m = SET_MAX_LAG.matcher(sql);
        if (m.matches()) {
            return Optional.of(new SetMaxLag(m.group(1).equalsIgnoreCase("default")
                    ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(m.group(1)))));
        }
        m = GET.matcher(sql);
        if (m.matches()) {
            return Optional.of(m.group(1).equalsIgnoreCase("shardgate_max_lag_ms") ? new GetMaxLag() : new GetCausalToken());
        }
        m = SET_TOKEN.matcher(sql);
        if (m.matches()) {
            return Optional.of(new SetCausalToken(m.group(1)));
        }
        m = SET_BLOCKING_DDL.matcher(sql);
        if (m.matches()) {
            String value = m.group(1).toLowerCase(java.util.Locale.ROOT);
            return Optional.of(new SetAllowBlockingDdl(value.equals("on") || value.equals("1") || value.equals("true")));
        }
        if (SHOW_BACKENDS.matcher(sql).matches()) {
            return Optional.of(new ShowBackends());
        }
        return Optional.empty();
    }
}
