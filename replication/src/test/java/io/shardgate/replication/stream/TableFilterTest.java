package io.shardgate.replication.stream;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class TableFilterTest {
    @Test
    void everythingButSystemSchemasByDefault() {
        TableFilter all = TableFilter.all();
        assertThat(all.carriesTable("shop", "orders")).isTrue();
        for (String system : Set.of("mysql", "information_schema", "performance_schema", "sys", "_shardgate")) {
            assertThat(all.carriesSchema(system)).as(system).isFalse();
        }
        assertThat(all.carriesSchema(null)).isFalse();
    }

    @Test
    void includeAndExcludeSchemasAndTables() {
        TableFilter filter = new TableFilter(Set.of("a", "b"), Set.of("b"), Set.of(), Set.of("a.secret"));
        assertThat(filter.carriesTable("a", "t")).isTrue();
        assertThat(filter.carriesTable("a", "secret")).isFalse();
        assertThat(filter.carriesTable("b", "t")).as("exclude wins over include").isFalse();
        assertThat(filter.carriesTable("c", "t")).isFalse();

        TableFilter onlyOne = new TableFilter(Set.of(), Set.of(), Set.of("a.t"), Set.of());
        assertThat(onlyOne.carriesTable("a", "t")).isTrue();
        assertThat(onlyOne.carriesTable("a", "u")).isFalse();
        assertThat(onlyOne.carriesSchema("a")).isTrue();
    }
}
