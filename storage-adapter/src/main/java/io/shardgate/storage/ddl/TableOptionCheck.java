package io.shardgate.storage.ddl;

import io.shardgate.errors.ErrorCode;
import io.shardgate.storage.capability.EngineCapabilities;

import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Checks table options against the shard's engine (ENGINE= itself is {@link EngineClauses}'):
 * <ul>
 *   <li>where ROW_FORMAT, KEY_BLOCK_SIZE and page compression have no effect (MyRocks) they are refused;</li>
 *   <li>otherwise (InnoDB): KEY_BLOCK_SIZE must be 0 or a valid size for the page size; row
 *       compression and page compression exclude each other; row compression needs
 *       {@code innodb_read_only_compressed=OFF}; page compression needs the current
 *       algorithm's provider.</li>
 * </ul>
 */
final class TableOptionCheck {
    private TableOptionCheck() {
    }

    static Optional<DdlVerdict.Refused> check(TableOptions options, EngineCapabilities capabilities, String shard) {
        var schema = capabilities.schema();
        if (!schema.rowFormatOptions()) {
            for (String name : new String[]{"ROW_FORMAT", "KEY_BLOCK_SIZE", "PAGE_COMPRESSED", "PAGE_COMPRESSION_LEVEL"}) {
                if (options.has(name) && !(name.equals("ROW_FORMAT") && options.upper(name).orElse("").equals("DEFAULT"))) {
                    return refuse(ErrorCode.TABLE_OPTION_UNSUPPORTED, capabilities, shard, options.clause(name),
                            "the engine would store it and ignore it");
                }
            }
            return Optional.empty();
        }
        Optional<Integer> keyBlockSize = options.keyBlockSize();
        if (keyBlockSize.isPresent() && keyBlockSize.get() != 0 && !schema.keyBlockSizes().contains(keyBlockSize.get())) {
            String valid = schema.keyBlockSizes().isEmpty() ? "none with this innodb_page_size"
                    : "0, " + schema.keyBlockSizes().stream().map(String::valueOf).collect(Collectors.joining(", "));
            return refuse(ErrorCode.INVALID_KEY_BLOCK_SIZE, capabilities, shard, options.clause("KEY_BLOCK_SIZE"),
                    "valid values are " + valid);
        }
        if (options.rowCompressed() && options.pageCompressed()) {
            String rowClause = options.upper("ROW_FORMAT").orElse("").equals("COMPRESSED")
                    ? options.clause("ROW_FORMAT") : options.clause("KEY_BLOCK_SIZE");
            return refuse(ErrorCode.CONFLICTING_COMPRESSION, capabilities, shard,
                    rowClause + " and " + options.clause("PAGE_COMPRESSED"),
                    "a table is either row-compressed or page-compressed");
        }
        if (options.rowCompressed() && !schema.compressedRowFormatWritable()) {
            return refuse(ErrorCode.TABLE_OPTION_UNSUPPORTED, capabilities, shard,
                    options.has("ROW_FORMAT") ? options.clause("ROW_FORMAT") : options.clause("KEY_BLOCK_SIZE"),
                    "innodb_read_only_compressed=ON makes compressed tables read-only");
        }
        var compression = capabilities.compression();
        if (options.pageCompressed() && !compression.isAvailable(compression.current())) {
            return refuse(ErrorCode.COMPRESSION_PROVIDER_NOT_LOADED, capabilities, shard,
                    options.clause("PAGE_COMPRESSED") + " with " + compression.setting() + "=" + compression.current(),
                    String.join(", ", compression.available()));
        }
        return Optional.empty();
    }

    private static Optional<DdlVerdict.Refused> refuse(ErrorCode code, EngineCapabilities capabilities, String shard,
                                                       String clause, String detail) {
        return Optional.of(DdlVerdict.Refused.of(code, shard, capabilities.engine(), clause, detail));
    }
}
