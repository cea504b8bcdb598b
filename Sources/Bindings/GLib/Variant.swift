import CGLib

/// An immutable GVariant, built and read without the variadic
/// `g_variant_new`/`g_variant_get`. Holds one strong (sunk) reference.
public final class Variant: @unchecked Sendable, CustomStringConvertible, Equatable {
    // Sendable because a GVariant is immutable and its reference counting is
    // atomic; GLib documents GVariant as safe to share between threads.
    public let pointer: OpaquePointer

    /// Wraps a GVariant the caller hands over. Floating references (fresh
    /// builder results) are sunk; a full reference is adopted as is.
    public init(taking pointer: OpaquePointer) {
        self.pointer = pointer
        if g_variant_is_floating(pointer) != 0 { g_variant_ref_sink(pointer) }
    }

    /// Wraps a GVariant borrowed from C; adds a reference of its own.
    public init(borrowing pointer: OpaquePointer) {
        self.pointer = g_variant_ref_sink(pointer)
    }

    deinit { g_variant_unref(pointer) }

    // MARK: Building

    public convenience init(_ value: Bool) { self.init(taking: g_variant_new_boolean(value ? 1 : 0)) }
    public convenience init(_ value: Int32) { self.init(taking: g_variant_new_int32(value)) }
    public convenience init(_ value: UInt32) { self.init(taking: g_variant_new_uint32(value)) }
    public convenience init(_ value: Int64) { self.init(taking: g_variant_new_int64(gint64(value))) }
    public convenience init(_ value: UInt64) { self.init(taking: g_variant_new_uint64(guint64(value))) }
    public convenience init(_ value: Double) { self.init(taking: g_variant_new_double(value)) }
    public convenience init(_ value: String) { self.init(taking: g_variant_new_string(value)) }

    /// An object path (`o`); nil if `path` is not a valid D-Bus object path.
    public convenience init?(objectPath path: String) {
        guard g_variant_is_object_path(path) != 0 else { return nil }
        self.init(taking: g_variant_new_object_path(path))
    }

    /// A boxed value (`v`).
    public convenience init(boxing value: Variant) {
        self.init(taking: g_variant_new_variant(value.pointer))
    }

    /// A tuple of the given children, `()` when empty.
    public convenience init(tuple children: [Variant]) {
        let pointers: [OpaquePointer?] = children.map { $0.pointer }
        let built = pointers.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        self.init(taking: built!)
        withExtendedLifetime(children) {}
    }

    /// An array whose elements have type `elementType` (e.g. "s"); the element
    /// type is needed because the array may be empty.
    public convenience init(array elements: [Variant], elementType: String) {
        precondition(elements.allSatisfy { $0.typeString == elementType },
                     "every element of an a\(elementType) must have type \(elementType)")
        let type = g_variant_type_new(elementType)
        defer { g_variant_type_free(type) }
        let pointers: [OpaquePointer?] = elements.map { $0.pointer }
        let built = pointers.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
        self.init(taking: built!)
        withExtendedLifetime(elements) {}
    }

    /// An `as`.
    public convenience init(strings: [String]) {
        self.init(array: strings.map { Variant($0) }, elementType: "s")
    }

    /// A vardict (`a{sv}`), the shape of D-Bus property maps, with sorted keys.
    public convenience init(dictionary: [String: Variant]) {
        let entries = dictionary.keys.sorted().map { key in
            let keyVariant = Variant(key)
            let boxedValue = Variant(boxing: dictionary[key]!)
            return withExtendedLifetime((keyVariant, boxedValue)) {
                Variant(taking: g_variant_new_dict_entry(keyVariant.pointer, boxedValue.pointer))
            }
        }
        self.init(array: entries, elementType: "{sv}")
    }

    // MARK: Reading

    /// The GVariant type string, e.g. "a{sv}".
    public var typeString: String { String(cString: g_variant_get_type_string(pointer)) }

    public func isOfType(_ type: String) -> Bool {
        guard g_variant_type_string_is_valid(type) != 0 else { return false }
        let variantType = g_variant_type_new(type)
        defer { g_variant_type_free(variantType) }
        return g_variant_is_of_type(pointer, variantType) != 0
    }

    public var bool: Bool? { isOfType("b") ? g_variant_get_boolean(pointer) != 0 : nil }
    public var int32: Int32? { isOfType("i") ? g_variant_get_int32(pointer) : nil }
    public var uint32: UInt32? { isOfType("u") ? g_variant_get_uint32(pointer) : nil }
    public var int64: Int64? { isOfType("x") ? Int64(g_variant_get_int64(pointer)) : nil }
    public var uint64: UInt64? { isOfType("t") ? UInt64(g_variant_get_uint64(pointer)) : nil }
    public var double: Double? { isOfType("d") ? g_variant_get_double(pointer) : nil }

    /// The text of a string, object path or signature.
    public var string: String? {
        guard isOfType("s") || isOfType("o") || isOfType("g") else { return nil }
        return String(cString: g_variant_get_string(pointer, nil))
    }

    /// The value inside a `v`.
    public var unboxed: Variant? {
        isOfType("v") ? Variant(taking: g_variant_get_variant(pointer)) : nil
    }

    /// The children of a container (tuple, array, dict entry, maybe); empty otherwise.
    public var children: [Variant] {
        guard g_variant_is_container(pointer) != 0 else { return [] }
        return (0..<g_variant_n_children(pointer)).map { Variant(taking: g_variant_get_child_value(pointer, $0)) }
    }

    /// The entries of a vardict, boxed values unwrapped; nil for other types.
    public var dictionary: [String: Variant]? {
        guard isOfType("a{sv}") else { return nil }
        var result: [String: Variant] = [:]
        for entry in children {
            let keyAndValue = entry.children
            if let key = keyAndValue[0].string, let value = keyAndValue[1].unboxed { result[key] = value }
        }
        return result
    }

    /// GVariant text format, e.g. `{'a': <int64 5>}`.
    public var description: String {
        let text = g_variant_print(pointer, 1)!
        defer { g_free(text) }
        return String(cString: text)
    }

    public static func == (lhs: Variant, rhs: Variant) -> Bool {
        g_variant_equal(UnsafeRawPointer(lhs.pointer), UnsafeRawPointer(rhs.pointer)) != 0
    }
}
