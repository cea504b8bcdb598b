import Bindings
import Glibc

// Prints ByteSize.text of each argument, in the locale the environment names
// (setlocale as the app does): the byte-size test runs it under LANGUAGE=de.
setlocale(LC_ALL, "")
for argument in CommandLine.arguments.dropFirst() {
    print(ByteSize.text(Int64(argument) ?? 0))
}
