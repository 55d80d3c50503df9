package tkg.neo4j;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.graphdb.QueryExecutionException;
import org.neo4j.io.ByteUnit;

/**
 * Runs an embedded Neo4j Community DBMS with a Bolt connector until SIGTERM.
 *
 * <p>Why: tkg's tests and development need a real Neo4j 5.26 (full-text and vector indexes) on
 * machines without Docker or tarball downloads; Maven Central is enough to get this.
 *
 * <p>Usage: {@code java -cp LIBS:CLASSES tkg.neo4j.Launcher HOME PORT}. Environment:
 * {@code TKG_NEO4J_PASSWORD} (optional, at least 8 characters) turns auth on for user neo4j;
 * {@code TKG_NEO4J_PAGECACHE} (default 256m) sets the page cache. Prints
 * {@code TKG_NEO4J_READY bolt://127.0.0.1:PORT} on stdout once the default database is available.
 */
public final class Launcher {
    private Launcher() {}

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable e) {
            // Neo4j's non-daemon threads would keep a half-started JVM alive; exit so start.sh sees it.
            System.out.println("TKG_NEO4J_FAILED " + e);
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: tkg.neo4j.Launcher HOME PORT");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        String password = System.getenv().getOrDefault("TKG_NEO4J_PASSWORD", "");
        long pageCache = parseBytes(System.getenv().getOrDefault("TKG_NEO4J_PAGECACHE", "256m"));

        long started = System.nanoTime();
        DatabaseManagementService service = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(GraphDatabaseSettings.auth_enabled, !password.isEmpty())
                .setConfig(GraphDatabaseSettings.pagecache_memory, pageCache)
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                // dbms.security.allow_csv_import_from_file_urls=false: LOAD CSV reads no local file
                // (tkg never needs it; a read-only session would still let it read one)
                .setConfig(GraphDatabaseSettings.allow_file_urls, false)
                // Bolt waits 5 s for connections and 5 s for its threads on shutdown; tests stop it often.
                .setConfig(BoltConnectorInternalSettings.connection_shutdown_wait_time, Duration.ofSeconds(1))
                .setConfig(BoltConnectorInternalSettings.thread_pool_shutdown_wait_time, Duration.ofSeconds(1))
                .setConfig(BoltConnectorInternalSettings.enable_local_connector, false)
                .build();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("TKG_NEO4J_STOPPING");
            service.shutdown();
            System.out.println("TKG_NEO4J_STOPPED");
            stopped.countDown();
        }, "tkg-neo4j-shutdown"));

        if (!password.isEmpty()) {
            setPassword(service, password);
        }
        GraphDatabaseService db = service.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        if (!db.isAvailable(Duration.ofMinutes(2).toMillis())) {
            throw new IllegalStateException("default database did not become available in 2 minutes");
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.println("TKG_NEO4J_READY bolt://127.0.0.1:" + port + " (" + millis + " ms)");
        System.out.flush();
        stopped.await();
    }

    /** Sets the neo4j user's password through the system database, as neo4j-admin would. */
    private static void setPassword(DatabaseManagementService service, String password) {
        GraphDatabaseService system = service.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        try {
            system.executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED", Map.of("password", password));
        } catch (QueryExecutionException e) {
            // A restart on the same home with the same password: nothing to change.
            if (e.getMessage() == null || !e.getMessage().contains("Old password and new password cannot be the same")) {
                throw e;
            }
        }
    }

    /** Parses sizes such as 256m, 1g or 1048576. */
    static long parseBytes(String text) {
        String t = text.trim().toLowerCase();
        char unit = t.charAt(t.length() - 1);
        if (Character.isDigit(unit)) {
            return Long.parseLong(t);
        }
        long n = Long.parseLong(t.substring(0, t.length() - 1));
        return switch (unit) {
            case 'k' -> ByteUnit.kibiBytes(n);
            case 'm' -> ByteUnit.mebiBytes(n);
            case 'g' -> ByteUnit.gibiBytes(n);
            default -> throw new IllegalArgumentException("bad size: " + text);
        };
    }
}
