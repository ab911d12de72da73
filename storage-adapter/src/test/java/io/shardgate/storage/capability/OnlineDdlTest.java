package io.shardgate.storage.capability;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static io.shardgate.storage.capability.AlterAlgorithm.COPY;
import static io.shardgate.storage.capability.AlterAlgorithm.INPLACE;
import static io.shardgate.storage.capability.AlterAlgorithm.INSTANT;
import static io.shardgate.storage.capability.AlterAlgorithm.NOCOPY;
import static io.shardgate.storage.capability.AlterLock.EXCLUSIVE;
import static io.shardgate.storage.capability.AlterLock.NONE;
import static io.shardgate.storage.capability.AlterLock.SHARED;
import static io.shardgate.storage.capability.AlterOperation.ADD_COLUMN;
import static io.shardgate.storage.capability.AlterOperation.ADD_INDEX;
import static io.shardgate.storage.capability.AlterOperation.DROP_INDEX;
import static io.shardgate.storage.capability.AlterOperation.MODIFY_COLUMN;
import static io.shardgate.storage.capability.AlterOperation.OTHER;
import static io.shardgate.storage.capability.AlterOperation.RENAME_TABLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The combinations were each run on MariaDB 10.11.19 (see docs/engines.md). */
class OnlineDdlTest {
    private final OnlineDdl innodb = InnoDbCapabilities.ONLINE_DDL;
    private final OnlineDdl myrocks = MyRocksCapabilities.ONLINE_DDL;

    @Test
    void singleOperations() {
        assertThat(innodb.leastBlocking(Set.of(ADD_INDEX)).best()).isEqualTo(AlterChoice.of(NOCOPY, NONE));
        assertThat(innodb.leastBlocking(Set.of(ADD_COLUMN)).best()).isEqualTo(AlterChoice.of(INSTANT, NONE));
        assertThat(myrocks.leastBlocking(Set.of(ADD_INDEX)).best()).isEqualTo(AlterChoice.of(INPLACE, SHARED));
        assertThat(myrocks.leastBlocking(Set.of(ADD_COLUMN)).best()).isEqualTo(AlterChoice.of(COPY, SHARED));
        assertThat(myrocks.leastBlocking(Set.of(RENAME_TABLE)).best()).isEqualTo(AlterChoice.of(INSTANT, EXCLUSIVE));
    }

    @Test
    void differentAlgorithmsCombineToAtLeastInplace() {
        // InnoDB: ADD COLUMN (INSTANT) with ADD INDEX (NOCOPY) runs only as INPLACE, LOCK=NONE.
        assertThat(innodb.leastBlocking(EnumSet.of(ADD_COLUMN, ADD_INDEX)).best()).isEqualTo(AlterChoice.of(INPLACE, NONE));
        // Same algorithm: kept.
        assertThat(innodb.leastBlocking(EnumSet.of(ADD_INDEX, DROP_INDEX)).best()).isEqualTo(AlterChoice.of(NOCOPY, NONE));
        assertThat(myrocks.leastBlocking(EnumSet.of(ADD_INDEX, DROP_INDEX)).best()).isEqualTo(AlterChoice.of(INPLACE, SHARED));
        assertThat(myrocks.leastBlocking(EnumSet.of(ADD_INDEX, ADD_COLUMN)).best()).isEqualTo(AlterChoice.of(COPY, SHARED));
    }

    @Test
    void renameIsFreeNextToInnoDbOperationsButCopiesOnMyRocks() {
        assertThat(innodb.leastBlocking(EnumSet.of(RENAME_TABLE, ADD_INDEX)).best()).isEqualTo(AlterChoice.of(NOCOPY, NONE));
        assertThat(innodb.leastBlocking(EnumSet.of(RENAME_TABLE, ADD_COLUMN)).best()).isEqualTo(AlterChoice.of(INSTANT, NONE));
        assertThat(myrocks.leastBlocking(EnumSet.of(RENAME_TABLE, ADD_INDEX)).best()).isEqualTo(AlterChoice.of(COPY, SHARED));
    }

    @Test
    void replacingThePrimaryKeyCostsWhatAddingOneCosts() {
        assertThat(innodb.leastBlocking(EnumSet.of(AlterOperation.DROP_PRIMARY_KEY)).best())
                .isEqualTo(AlterChoice.of(COPY, SHARED));
        assertThat(innodb.leastBlocking(EnumSet.of(AlterOperation.DROP_PRIMARY_KEY, AlterOperation.ADD_PRIMARY_KEY)).best())
                .isEqualTo(AlterChoice.of(INPLACE, NONE));
        assertThat(myrocks.leastBlocking(EnumSet.of(AlterOperation.DROP_PRIMARY_KEY, AlterOperation.ADD_PRIMARY_KEY)).best())
                .isEqualTo(AlterChoice.of(COPY, SHARED));
    }

    @Test
    void autoIncrementAndCharsetConversion() {
        assertThat(innodb.leastBlocking(EnumSet.of(AlterOperation.CHANGE_AUTO_INCREMENT)).best())
                .isEqualTo(AlterChoice.of(INSTANT, NONE));
        assertThat(myrocks.leastBlocking(EnumSet.of(AlterOperation.CHANGE_AUTO_INCREMENT)).best())
                .isEqualTo(AlterChoice.of(INPLACE, SHARED));
        assertThat(innodb.rule(AlterOperation.CONVERT_CHARSET).certainty()).isEqualTo(OnlineDdlRule.Certainty.LOCK_ONLY);
    }

    @Test
    void certaintyIsTheWeakest() {
        assertThat(innodb.leastBlocking(EnumSet.of(ADD_INDEX, MODIFY_COLUMN)).certainty())
                .isEqualTo(OnlineDdlRule.Certainty.LOCK_ONLY);
        assertThat(innodb.leastBlocking(EnumSet.of(ADD_INDEX, OTHER)).certainty())
                .isEqualTo(OnlineDdlRule.Certainty.UNKNOWN);
        assertThat(innodb.leastBlocking(EnumSet.of(ADD_INDEX)).certainty()).isEqualTo(OnlineDdlRule.Certainty.EXACT);
    }

    @Test
    void blockingChoices() {
        assertThat(AlterChoice.of(NOCOPY, NONE).blocksWrites()).isFalse();
        assertThat(AlterChoice.of(INPLACE, SHARED).blocksWrites()).isTrue();
        assertThat(AlterChoice.of(COPY, SHARED).blocksWrites()).isTrue();
        assertThat(AlterChoice.of(INSTANT, EXCLUSIVE).blocksWrites()).as("a rename holds its lock for a moment").isFalse();
    }

    @Test
    void emptyIsAnError() {
        assertThatThrownBy(() -> innodb.leastBlocking(Set.of())).hasMessage("no operations");
    }
}
