package io.shardgate.router.planner;

import io.shardgate.router.plan.ShardSql;
import io.shardgate.router.plan.ValueSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Edits of the statement's text (replace, insert, delete ranges), applied at once; the text between
 * edits is kept byte for byte, and the parameters of every {@code ?} follow it.
 */
final class SqlRewriter {

    private record Edit(int start, int end, Tokens.Fragment replacement, int order) {
    }

    private final Tokens tokens;
    private final List<Edit> edits = new ArrayList<>();

    SqlRewriter(Tokens tokens) {
        this.tokens = tokens;
    }

    void replace(int start, int end, Tokens.Fragment replacement) {
        if (start > end) {
            throw new IllegalArgumentException("edit [" + start + ", " + end + ") is backwards");
        }
        edits.add(new Edit(start, end, replacement, edits.size()));
    }

    void insert(int at, Tokens.Fragment text) {
        replace(at, at, text);
    }

    void delete(int start, int end) {
        replace(start, end, Tokens.Fragment.of(""));
    }

    boolean changed() {
        return !edits.isEmpty();
    }

    ShardSql build() {
        Tokens.Fragment whole = build(0, tokens.sql().length());
        return new ShardSql(whole.text(), whole.parameters());
    }

    /** The edited text of {@code [start, end)}; edits must lie wholly inside or outside it (an insertion at {@code end} belongs to what follows). */
    Tokens.Fragment build(int start, int end) {
        List<Edit> sorted = new ArrayList<>();
        for (Edit edit : edits) {
            boolean inside = edit.start() >= start && edit.end() <= end;
            boolean outside = edit.end() <= start || edit.start() >= end;
            if (inside && !(edit.start() == end && edit.end() == end && end < tokens.sql().length())) {
                sorted.add(edit);
            }
            else if (!outside) {
                throw new IllegalStateException("an edit at " + edit.start() + " straddles [" + start + ", " + end + ")");
            }
        }
        sorted.sort(Comparator.comparingInt(Edit::start).thenComparingInt(Edit::end).thenComparingInt(Edit::order));
        StringBuilder text = new StringBuilder();
        List<ValueSource> parameters = new ArrayList<>();
        int at = start;
        for (Edit edit : sorted) {
            if (edit.start() < at) {
                throw new IllegalStateException("overlapping edits of the statement at " + edit.start());
            }
            keep(at, edit.start(), text, parameters);
            text.append(edit.replacement().text());
            parameters.addAll(edit.replacement().parameters());
            at = edit.end();
        }
        keep(at, end, text, parameters);
        return new Tokens.Fragment(text.toString(), parameters);
    }

    private void keep(int start, int end, StringBuilder text, List<ValueSource> parameters) {
        Tokens.Fragment kept = tokens.fragment(start, end);
        text.append(kept.text());
        parameters.addAll(kept.parameters());
    }
}
