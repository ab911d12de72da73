package io.shardgate.proxy.frontend;

import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;

import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/** The proxy's command phase: sessions reach their backends through one {@link CommandRouter} per connection. */
final class RoutedCommandPhase implements CommandPhase {
    private final FrontendContext context;
    private final CommandRouter router;

    RoutedCommandPhase(FrontendContext context) {
        this.context = requireNonNull(context, "context is null");
        this.router = new CommandRouter(context);
    }

    @Override
    public CompletableFuture<Void> openSchema(ClientSession session, EventLoop loop) {
        return openSchema(router, session, loop);
    }

    /** Connecting with a schema fails at once if the schema is unknown, as on a server (also after COM_CHANGE_USER). */
    static CompletableFuture<Void> openSchema(CommandRouter router, ClientSession session, EventLoop loop) {
        CompletableFuture<Void> opened = new CompletableFuture<>();
        router.backendFor(session, loop, null, false, false).whenComplete((backend, error) -> loop.execute(() -> {
            if (error != null) {
                opened.completeExceptionally(error);
                return;
            }
            router.commandFinished(session);
            opened.complete(null);
        }));
        return opened;
    }

    @Override
    public void abandon(ClientSession session) {
        router.endSession(session, false);
    }

    @Override
    public ChannelHandler commands(Login login) {
        return new FrontendHandler(context, router, login);
    }
}
