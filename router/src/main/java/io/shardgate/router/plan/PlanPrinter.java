package io.shardgate.router.plan;

import io.shardgate.router.exec.SortKey;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Renders a plan as EXPLAIN SHARDGATE shows it: one operator per line, inputs indented below, and
 * for each route its shards, role and the SQL each shard is sent.
 */
public final class PlanPrinter implements PlanVisitor<List<String>> {

    private static final String INDENT = "  ";

    private PlanPrinter() {
    }

    public static String print(PlanNode root) {
        return String.join("\n", lines(root));
    }

    /** The rendering, one line per element. */
    public static List<String> lines(PlanNode root) {
        return root.accept(new PlanPrinter());
    }

    private List<String> node(String line, PlanNode... inputs) {
        List<String> out = new ArrayList<>();
        out.add(line);
        for (PlanNode input : inputs) {
            for (String child : input.accept(this)) {
                out.add(INDENT + child);
            }
        }
        return out;
    }

    @Override
    public List<String> visit(Route node) {
        String shards;
        String how = "";
        if (node.selection() instanceof ShardSelection.Keyed keyed) {
            how = " where " + keyed.describe();
        }
        Optional<List<String>> fixed = node.selection().fixed();
        shards = fixed.map(List::toString).orElse("per execution");
        List<String> out = new ArrayList<>();
        out.add("Route " + node.variant() + " " + node.target() + " shards=" + shards + " role=" + node.role() + how);
        out.add(INDENT + "sql: " + node.sql().text() + node.sql().describeParameters());
        return out;
    }

    @Override
    public List<String> visit(InsertSplit node) {
        List<String> out = new ArrayList<>();
        out.add("InsertSplit " + node.target() + " " + node.vindex().describe() + " rows=" + node.rows().size() + " role=PRIMARY"
                + (node.partitionSelected() ? " partitions=" + node.candidates() : ""));
        Map<String, List<InsertRow>> byShard = new LinkedHashMap<>();
        for (InsertRow row : node.rows()) {
            byShard.computeIfAbsent(literalShard(node, row), s -> new ArrayList<>()).add(row);
        }
        for (Map.Entry<String, List<InsertRow>> group : byShard.entrySet()) {
            StringBuilder sql = new StringBuilder(node.prefix());
            List<String> parameters = new ArrayList<>();
            for (int i = 0; i < group.getValue().size(); i++) {
                sql.append(i == 0 ? "" : ", ").append(render(group.getValue().get(i), parameters, node));
            }
            sql.append(node.suffix());
            node.suffixParameters().forEach(p -> parameters.add(p.describe()));
            out.add(INDENT + group.getKey() + ": " + sql + (parameters.isEmpty() ? "" : " " + parameters));
        }
        return out;
    }

    /** The shard of a row whose key is a literal; otherwise the shard is decided per execution. */
    private static String literalShard(InsertSplit node, InsertRow row) {
        return InsertSplit.literalKey(row).map(key -> node.shardOf(row, key)).orElse("per execution");
    }

    private static String render(InsertRow row, List<String> parameters, InsertSplit node) {
        List<String> values = new ArrayList<>();
        for (InsertValue value : row.values()) {
            if (value instanceof InsertValue.Written written) {
                values.add(written.text());
                written.parameters().forEach(p -> parameters.add(p.describe()));
            }
            else {
                InsertValue.FromSequence next = (InsertValue.FromSequence) value;
                String sequence = "<next " + node.sequence().orElseThrow().name() + ">";
                Optional<InsertValue.Written> given = next.given();
                if (given.isEmpty() || InsertSplit.generates(given.get())) {
                    values.add(sequence);
                }
                else if (given.get().value().orElse(null) instanceof ValueSource.Literal) {
                    values.add(given.get().text());
                }
                else {
                    values.add(given.get().text() + " or " + sequence);
                    given.get().parameters().forEach(p -> parameters.add(p.describe()));
                }
            }
        }
        return "(" + String.join(", ", values) + ")";
    }

    @Override
    public List<String> visit(MergeSort node) {
        return node("MergeSort" + keys(node.keys()), node.input());
    }

    @Override
    public List<String> visit(MemorySort node) {
        return node("MemorySort" + keys(node.keys()), node.input());
    }

    @Override
    public List<String> visit(LimitOffset node) {
        return node("LimitOffset(offset " + node.offset().describe() + ", count " + node.count().describe() + ")", node.input());
    }

