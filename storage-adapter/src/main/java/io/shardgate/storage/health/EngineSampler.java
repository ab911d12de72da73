package io.shardgate.storage.health;

import java.sql.Connection;
import java.sql.SQLException;

/** Reads one {@link EngineSample} from a backend over a control connection. */
public interface EngineSampler {

    /**
     * @param slowChecks also run the checks that scan the data dictionary (corrupt indexes,
     *                   table sizes); the monitor asks for them only every
     *                   {@link HealthSettings#slowCheckInterval()}
     */
    EngineSample sample(Connection connection, boolean slowChecks) throws SQLException;
}
