import CGLib

/// A GError as a Swift error: the domain's name, the code and the message.
public struct GLibError: Error, Equatable, CustomStringConvertible {
    public let domain: String
    public let code: Int32
    public let message: String

    public init(domain: String, code: Int32, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// Takes over a GError that a C call set, freeing it.
    public init(consuming error: UnsafeMutablePointer<GError>) {
        domain = String(cString: g_quark_to_string(error.pointee.domain))
        code = error.pointee.code
        message = String(cString: error.pointee.message)
        g_error_free(error)
    }

    public var description: String { message }

    /// Calls a C function that reports failure through a `GError **`, and
    /// throws the error if it set one.
    public static func check<Result>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Result) throws -> Result {
        var error: UnsafeMutablePointer<GError>?
        let result = body(&error)
        if let error { throw GLibError(consuming: error) }
        return result
    }
}
