package io.shardgate.storage.ddl;

import java.util.Comparator;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One change to the client's statement: the characters from {@code start} to {@code end} replaced
 * by {@code text} (an insertion when they are equal). Offsets are the original statement's.
 */
record TextEdit(int start, int end, String text) {
    TextEdit {
        requireNonNull(text, "text is null");
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("edit from " + start + " to " + end);
        }
    }

    static TextEdit insert(int at, String text) {
        return new TextEdit(at, at, text);
    }

    /** {@code sql} with {@code edits}, which do not overlap, applied from the last to the first. */
    static String apply(String sql, List<TextEdit> edits) {
        StringBuilder out = new StringBuilder(sql);
        edits.stream().sorted(Comparator.comparingInt(TextEdit::start).reversed())
                .forEach(edit -> out.replace(edit.start(), edit.end(), edit.text()));
        return out.toString();
    }
}
