package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.Command;
import io.shardgate.router.classify.StatementClassifier;

/**
 * A connection's command executors, one per command, picked by {@link #executor} with a switch
 * over {@link Command}; what the proxy does not serve goes to {@link SimpleCommands.Unsupported}.
 */
final class Commands {
    private final CommandExecutor query;
    private final CommandExecutor prepare;
    private final CommandExecutor execute;
    private final CommandExecutor bulkExecute;
    private final CommandExecutor fetch;
    private final CommandExecutor longData;
    private final CommandExecutor close;
    private final CommandExecutor reset;
    private final CommandExecutor changeUser;
    private final CommandExecutor resetConnection;
    private final CommandExecutor setOption;
    private final CommandExecutor forwarded;
    private final CommandExecutor quit;
    private final CommandExecutor ping;
    private final CommandExecutor processKill;
    private final CommandExecutor unsupported;

    Commands(CommandScope scope, Login login, DdlGate ddlGate) {
        StatementClassifier classifier = new StatementClassifier();
        OwnStatements own = new OwnStatements(scope);
        this.query = new QueryExecutor(scope, classifier, ddlGate, own);
        this.prepare = new PrepareExecutor(scope, classifier, ddlGate);
        this.execute = new StmtExecuteExecutor(scope, Command.STMT_EXECUTE, ddlGate);
        this.bulkExecute = new StmtExecuteExecutor(scope, Command.STMT_BULK_EXECUTE, ddlGate);
        this.fetch = new StmtFetchExecutor(scope);
        this.longData = new LongDataExecutor(scope);
        this.close = new StmtCloseExecutor(scope);
        this.reset = new StmtResetExecutor(scope);
        this.changeUser = new ChangeUserExecutor(scope, login);
        this.resetConnection = new SimpleCommands.ResetConnection(scope);
        this.setOption = new SimpleCommands.SetOption(scope);
        this.forwarded = new SimpleCommands.Forwarded(scope);
        this.quit = new SimpleCommands.Quit(scope);
        this.ping = new SimpleCommands.Ping(scope);
        this.processKill = new SimpleCommands.ProcessKill(own);
        this.unsupported = new SimpleCommands.Unsupported(scope);
    }

    CommandExecutor executor(Command command) {
        return switch (command) {
            case QUERY -> query;
            case STMT_PREPARE -> prepare;
            case STMT_EXECUTE -> execute;
            case STMT_BULK_EXECUTE -> bulkExecute;
            case STMT_FETCH -> fetch;
            case STMT_SEND_LONG_DATA -> longData;
            case STMT_CLOSE -> close;
            case STMT_RESET -> reset;
            case CHANGE_USER -> changeUser;
            case RESET_CONNECTION -> resetConnection;
            case SET_OPTION -> setOption;
            case INIT_DB, FIELD_LIST, STATISTICS, DEBUG -> forwarded;
            case QUIT -> quit;
            case PING -> ping;
            case PROCESS_KILL -> processKill;
            default -> unsupported;
        };
    }
}
