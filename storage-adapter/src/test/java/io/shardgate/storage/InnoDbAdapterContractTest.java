package io.shardgate.storage;

import io.shardgate.storage.capability.FactsFixture;
import io.shardgate.storage.capability.ServerFacts;

class InnoDbAdapterContractTest extends StorageAdapterContractTest {
    @Override
    StorageAdapter adapter() {
        return new InnoDbAdapter();
    }

    @Override
    ServerFacts facts() {
        return FactsFixture.load(FactsFixture.PLAIN);
    }
}
