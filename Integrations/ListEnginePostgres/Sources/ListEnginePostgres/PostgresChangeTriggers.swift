import Logging
import PostgresNIO

/// The migration that makes a table announce its changes: a trigger function and the
/// triggers that call it after every `INSERT`, `UPDATE`, `DELETE` and `TRUNCATE`, which
/// send the changed rows' ids on a channel with `pg_notify`.
///
/// The triggers fire once per statement and read the statement's rows from transition
/// tables, so a statement that changes 10,000 rows sends a few notifications, not
/// 10,000. A notification's payload is a JSON array of ids as text (`["p1","p2"]`), at
/// most 7,900 bytes (PostgreSQL allows 8,000), several per statement when needed; a
/// `TRUNCATE` sends `*`. Notifications are sent when the transaction commits, in commit
/// order, and not at all when it rolls back. They carry ids only: a listener reads the
/// rows as they are when it gets the notification (``PostgresChangeFeed``).
///
/// ``install(table:idColumn:channel:on:logger:)`` is idempotent: it replaces the function
/// and the triggers in one transaction, under an advisory lock, so that several instances
/// may run it at start.
public enum PostgresChangeTriggers {
    /// The statements ``install(table:idColumn:channel:on:logger:)`` runs, in order,
    /// inside a transaction.
    ///
    /// - Parameters:
    ///   - table: the table, optionally `schema.name`.
    ///   - idColumn: the column of the rows' ids.
    ///   - channel: the channel to notify.
    /// - Returns: the SQL statements.
    /// - Throws: ``PostgresListError/badIdentifier(_:)``.
    /// - Complexity: O(length of the names).
    public static func statements(table: String, idColumn: String, channel: String) throws(PostgresListError) -> [String] {
        let table = try PostgresIdentifier(table)
        let id = try PostgresIdentifier(idColumn)
        let channelName = try PostgresIdentifier(channel)
        guard channelName.parts.count == 1 else { throw .badIdentifier(channel) }
        let base = "listengine_notify_" + table.parts.joined(separator: "_") + "_" + channel
        let function = try PostgresIdentifier(String(base.prefix(63)))
        let trigger = { (event: String) in "\"\(String(("listengine_" + channel + "_" + event).prefix(63)))\"" }
        // The channel is a plain identifier: safe inside a string literal.
        let body = """
            DECLARE
                ids text[];
                one text;
                payload text := '';
            BEGIN
                IF TG_OP = 'TRUNCATE' THEN
                    PERFORM pg_notify('\(channel)', '*');
                    RETURN NULL;
                ELSIF TG_OP = 'INSERT' THEN
                    SELECT array_agg(DISTINCT changed.\(id.sql)::text) INTO ids FROM listengine_new AS changed;
                ELSIF TG_OP = 'UPDATE' THEN
                    SELECT array_agg(DISTINCT both_sides.changed_id) INTO ids FROM (
                        SELECT \(id.sql)::text AS changed_id FROM listengine_new
                        UNION ALL SELECT \(id.sql)::text FROM listengine_old
                    ) AS both_sides;
                ELSE
                    SELECT array_agg(DISTINCT changed.\(id.sql)::text) INTO ids FROM listengine_old AS changed;
                END IF;
                IF ids IS NULL THEN
                    RETURN NULL;
                END IF;
                FOREACH one IN ARRAY ids LOOP
                    one := to_json(one)::text;
                    IF payload <> '' AND octet_length(payload) + octet_length(one) + 3 > 7900 THEN
                        PERFORM pg_notify('\(channel)', '[' || payload || ']');
                        payload := '';
                    END IF;
                    payload := CASE WHEN payload = '' THEN one ELSE payload || ',' || one END;
                END LOOP;
                PERFORM pg_notify('\(channel)', '[' || payload || ']');
                RETURN NULL;
            END
            """
        return [
            // Two instances installing at once wait for each other.
            "SELECT pg_advisory_xact_lock(hashtext('listengine_triggers'))",
            "CREATE OR REPLACE FUNCTION \(function.sql)() RETURNS trigger LANGUAGE plpgsql AS $listengine$\n\(body)\n$listengine$",
            "DROP TRIGGER IF EXISTS \(trigger("insert")) ON \(table.sql)",
            "DROP TRIGGER IF EXISTS \(trigger("update")) ON \(table.sql)",
            "DROP TRIGGER IF EXISTS \(trigger("delete")) ON \(table.sql)",
            "DROP TRIGGER IF EXISTS \(trigger("truncate")) ON \(table.sql)",
            "CREATE TRIGGER \(trigger("insert")) AFTER INSERT ON \(table.sql) REFERENCING NEW TABLE AS listengine_new FOR EACH STATEMENT EXECUTE FUNCTION \(function.sql)()",
            "CREATE TRIGGER \(trigger("update")) AFTER UPDATE ON \(table.sql) REFERENCING OLD TABLE AS listengine_old NEW TABLE AS listengine_new FOR EACH STATEMENT EXECUTE FUNCTION \(function.sql)()",
            "CREATE TRIGGER \(trigger("delete")) AFTER DELETE ON \(table.sql) REFERENCING OLD TABLE AS listengine_old FOR EACH STATEMENT EXECUTE FUNCTION \(function.sql)()",
            "CREATE TRIGGER \(trigger("truncate")) AFTER TRUNCATE ON \(table.sql) FOR EACH STATEMENT EXECUTE FUNCTION \(function.sql)()",
        ]
    }

    /// Creates or replaces the trigger function and the triggers of `table`, in one
    /// transaction; running it again changes nothing.
    ///
    /// - Parameters:
    ///   - table: the table, optionally `schema.name`.
    ///   - idColumn: the column of the rows' ids.
    ///   - channel: the channel to notify (a plain identifier; ``PostgresChangeFeed``
    ///     listens on it).
    ///   - connection: where to run it; not inside another transaction.
    ///   - logger: where the statements are logged.
    /// - Throws: ``PostgresListError/badIdentifier(_:)``, or what PostgreSQL throws
    ///   (the transaction is then rolled back).
    /// - Complexity: one transaction of ten statements.
    public static func install(table: String, idColumn: String, channel: String, on connection: PostgresConnection, logger: Logger) async throws {
        let statements = try statements(table: table, idColumn: idColumn, channel: channel)
        _ = try await connection.query("BEGIN", logger: logger)
        do {
            for statement in statements {
                _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            _ = try await connection.query("COMMIT", logger: logger)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }
}
