package io.shardgate.storage.ddl;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.expr.SQLCharExpr;
import com.alibaba.druid.sql.ast.expr.SQLIntegerExpr;
import com.alibaba.druid.sql.ast.statement.SQLAlterTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLAssignItem;
import com.alibaba.druid.sql.ast.statement.SQLCreateIndexStatement;
import com.alibaba.druid.sql.ast.statement.SQLCreateTableStatement;
import com.alibaba.druid.sql.ast.statement.SQLDropIndexStatement;
import com.alibaba.druid.sql.ast.statement.SQLSetStatement;
import com.alibaba.druid.sql.dialect.mysql.parser.MySqlStatementParser;
import com.alibaba.druid.sql.parser.ParserException;
import io.shardgate.errors.ErrorCode;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.OnlineDdlRule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Checks one DDL statement against one shard's {@link EngineCapabilities} before it reaches the
 * shard. Pure: no I/O, no state; one instance serves every session.
 *
 * <ul>
 *   <li>Executable comments the server would run are read as part of the statement
 *       ({@link ExecutableComments}).</li>
 *   <li>CREATE TABLE, ALTER TABLE and CREATE INDEX: foreign keys (inline REFERENCES too),
 *       FULLTEXT and spatial types are refused where the engine lacks them.</li>
 *   <li>CREATE and ALTER TABLE: an ENGINE= naming an engine of a storage adapter becomes the shard's engine,
 *       any other engine is refused ({@link EngineClauses}), unless the table is of a schema that is not
 *       sharded ({@link EngineScope#ANY_ENGINE}): then the statement passes as it is, unchecked; the other
 *       table options are then checked against the shard's engine by {@link TableOptionCheck}.</li>
 *   <li>ALTER TABLE and CREATE INDEX: the least blocking ALGORITHM/LOCK the engine allows is
 *       added where the statement names none; these and DROP INDEX (which takes no clauses) are
 *       refused when they would block writes, unless {@code allowBlockingDdl} (see
 *       {@link OnlineDdlDecision}).</li>
 *   <li>SET GLOBAL of the page-compression algorithm: refused when its provider is not loaded.</li>
 *   <li>Anything else is accepted unchanged. A statement the parser cannot read is refused, so
 *       that it runs on all shards or none.</li>
 * </ul>
 * The statement sent is always the client's own text, with ENGINE= values replaced and clauses
 * appended at most.
 */
public final class DdlValidator {
    private static final List<String> PAGE_COMPRESSION_ALGORITHMS =
            List.of("none", "zlib", "lz4", "lzo", "lzma", "bzip2", "snappy");

    private final StorageAdapters adapters;

    /** A validator that knows the engines of the storage adapters on this class's class path. */
    public DdlValidator() {
        this(StorageAdapters.load(DdlValidator.class.getClassLoader()));
    }

    /** A validator that knows the engines of {@code adapters}: an ENGINE= naming one of them is rewritten. */
    public DdlValidator(StorageAdapters adapters) {
        this.adapters = requireNonNull(adapters, "adapters is null");
    }

    /**
     * @param sql              one statement, as the client sent it
     * @param capabilities     the shard's engine capabilities
     * @param shard            the shard's name, for messages
     * @param allowBlockingDdl the session ran {@code SET SESSION shardgate_allow_blocking_ddl = ON}
     */
    public DdlVerdict validate(String sql, EngineCapabilities capabilities, String shard, boolean allowBlockingDdl) {
        return validate(sql, capabilities, shard, allowBlockingDdl, EngineScope.SHARD_ENGINE);
    }

    /** As {@link #validate(String, EngineCapabilities, String, boolean)}, for a table that may live in {@code scope}'s engines. */
    public DdlVerdict validate(String sql, EngineCapabilities capabilities, String shard, boolean allowBlockingDdl,
                               EngineScope scope) {
        requireNonNull(sql, "sql is null");
        requireNonNull(scope, "scope is null");
        requireNonNull(capabilities, "capabilities is null");
        requireNonNull(shard, "shard is null");
        List<SqlToken> tokens;
        SQLStatement statement;
        MariaDbDialect.Normalized normalized;
        try {
            String opened = ExecutableComments.open(sql, capabilities.serverVersion());
            tokens = SqlTokens.of(opened);
            normalized = MariaDbDialect.normalize(opened, tokens);
            List<SQLStatement> statements = new MySqlStatementParser(normalized.parseable()).parseStatementList();
            if (statements.size() != 1) {
                return notUnderstood(capabilities, shard, "expected one statement, found " + statements.size());
            }
            statement = statements.get(0);
        } catch (ParserException e) {
            return notUnderstood(capabilities, shard, e.getMessage());
        } catch (RuntimeException e) {
            // Druid's own internal errors on some malformed text ("CREATE TEMPORARY TABLE t xa INT)": a
            // DruidRuntimeException from its XA parser, found by PacketFuzzIT): a statement it cannot read, as above.
            return notUnderstood(capabilities, shard, "the parser could not read it (" + e.getClass().getSimpleName() + ")");
        }
        if (statement instanceof SQLCreateTableStatement create) {
            TableOptions options = TableOptions.of(create.getTableOptions(), normalized.tableOptions());
            EngineClauses.Resolution engine = EngineClauses.resolve(sql, tokens, options, capabilities, shard, adapters);
            if (scope == EngineScope.ANY_ENGINE && engine.refusal().isPresent()) {
                return new DdlVerdict.Accepted(sql, false);
            }
            Optional<DdlVerdict.Refused> refused = features(statement, capabilities, shard);
            if (refused.isPresent()) {
                return refused.get();
            }
            return engine.refusal().or(() -> TableOptionCheck.check(engine.options(), capabilities, shard))
                    .map(DdlVerdict.class::cast)
                    .orElseGet(() -> accepted(sql, engine.edits()));
        }
        if (statement instanceof SQLAlterTableStatement alter) {
            TableOptions options = TableOptions.of(alter.getTableOptions(), normalized.tableOptions());
            EngineClauses.Resolution engine = EngineClauses.resolve(sql, tokens, options, capabilities, shard, adapters);
            if (scope == EngineScope.ANY_ENGINE && engine.refusal().isPresent()) {
                return new DdlVerdict.Accepted(sql, false);
            }
            Optional<DdlVerdict.Refused> refused = features(statement, capabilities, shard);
            if (refused.isPresent()) {
                return refused.get();
            }
            refused = engine.refusal().or(() -> TableOptionCheck.check(engine.options(), capabilities, shard));
            if (refused.isPresent()) {
                return refused.get();
            }
            return online(sql, tokens, engine.edits(), AlterClassifier.alter(alter, engine.options(), capabilities.engine()),
                    capabilities, shard, allowBlockingDdl);
        }
        if (statement instanceof SQLCreateIndexStatement create) {
            Optional<DdlVerdict.Refused> refused = features(statement, capabilities, shard);
            if (refused.isPresent()) {
                return refused.get();
            }
            return online(sql, tokens, List.of(), AlterClassifier.createIndex(create), capabilities, shard,
                    allowBlockingDdl);
        }
        if (statement instanceof SQLDropIndexStatement drop) {
            return online(sql, tokens, List.of(), AlterClassifier.dropIndex(drop), capabilities, shard, allowBlockingDdl);
        }
        if (statement instanceof SQLSetStatement set) {
            return compressionSetting(set, capabilities, shard).map(DdlVerdict.class::cast)
                    .orElse(new DdlVerdict.Accepted(sql, false));
        }
        return new DdlVerdict.Accepted(sql, false);
    }

    /**
     * Checks one statement against every shard it goes to: either every shard accepts it (each
     * with its own, possibly rewritten, statement) or it is refused as a whole, so it runs on
     * all shards or on none.
     *
     * @param shards shard name to its capabilities, in the order to report refusals
     */
    public DdlFanOut validateAll(String sql, Map<String, EngineCapabilities> shards, boolean allowBlockingDdl) {
        return validateAll(sql, shards, allowBlockingDdl, EngineScope.SHARD_ENGINE);
    }

    /** As {@link #validateAll(String, Map, boolean)}, for a table that may live in {@code scope}'s engines. */
    public DdlFanOut validateAll(String sql, Map<String, EngineCapabilities> shards, boolean allowBlockingDdl, EngineScope scope) {
        requireNonNull(shards, "shards is null");
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("no shards to check the statement against");
        }
        Map<String, String> statements = new LinkedHashMap<>();
        List<DdlVerdict.Refused> refusals = new ArrayList<>();
        shards.forEach((shard, capabilities) -> {
            DdlVerdict verdict = validate(sql, capabilities, shard, allowBlockingDdl, scope);
            if (verdict instanceof DdlVerdict.Accepted accepted) {
                statements.put(shard, accepted.sql());
            } else {
                refusals.add((DdlVerdict.Refused) verdict);
            }
        });
        return refusals.isEmpty() ? DdlFanOut.accepted(statements) : DdlFanOut.refused(refusals);
    }

    private static Optional<DdlVerdict.Refused> features(SQLStatement statement, EngineCapabilities capabilities,
                                                         String shard) {
        var schema = capabilities.schema();
        for (FeatureUse use : FeatureFinder.find(statement)) {
            ErrorCode code = switch (use.feature()) {
                case FOREIGN_KEY -> schema.foreignKeys() ? null : ErrorCode.FOREIGN_KEY_UNSUPPORTED;
                case FULLTEXT_INDEX -> schema.fulltextIndexes() ? null : ErrorCode.FULLTEXT_UNSUPPORTED;
                case SPATIAL -> schema.spatialTypes() ? null : ErrorCode.SPATIAL_UNSUPPORTED;
            };
            if (code != null) {
                return Optional.of(DdlVerdict.Refused.of(code, shard, capabilities.engine(), use.clause(), ""));
            }
        }
        return Optional.empty();
    }

    /**
     * @param edits what to change in the statement before any clause is added (ENGINE= values)
     */
    private static DdlVerdict online(String sql, List<SqlToken> tokens, List<TextEdit> edits, AlterRequest request,
                                     EngineCapabilities capabilities, String shard, boolean allowBlockingDdl) {
        if (request.operations().isEmpty()) {
            return accepted(sql, edits);
        }
        OnlineDdlRule rule = capabilities.onlineDdl().leastBlocking(request.operations());
        OnlineDdlDecision.Outcome outcome = OnlineDdlDecision.decide(rule, request, allowBlockingDdl);
        if (outcome.refusal().isPresent()) {
            OnlineDdlDecision.Refusal refusal = outcome.refusal().get();
            return DdlVerdict.Refused.of(refusal.code(), shard, capabilities.engine(), refusal.clause(), refusal.detail());
        }
        if (outcome.clauses().isEmpty() || request.separator().isEmpty()) {
            return accepted(sql, edits);
        }
        StringBuilder added = new StringBuilder();
        for (String clause : outcome.clauses()) {
            added.append(request.separator().get()).append(clause);
        }
        List<TextEdit> all = new ArrayList<>(edits);
        all.add(TextEdit.insert(SqlTokens.endOfStatement(sql, tokens), added.toString()));
        return accepted(sql, all);
    }

    private static DdlVerdict.Accepted accepted(String sql, List<TextEdit> edits) {
        return new DdlVerdict.Accepted(TextEdit.apply(sql, edits), !edits.isEmpty());
    }

    /** SET GLOBAL innodb_compression_algorithm = x, where x's provider is not loaded. */
    private static Optional<DdlVerdict.Refused> compressionSetting(SQLSetStatement set, EngineCapabilities capabilities,
                                                                   String shard) {
        var compression = capabilities.compression();
        if (!compression.setting().equals("innodb_compression_algorithm")) {
            return Optional.empty();
        }
        for (SQLAssignItem item : set.getItems()) {
            String target = item.getTarget().toString().replace("`", "").toLowerCase(Locale.ROOT).trim();
            if (!target.endsWith(compression.setting())) {
                continue;
            }
            String algorithm = algorithmName(item.getValue());
            if (!algorithm.isEmpty() && !compression.isAvailable(algorithm)) {
                return Optional.of(DdlVerdict.Refused.of(ErrorCode.COMPRESSION_PROVIDER_NOT_LOADED, shard,
                        capabilities.engine(), compression.setting() + "=" + algorithm,
                        String.join(", ", compression.available())));
            }
        }
        return Optional.empty();
    }

    /** The algorithm a value names: a name, or its number in MariaDB's list; "" for anything else. */
    private static String algorithmName(SQLExpr value) {
        if (value instanceof SQLIntegerExpr number) {
            int index = number.getNumber().intValue();
            return index >= 0 && index < PAGE_COMPRESSION_ALGORITHMS.size() ? PAGE_COMPRESSION_ALGORITHMS.get(index) : "";
        }
        String text = value instanceof SQLCharExpr chars ? chars.getText() : value.toString();
        return text.replace("`", "").trim().toLowerCase(Locale.ROOT);
    }

    private static DdlVerdict.Refused notUnderstood(EngineCapabilities capabilities, String shard, String detail) {
        return DdlVerdict.Refused.of(ErrorCode.DDL_NOT_UNDERSTOOD, shard, capabilities.engine(), "", detail);
    }
}
