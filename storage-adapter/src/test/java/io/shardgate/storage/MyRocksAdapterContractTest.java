package io.shardgate.storage;

import io.shardgate.storage.capability.FactsFixture;
import io.shardgate.storage.capability.ServerFacts;

class MyRocksAdapterContractTest extends StorageAdapterContractTest {
    @Override
    StorageAdapter adapter() {
        return new MyRocksAdapter();
    }

    @Override
    ServerFacts facts() {
        return FactsFixture.load(FactsFixture.ROCKSDB_LZ4);
    }
}
