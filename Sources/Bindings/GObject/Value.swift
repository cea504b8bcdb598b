import CGLib

/// A Swift type that can travel through a `GValue`.
public protocol GValueConvertible {
    static var gType: GType { get }
    /// Reads a value that holds exactly `gType`.
    init(from value: UnsafePointer<GValue>)
    /// Writes into a value initialised to `gType`.
    func store(in value: UnsafeMutablePointer<GValue>)
}

extension Bool: GValueConvertible {
    public static var gType: GType { tc_type_boolean() }
    public init(from value: UnsafePointer<GValue>) { self = g_value_get_boolean(value) != 0 }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_boolean(value, self ? 1 : 0) }
}

extension Int32: GValueConvertible {
    public static var gType: GType { tc_type_int() }
    public init(from value: UnsafePointer<GValue>) { self = g_value_get_int(value) }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_int(value, self) }
}

extension UInt32: GValueConvertible {
    public static var gType: GType { tc_type_uint() }
    public init(from value: UnsafePointer<GValue>) { self = g_value_get_uint(value) }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_uint(value, self) }
}

extension Int64: GValueConvertible {
    public static var gType: GType { tc_type_int64() }
    public init(from value: UnsafePointer<GValue>) { self = Int64(g_value_get_int64(value)) }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_int64(value, gint64(self)) }
}

extension UInt64: GValueConvertible {
    public static var gType: GType { tc_type_uint64() }
    public init(from value: UnsafePointer<GValue>) { self = UInt64(g_value_get_uint64(value)) }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_uint64(value, guint64(self)) }
}

extension Double: GValueConvertible {
    public static var gType: GType { tc_type_double() }
    public init(from value: UnsafePointer<GValue>) { self = g_value_get_double(value) }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_double(value, self) }
}

extension String: GValueConvertible {
    public static var gType: GType { tc_type_string() }
    public init(from value: UnsafePointer<GValue>) {
        self = g_value_get_string(value).map { String(cString: $0) } ?? ""
    }
    public func store(in value: UnsafeMutablePointer<GValue>) { g_value_set_string(value, self) }
}

/// Why a property could not be read or written.
public enum PropertyError: Error, Equatable, CustomStringConvertible {
    case noSuchProperty(type: String, name: String)
    case incompatibleType(property: String, propertyType: String, swiftType: String)

    public var description: String {
        switch self {
        case let .noSuchProperty(type, name):
            "\(type) has no property \"\(name)\""
        case let .incompatibleType(property, propertyType, swiftType):
            "property \"\(property)\" holds \(propertyType), which does not convert to \(swiftType)"
        }
    }
}

extension ObjectRef {
    private func propertySpec(_ name: String) throws -> UnsafeMutablePointer<GParamSpec> {
        guard let spec = g_object_class_find_property(tc_object_get_class(objectPointer), name) else {
            throw PropertyError.noSuchProperty(type: typeName, name: name)
        }
        return spec
    }

    /// Sets a property through a GValue (the variadic `g_object_set` is not
    /// callable from Swift). The value is converted to the property's type
    /// when GLib knows how (e.g. Int32 into a guint property).
    public func setProperty<T: GValueConvertible>(_ name: String, _ newValue: T) throws {
        let spec = try propertySpec(name)
        var source = GValue()
        g_value_init(&source, T.gType)
        defer { g_value_unset(&source) }
        newValue.store(in: &source)
        var target = GValue()
        g_value_init(&target, spec.pointee.value_type)
        defer { g_value_unset(&target) }
        guard g_value_transform(&source, &target) != 0 else {
            throw PropertyError.incompatibleType(property: name,
                                                 propertyType: String(cString: g_type_name(spec.pointee.value_type)),
                                                 swiftType: "\(T.self)")
        }
        g_object_set_property(objectPointer, name, &target)
    }

    /// Reads a property, converting it to `T` when GLib knows how.
    public func property<T: GValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        let spec = try propertySpec(name)
        var stored = GValue()
        g_value_init(&stored, spec.pointee.value_type)
        defer { g_value_unset(&stored) }
        g_object_get_property(objectPointer, name, &stored)
        var converted = GValue()
        g_value_init(&converted, T.gType)
        defer { g_value_unset(&converted) }
        guard g_value_transform(&stored, &converted) != 0 else {
            throw PropertyError.incompatibleType(property: name,
                                                 propertyType: String(cString: g_type_name(spec.pointee.value_type)),
                                                 swiftType: "\(T.self)")
        }
        return T(from: &converted)
    }
}
