package io.shardgate.router.exec;

import io.shardgate.router.collation.Collations;
import io.shardgate.router.value.SqlValue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * GROUP_CONCAT of one group, merged from shards that grouped by its arguments and ORDER BY keys as well:
 * each input row carries the shard's GROUP_CONCAT of one such subgroup (its value repeated once per row, with
 * the separator; NULL when an argument was NULL), in the GROUP_CONCAT's order, so the merge joins them with
 * the separator. A DISTINCT one skips a row whose arguments equal the previous row's (its ORDER BY keys are
 * among its arguments, so equal arguments are neighbours). The result is cut to {@code group_concat_max_len}
 * bytes of the column's character set, as MariaDB cuts it (never inside a character).
 */
final class ConcatAggregate {
    private final int value;
    private final int[] arguments;
    private final ValueComparator[] comparators;
    private final int maxLength;
    private final String separator;
    private final boolean distinct;
    private final Charset charset;
    private final StringBuilder text = new StringBuilder();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private boolean binary;
    private boolean any;
    private long limit = -1;
    private Row previous;

    ConcatAggregate(Aggregate aggregate, List<ColumnMeta> columns) {
        Aggregate.Concat concat = aggregate.concat().orElseThrow();
        value = aggregate.column().resolve(columns.size());
        arguments = concat.arguments().stream().mapToInt(c -> c.resolve(columns.size())).toArray();
        comparators = new ValueComparator[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            comparators[i] = ValueComparator.forColumn(columns.get(arguments[i]), "GROUP_CONCAT(DISTINCT)");
        }
        maxLength = concat.maxLength().resolve(columns.size());
        separator = concat.separator();
        distinct = concat.distinct();
        String collation = Collations.byId(columns.get(value).collationId()).map(c -> c.name()).orElse("utf8mb4");
        charset = collation.startsWith("latin1") ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8;
    }

    void add(Row row) {
        if (limit < 0) {
            SqlValue max = row.get(maxLength);
            limit = max.isNull() ? Long.MAX_VALUE : max.numericOrZero().longValue();
        }
        SqlValue part = row.get(value);
        if (part.isNull() || (distinct && previous != null && sameArguments(previous, row))) {
            return;
        }
        previous = row;
        if (part.type() == SqlValue.Type.BYTES || binary) {
            toBytes();
            if (any) {
                bytes.writeBytes(separator.getBytes(StandardCharsets.UTF_8));
            }
            bytes.writeBytes(part.type() == SqlValue.Type.BYTES ? part.bytes() : part.toString().getBytes(StandardCharsets.UTF_8));
        }
        else {
            text.append(any ? separator : "").append(part.type() == SqlValue.Type.TEXT ? part.text() : part.toString());
        }
        any = true;
    }

    private boolean sameArguments(Row a, Row b) {
        for (int i = 0; i < arguments.length; i++) {
            SqlValue x = a.get(arguments[i]);
            SqlValue y = b.get(arguments[i]);
            if (x.isNull() != y.isNull() || (!x.isNull() && comparators[i].compare(x, y) != 0)) {
                return false;
            }
        }
        return true;
    }

    private void toBytes() {
        if (!binary) {
            binary = true;
            bytes.writeBytes(text.toString().getBytes(StandardCharsets.UTF_8));
            text.setLength(0);
        }
    }

    /** The group's result (NULL without a value); resets for the next group. */
    SqlValue finish() {
        SqlValue result;
        if (!any) {
            result = SqlValue.NULL;
        }
        else if (binary) {
            byte[] all = bytes.toByteArray();
            result = SqlValue.ofBytes(all.length > limit ? java.util.Arrays.copyOf(all, (int) limit) : all);
        }
        else {
            result = SqlValue.ofText(cut(text.toString()));
        }
        text.setLength(0);
        bytes.reset();
        binary = false;
        any = false;
        limit = -1;
        previous = null;
        return result;
    }

    /** The longest prefix of whole characters that fits {@code limit} bytes of the column's character set. */
    private String cut(String all) {
        if (all.length() <= limit / 4 || all.getBytes(charset).length <= limit) {
            return all;
        }
        long used = 0;
        int end = 0;
        while (end < all.length()) {
            int codePoint = all.codePointAt(end);
            int width = new String(Character.toChars(codePoint)).getBytes(charset).length;
            if (used + width > limit) {
                break;
            }
            used += width;
            end += Character.charCount(codePoint);
        }
        return all.substring(0, end);
    }
}
