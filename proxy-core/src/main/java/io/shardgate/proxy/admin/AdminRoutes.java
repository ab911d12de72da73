package io.shardgate.proxy.admin;

/**
 * Admin endpoints that may block (they talk to the topology store): the server runs them on a thread
 * of their own, never on its event loop.
 */
public interface AdminRoutes {
    /** An answer: an HTTP status and a JSON body. */
    record Reply(int status, String json) {
    }

    AdminRoutes NONE = new AdminRoutes() {
        @Override
        public boolean handles(String method, String path) {
            return false;
        }

        @Override
        public Reply handle(AdminRequest request) {
            throw new IllegalStateException("no route");
        }
    };

    /** The routes of each of {@code routes}, the first that handles a request answering it. */
    static AdminRoutes all(AdminRoutes... routes) {
        java.util.List<AdminRoutes> list = java.util.List.of(routes);
        return new AdminRoutes() {
            @Override
            public boolean handles(String method, String path) {
                return list.stream().anyMatch(route -> route.handles(method, path));
            }

            @Override
            public Reply handle(AdminRequest request) {
                return list.stream().filter(route -> route.handles(request.method(), request.path())).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no route")).handle(request);
            }
        };
    }

    /** True when {@code method path} is one of these routes. */
    boolean handles(String method, String path);

    Reply handle(AdminRequest request);
}
