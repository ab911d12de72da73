package io.shardgate.storage.ddl;

import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.FactsFixture;
import io.shardgate.storage.capability.InnoDbCapabilities;
import io.shardgate.storage.capability.MyRocksCapabilities;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs {@code /ddl/validator_cases.txt}. */
class DdlValidatorCasesTest {
    private static final EngineCapabilities INNODB = InnoDbCapabilities.from(FactsFixture.load(FactsFixture.PLAIN));
    private static final EngineCapabilities ROCKSDB = MyRocksCapabilities.from(FactsFixture.load(FactsFixture.ROCKSDB_LZ4));

    private final DdlValidator validator = new DdlValidator();

    @TestFactory
    List<DynamicTest> goldenCases() {
        List<DynamicTest> tests = new ArrayList<>();
        for (ValidatorCases.Case each : ValidatorCases.load()) {
            tests.add(DynamicTest.dynamicTest("innodb " + each, () ->
                    assertThat(show(validator.validate(each.sql(), INNODB, "s0", each.allow())))
                            .as(each.title()).isEqualTo(each.innodb())));
            tests.add(DynamicTest.dynamicTest("rocksdb " + each, () ->
                    assertThat(show(validator.validate(each.sql(), ROCKSDB, "s1", each.allow())))
                            .as(each.title()).isEqualTo(each.rocksdb())));
        }
        assertThat(tests).hasSizeGreaterThan(100);
        return tests;
    }

    /** A verdict as the cases file writes it. */
    static String show(DdlVerdict verdict) {
        if (verdict instanceof DdlVerdict.Accepted accepted) {
            return accepted.rewritten() ? "REWRITE " + accepted.sql() : "ACCEPT";
        }
        DdlVerdict.Refused refused = (DdlVerdict.Refused) verdict;
        return "REFUSE " + refused.code() + " " + refused.errno() + " " + refused.sqlState() + " " + refused.message();
    }
}
