package io.shardgate.proxy.sharding;

import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.ValueKind;

import java.util.ArrayList;
import java.util.List;

/**
 * The column definitions a merged result sends, so that it reads as one server's: a column that
 * comes straight from the shards keeps the definition the first shard sent (table, flags, length,
 * charset); a column the merge computed (AVG from SUM and COUNT) is described as MariaDB describes
 * that expression; helper columns the planner added are not in the merged result at all.
 */
final class OutputColumns {
    private static final int UTF8MB4_GENERAL_CI = 45;

    private OutputColumns() {
    }

    static List<ColumnDefinition> of(List<ColumnMeta> merged, List<ColumnDefinition> shard) {
        List<ColumnDefinition> out = new ArrayList<>(merged.size());
        for (int i = 0; i < merged.size(); i++) {
            ColumnMeta meta = merged.get(i);
            ColumnDefinition same = i < shard.size() && shard.get(i).name().equals(meta.name()) ? shard.get(i) : byName(shard, meta.name());
            if (same != null && ValueKind.of(same.type(), same.charset()) == meta.kind()) {
                out.add(same.decimals() == meta.decimals() || meta.kind() != ValueKind.DECIMAL ? same : averageOf(same, meta.decimals()));
            } else {
                out.add(computed(meta, same));
            }
        }
        return out;
    }

    /**
     * AVG(x) arrives as the shards' SUM(x) under the AVG's name. MariaDB types SUM(x) as DECIMAL with
     * 22 more digits than x, and AVG(x) with 4 more digits and 4 more decimals than x.
     */
    private static ColumnDefinition averageOf(ColumnDefinition sum, int decimals) {
        long digits = sum.length() - (sum.unsigned() ? 0 : 1) - (sum.decimals() > 0 ? 1 : 0);
        long averageDigits = Math.max(decimals + 1, Math.min(65, digits - 22 + 4));
        long length = averageDigits + (sum.unsigned() ? 0 : 1) + (decimals > 0 ? 1 : 0);
        return new ColumnDefinition(sum.catalog(), sum.schema(), sum.table(), sum.orgTable(), sum.name(), sum.orgName(),
                sum.charset(), length, sum.type(), sum.flags(), decimals);
    }

    private static ColumnDefinition byName(List<ColumnDefinition> shard, String name) {
        for (ColumnDefinition definition : shard) {
            if (definition.name().equals(name)) {
                return definition;
            }
        }
        return null;
    }

    private static ColumnDefinition computed(ColumnMeta meta, ColumnDefinition like) {
        int binaryFlags = ColumnDefinition.FLAG_BINARY | ColumnDefinition.FLAG_NUM;
        return switch (meta.kind()) {
            case INTEGER -> ColumnDefinition.computed(meta.name(), ColumnDefinition.TYPE_LONGLONG, ColumnDefinition.BINARY_CHARSET,
                    21, binaryFlags, 0);
            case DECIMAL -> ColumnDefinition.computed(meta.name(), ColumnDefinition.TYPE_NEWDECIMAL, ColumnDefinition.BINARY_CHARSET,
                    like != null ? like.length() + Math.max(0, meta.decimals() - like.decimals()) : 65 + 2, binaryFlags, meta.decimals());
            case FLOAT -> ColumnDefinition.computed(meta.name(), ColumnDefinition.TYPE_DOUBLE, ColumnDefinition.BINARY_CHARSET,
                    23, binaryFlags, 31);
            default -> ColumnDefinition.computed(meta.name(), ColumnDefinition.TYPE_VAR_STRING,
                    meta.collationId() == 0 ? UTF8MB4_GENERAL_CI : meta.collationId(), 1024L * 4, 0, 0x27);
        };
    }
}
