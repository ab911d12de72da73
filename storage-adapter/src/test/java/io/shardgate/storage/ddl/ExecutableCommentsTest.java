package io.shardgate.storage.ddl;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which comments MariaDB 10.11 runs, and that opening them keeps every offset. */
class ExecutableCommentsTest {
    private static final String SERVER = "10.11.19-MariaDB-0+deb12u1-log";

    @Test
    void opensTheCommentsTheServerRuns() {
        assertThat(ExecutableComments.open("CREATE TABLE t (id INT) /*! ENGINE = innodb */", SERVER))
                .isEqualTo("CREATE TABLE t (id INT)     ENGINE = innodb   ");
        String versions = "X /*!40101 A */ /*!100100 B */ /*M! C */ /*M!101119 D */";
        String opened = ExecutableComments.open(versions, SERVER);
        assertThat(opened).hasSameSizeAs(versions);
        assertThat(opened.replaceAll(" +", " ")).isEqualTo("X A B C D ");
        assertThat(ExecutableComments.open("X /*!ENGINE=InnoDB*/", SERVER)).isEqualTo("X    ENGINE=InnoDB  ");
        assertThat(ExecutableComments.open("X /*!123 A */", SERVER)).as("fewer than 5 digits are not a version")
                .isEqualTo("X    123 A   ");
    }

    @Test
    void leavesTheCommentsTheServerSkips() {
        for (String sql : new String[]{
                "X /*!50700 A */", "X /*!80016 A */", "X /*!99999 A */", "X /*!101120 A */", "X /*M!110000 A */",
                "X /* A */", "X /*+ A */", "X -- /*! A */", "X # /*! A */", "X '/*! A */'", "X \"/*! A */\"",
                "X `/*! A */`", "X 'it''s /*! A */'", "X 'it\\'s /*! A */'"}) {
            assertThat(ExecutableComments.open(sql, SERVER)).as(sql).isEqualTo(sql);
        }
        assertThat(ExecutableComments.open("X /*M!50700 A */", SERVER)).as("a MariaDB comment with a MySQL 5.7 version runs")
                .isEqualTo("X           A   ");
    }

    @Test
    void readsTheBodyAsStatementText() {
        assertThat(ExecutableComments.open("X /*! COMMENT 'a */ b' */ Y", SERVER))
                .isEqualTo("X     COMMENT 'a */ b'    Y");
        assertThat(ExecutableComments.open("X /*! A /* B */ C */", SERVER)).isEqualTo("X     A /* B */ C   ");
        assertThat(ExecutableComments.open("X /*! A -- */\n B */", SERVER)).isEqualTo("X     A -- */\n B   ");
        assertThat(ExecutableComments.open("X /*! A", SERVER)).as("unclosed: for the parser to refuse")
                .isEqualTo("X /*! A");
    }

    @Test
    void versionIds() {
        assertThat(ExecutableComments.versionId(SERVER)).isEqualTo(101119);
        assertThat(ExecutableComments.versionId("10.5.2-MariaDB")).isEqualTo(100502);
        assertThat(ExecutableComments.versionId("11.4.5")).isEqualTo(110405);
        assertThat(ExecutableComments.versionId("unknown")).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(() -> ExecutableComments.open("X", null)).hasMessage("serverVersion is null");
    }
}
