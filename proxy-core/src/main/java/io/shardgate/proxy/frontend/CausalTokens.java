package io.shardgate.proxy.frontend;

import io.shardgate.proxy.routing.CausalToken;

/**
 * {@code SELECT @@shardgate_causal_token} and {@code SET @@session.shardgate_causal_token = '…'}
 * for either kind of deployment. Unsharded, the session has one position, and its token is version 1
 * (as before, so every Shardgate reads it). Sharded, the session has a position per shard, and its
 * token is version 2, naming each shard's ({@link CausalToken}).
 */
final class CausalTokens {
    private CausalTokens() {
    }

    /** The session's token. */
    static String current(FrontendContext context, ClientSession session) {
        return context.sharding()
                .map(deployment -> CausalToken.of(session.shardPositions().of(deployment.schema().shardNames())))
                .orElseGet(() -> CausalToken.of(session.causalPosition()));
    }

    /** The session's reads must see what {@code token} names, too; IllegalArgumentException when it is no token. */
    static void present(FrontendContext context, ClientSession session, String token) {
        CausalToken.Presented presented = CausalToken.parse(token);
        if (context.sharding().isPresent()) {
            session.shardPositions().present(presented);
        } else {
            session.causalPosition(CausalToken.union(session.causalPosition(), presented.forShard(context.backends().shard())));
        }
    }
}
