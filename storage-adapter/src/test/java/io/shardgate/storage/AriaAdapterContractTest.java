package io.shardgate.storage;

import io.shardgate.storage.aria.AriaAdapter;
import io.shardgate.storage.capability.FactsFixture;
import io.shardgate.storage.capability.ServerFacts;

/** The contract holds for Aria, a third engine declared only by a test service file. */
class AriaAdapterContractTest extends StorageAdapterContractTest {
    @Override
    StorageAdapter adapter() {
        return new AriaAdapter();
    }

    @Override
    ServerFacts facts() {
        return FactsFixture.load(FactsFixture.PLAIN);
    }
}
