/// The charset labels a feed may name (in its XML declaration or its HTTP
/// `charset`), as the WHATWG Encoding Standard lists them, each with the
/// encoding it means.
///
/// Only these reach iconv. glibc's iconv knows over a thousand names
/// (EBCDIC code pages, UTF-7, UCS-4, stateful ISO-2022 variants, anything a
/// gconv module adds), each a decoder a stranger's feed could pick; browsers
/// accept exactly this list, which is every encoding real feeds use.
enum EncodingLabel {
    /// What a label names, ready for `FeedInputDecoder`.
    enum Encoding: Equatable {
        case utf8
        case windows1252
        /// Another WHATWG encoding, by the name glibc's iconv knows it by.
        case iconv(String)
        /// WHATWG's "replacement" and "x-user-defined", which no feed means.
        case unsupported
    }

    /// The encoding `label` names, or nil if the standard lists no such label.
    /// Labels are compared as the standard says: ASCII whitespace around
    /// them removed, ASCII letters without case.
    static func encoding(of label: String) -> Encoding? {
        let trimmed = label.trimmingCharacters(in: [" ", "\t", "\n", "\r", "\u{0C}"])
        guard trimmed.utf8.count <= 32 else { return nil }
        return byLabel[String(trimmed.lowercased())]
    }

    private static let byLabel: [String: Encoding] = {
        var table: [String: Encoding] = [:]
        for (encoding, labels) in encodings {
            for label in labels { table[label] = encoding }
        }
        return table
    }()

    /// The standard's table (https://encoding.spec.whatwg.org/#names-and-labels).
    private static let encodings: [(Encoding, [String])] = [
        // UTF-16 labels in a document whose declaration reads as ASCII cannot
        // be true (a real UTF-16 document is found by its bytes first): UTF-8,
        // as the standard has it for a meta charset.
        (.utf8, ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8",
                 "unicodefffe", "utf-16be", "csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff",
                 "utf-16", "utf-16le"]),
        (.windows1252, ["ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1",
                        "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1",
                        "us-ascii", "windows-1252", "x-cp1252"]),
        (.iconv("IBM866"), ["866", "cp866", "csibm866", "ibm866"]),
        (.iconv("ISO-8859-2"), ["csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592", "iso_8859-2",
                                "iso_8859-2:1987", "l2", "latin2"]),
        (.iconv("ISO-8859-3"), ["csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593", "iso_8859-3",
                                "iso_8859-3:1988", "l3", "latin3"]),
        (.iconv("ISO-8859-4"), ["csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594", "iso_8859-4",
                                "iso_8859-4:1988", "l4", "latin4"]),
        (.iconv("ISO-8859-5"), ["csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5", "iso88595",
                                "iso_8859-5", "iso_8859-5:1988"]),
        (.iconv("ISO-8859-6"), ["arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic", "ecma-114",
                                "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127", "iso8859-6", "iso88596",
                                "iso_8859-6", "iso_8859-6:1987"]),
        (.iconv("ISO-8859-7"), ["csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7",
                                "iso-ir-126", "iso8859-7", "iso88597", "iso_8859-7", "iso_8859-7:1987", "sun_eu_greek"]),
        // ISO-8859-8-I differs from ISO-8859-8 only in the direction text is laid out in, which Pango decides.
        (.iconv("ISO-8859-8"), ["csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e", "iso-ir-138",
                                "iso8859-8", "iso88598", "iso_8859-8", "iso_8859-8:1988", "visual",
                                "csiso88598i", "iso-8859-8-i", "logical"]),
        (.iconv("ISO-8859-10"), ["csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910", "l6", "latin6"]),
        (.iconv("ISO-8859-13"), ["iso-8859-13", "iso8859-13", "iso885913"]),
        (.iconv("ISO-8859-14"), ["iso-8859-14", "iso8859-14", "iso885914"]),
        (.iconv("ISO-8859-15"), ["csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9"]),
        (.iconv("ISO-8859-16"), ["iso-8859-16"]),
        (.iconv("KOI8-R"), ["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"]),
        (.iconv("KOI8-U"), ["koi8-ru", "koi8-u"]),
        (.iconv("MACINTOSH"), ["csmacintosh", "mac", "macintosh", "x-mac-roman"]),
        (.iconv("CP874"), ["dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"]),
        (.iconv("CP1250"), ["cp1250", "windows-1250", "x-cp1250"]),
        (.iconv("CP1251"), ["cp1251", "windows-1251", "x-cp1251"]),
        (.iconv("CP1253"), ["cp1253", "windows-1253", "x-cp1253"]),
        (.iconv("CP1254"), ["cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9",
                            "iso_8859-9:1989", "l5", "latin5", "windows-1254", "x-cp1254"]),
        (.iconv("CP1255"), ["cp1255", "windows-1255", "x-cp1255"]),
        (.iconv("CP1256"), ["cp1256", "windows-1256", "x-cp1256"]),
        (.iconv("CP1257"), ["cp1257", "windows-1257", "x-cp1257"]),
        (.iconv("CP1258"), ["cp1258", "windows-1258", "x-cp1258"]),
        (.iconv("MAC-CYRILLIC"), ["x-mac-cyrillic", "x-mac-ukrainian"]),
        // The standard decodes GBK with the gb18030 decoder, a superset.
        (.iconv("GB18030"), ["chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk",
                             "iso-ir-58", "x-gbk", "gb18030"]),
        (.iconv("BIG5-HKSCS"), ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"]),
        (.iconv("EUC-JP"), ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"]),
        (.iconv("ISO-2022-JP"), ["csiso2022jp", "iso-2022-jp"]),
        (.iconv("CP932"), ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis"]),
        (.iconv("CP949"), ["cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987",
                           "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949"]),
        (.unsupported, ["csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr", "replacement",
                        "x-user-defined"]),
    ]
}