    @Override
    public List<String> visit(AggregateMerge node) {
        return node("AggregateMerge" + node.aggregates(), node.input());
    }

    @Override
    public List<String> visit(GroupByMerge node) {
        return node("GroupByMerge(keys " + node.groupKeys().stream().map(k -> k.column().toString()).toList() + ", aggregates "
                + node.aggregates() + ")", node.input());
    }

    @Override
    public List<String> visit(RollupMerge node) {
        return node("RollupMerge(keys " + node.groupKeys().stream().map(k -> k.column().toString()).toList() + ", aggregates "
                + node.aggregates() + ")", node.input());
    }

    @Override
    public List<String> visit(Distinct node) {
        return node("Distinct", node.input());
    }

    @Override
    public List<String> visit(HavingFilter node) {
        return node("HavingFilter" + node.condition(), node.input());
    }

    @Override
    public List<String> visit(Project node) {
        return node("Project(drop " + node.helperColumns() + " helper column" + (node.helperColumns() == 1 ? "" : "s") + ")",
                node.input());
    }

    @Override
    public List<String> visit(StaticRows node) {
        List<String> out = new ArrayList<>();
        out.add("StaticRows(" + node.column() + ")");
        node.lines().forEach(line -> out.add(INDENT + "| " + line));
        return out;
    }

    @Override
    public List<String> visit(SubqueryPullout node) {
        StringBuilder statement = new StringBuilder(node.pieces().get(0).text());
        for (int i = 0; i < node.subqueries().size(); i++) {
            SubqueryPullout.Use use = node.subqueries().get(i).use();
            statement.append(use == SubqueryPullout.Use.IN ? "(<values of subquery " + i + ">)"
                    : use == SubqueryPullout.Use.SCALAR ? "(<value of subquery " + i + ">)" : "<subquery " + i + " has rows>");
            statement.append(node.pieces().get(i + 1).text());
        }
        List<String> out = new ArrayList<>();
        out.add("SubqueryPullout (each subquery first, then the statement with its result, planned then)");
        out.add(INDENT + "statement: " + statement);
        for (int i = 0; i < node.subqueries().size(); i++) {
            SubqueryPullout.Subquery subquery = node.subqueries().get(i);
            String binds = subquery.parameters().isEmpty() ? ""
                    : ", its ? bound to " + subquery.parameters().stream().map(ValueSource::describe).toList();
            out.add(INDENT + "subquery " + i + " (" + subquery.use() + binds + "): " + subquery.text());
            for (String child : subquery.plan().accept(this)) {
                out.add(INDENT + INDENT + child);
            }
        }
        return out;
    }

    @Override
    public List<String> visit(CopyJoin node) {
        List<String> out = new ArrayList<>();
        out.add(node.batched()
                ? "CopyJoin (the copied table's rows in batches of " + CopyJoin.BATCH_ROWS + "; for each batch, the statement on its"
                        + " shards, each with the batch as a temporary table of the same name)"
                : "CopyJoin (each copied table's rows first, buffered; then the statement on its shards, each with the copies"
                        + " as temporary tables of the same names)");
        for (CopyJoin.TableCopy copy : node.copies()) {
            String binds = copy.parameters().isEmpty() ? ""
                    : ", its ? bound to " + copy.parameters().stream().map(ValueSource::describe).toList();
            out.add(INDENT + "copy of " + copy.schema() + "." + copy.table() + binds + ": " + copy.text());
            for (String child : copy.rows().accept(this)) {
                out.add(INDENT + INDENT + child);
            }
        }
        out.add(INDENT + "statement:");
        for (String child : node.statement().accept(this)) {
            out.add(INDENT + INDENT + child);
        }
        return out;
    }

    @Override
    public List<String> visit(InsertFromSelect node) {
        List<String> out = new ArrayList<>();
        InsertSplit template = node.template();
        List<String> parameters = new ArrayList<>();
        String row = render(template.rows().get(0), parameters, template);
        template.suffixParameters().forEach(p -> parameters.add(p.describe()));
        out.add("InsertFromSelect " + node.table() + " by " + template.keyColumn() + " " + template.vindex().describe() + " role=PRIMARY"
                + (template.partitionSelected() ? " partitions=" + template.candidates() : ""));
        out.add(INDENT + "per selected row: " + template.prefix() + row + template.suffix() + " " + parameters);
        node.source().accept(this).forEach(line -> out.add(INDENT + line));
        return out;
    }

    private static String keys(List<SortKey> keys) {
        return keys.toString();
    }
}
