import CGLib

/// A GSettings object for one installed schema.
public final class Settings: ObjectRef {
    public enum LookupError: Error, Equatable, CustomStringConvertible {
        case schemaNotInstalled(String)
        case noSuchKey(schema: String, key: String)

        public var description: String {
            switch self {
            case .schemaNotInstalled(let id):
                "the settings schema \(id) is not installed (GSETTINGS_SCHEMA_DIR or the system schema directory)"
            case let .noSuchKey(schema, key):
                "the settings schema \(schema) has no key \"\(key)\""
            }
        }
    }

    public let schemaID: String
    private let schema: OpaquePointer

    /// Where to look for the schema.
    public enum SchemaSource {
        /// The installed schemas, plus GSETTINGS_SCHEMA_DIR.
        case installed
        /// Compiled schemas in one directory (gschemas.compiled), e.g. a test's own.
        case directory(String)
    }

    /// Where values are stored.
    public enum Storage {
        /// The desktop's settings (dconf), or whatever GSETTINGS_BACKEND names.
        case `default`
        /// In this process only, gone when it exits.
        case memory
    }

    /// Opens the schema; throws instead of aborting (as `g_settings_new` does)
    /// when it is not installed.
    public init(schemaID: String, source: SchemaSource = .installed, storage: Storage = .default) throws {
        let lookupSource: OpaquePointer
        switch source {
        case .installed:
            guard let installed = g_settings_schema_source_get_default() else {
                throw LookupError.schemaNotInstalled(schemaID)
            }
            lookupSource = g_settings_schema_source_ref(installed)
        case .directory(let path):
            let created = try GLibError.check { error in
                g_settings_schema_source_new_from_directory(path, nil, 0, error)
            }
            guard let created else { throw LookupError.schemaNotInstalled(schemaID) }
            lookupSource = created
        }
        defer { g_settings_schema_source_unref(lookupSource) }
        guard let schema = g_settings_schema_source_lookup(lookupSource, schemaID, 1) else {
            throw LookupError.schemaNotInstalled(schemaID)
        }
        self.schemaID = schemaID
        self.schema = schema
        switch storage {
        case .default:
            super.init(g_settings_new_full(schema, nil, nil), transfer: .full)
        case .memory:
            let backend = g_memory_settings_backend_new()
            defer { g_object_unref(backend) }
            super.init(g_settings_new_full(schema, backend, nil), transfer: .full)
        }
    }

    deinit { g_settings_schema_unref(schema) }

    private var settings: UnsafeMutablePointer<GSettings> { pointer(as: GSettings.self) }

    private func checked(_ key: String) throws -> String {
        guard g_settings_schema_has_key(schema, key) != 0 else {
            throw LookupError.noSuchKey(schema: schemaID, key: key)
        }
        return key
    }

    /// The key's current value, whatever its type.
    public func value(forKey key: String) throws -> Variant {
        Variant(taking: g_settings_get_value(settings, try checked(key)))
    }

    /// Writes a value; returns false, changing nothing, when the key is not
    /// writable or the value has the wrong type or is outside the schema's range.
    @discardableResult
    public func setValue(_ value: Variant, forKey key: String) throws -> Bool {
        let schemaKey = g_settings_schema_get_key(schema, try checked(key))!
        defer { g_settings_schema_key_unref(schemaKey) }
        guard g_variant_is_of_type(value.pointer, g_settings_schema_key_get_value_type(schemaKey)) != 0,
              g_settings_schema_key_range_check(schemaKey, value.pointer) != 0,
              g_settings_is_writable(settings, key) != 0 else { return false }
        return g_settings_set_value(settings, key, value.pointer) != 0
    }

    public func bool(forKey key: String) throws -> Bool { g_settings_get_boolean(settings, try checked(key)) != 0 }
    public func int(forKey key: String) throws -> Int32 { g_settings_get_int(settings, try checked(key)) }
    public func double(forKey key: String) throws -> Double { g_settings_get_double(settings, try checked(key)) }
    public func string(forKey key: String) throws -> String {
        let text = g_settings_get_string(settings, try checked(key))!
        defer { g_free(text) }
        return String(cString: text)
    }

    /// A stateful action whose state is the key's value: activating
    /// "app.KEY(value)" writes the key, and menu items with targets show as
    /// radio items checked by the current value.
    public func action(forKey key: String) throws -> ObjectRef {
        ObjectRef(g_settings_create_action(settings, try checked(key)), transfer: .full)
    }

    /// Calls `handler` whenever the key changes.
    @discardableResult
    public func onChange(_ key: String, _ handler: @escaping @MainActor () -> Void) throws -> SignalConnection {
        // "changed" passes the key's name as its one argument.
        onSignal("changed::\(try checked(key))") { (_: UnsafeMutableRawPointer?) in handler() }
    }
}
