import Bindings
import TrackcastLibrary

/// The library asks for a `SecretStore`; libsecret's keyring is one as it is.
extension Keyring: SecretStore {}
