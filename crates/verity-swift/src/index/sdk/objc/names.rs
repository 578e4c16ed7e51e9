//! Swift names of imported Objective-C declarations, by (an approximation of) ClangImporter's
//! rules: omit-needless-words against parameter and receiver types, the first-piece
//! preposition split, `init…With…` → `init(label:)`, class factory methods → `init`, a
//! trailing `NSError **` dropped (throws), enum case prefix stripping.

/// Splits a camelCase identifier into words: `dataTaskWithURL` → `data Task With URL`,
/// `URLSession` → `URL Session`.
pub(super) fn words(s: &str) -> Vec<&str> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..b.len() {
        let (p, c) = (b[i - 1], b[i]);
        let next_lower = b.get(i + 1).is_some_and(u8::is_ascii_lowercase);
        let boundary = (c.is_ascii_uppercase() && (p.is_ascii_lowercase() || p.is_ascii_digit()))
            || (c.is_ascii_uppercase() && p.is_ascii_uppercase() && next_lower)
            || (c == b'_' || p == b'_');
        if boundary && i > start {
            out.push(&s[start..i]);
            start = i;
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out.into_iter()
        .map(|w| w.trim_matches('_'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Lowercases the leading word the way Swift names do: `URL` → `url`, `URLSession` →
/// `urlSession`, `Frame` → `frame`.
pub(crate) fn lower_first(s: &str) -> String {
    let upper = s.chars().take_while(char::is_ascii_uppercase).count();
    if upper == 0 {
        return s.to_owned();
    }
    let rest_starts_lower = s.chars().nth(upper).is_some_and(|c| c.is_ascii_lowercase());
    let n = if upper > 1 && rest_starts_lower {
        upper - 1
    } else {
        upper
    };
    let mut out: String = s[..n].to_ascii_lowercase();
    out.push_str(&s[n..]);
    out
}

const PREPOSITIONS: &[&str] = &[
    "above",
    "after",
    "along",
    "alongside",
    "as",
    "at",
    "before",
    "below",
    "by",
    "following",
    "for",
    "from",
    "given",
    "in",
    "including",
    "inside",
    "into",
    "like",
    "of",
    "on",
    "onto",
    "over",
    "past",
    "since",
    "to",
    "toward",
    "towards",
    "under",
    "until",
    "via",
    "with",
    "within",
];

pub(super) fn is_preposition(w: &str) -> bool {
    PREPOSITIONS.contains(&w.to_ascii_lowercase().as_str())
}

/// Removes from the end of `name` the words that repeat the tail of `type_name`
/// (`presentViewController` / `UIViewController` → `present`), matching words backwards
/// (a type's acronym run such as `AVURL` matches `URL`); `None` when nothing matched or
/// the whole name would go.
pub(super) fn strip_type_suffix(name: &str, type_name: &str) -> Option<String> {
    let nw = words(name);
    let tw = words(type_name);
    let mut m = 0;
    while m < nw.len() && m < tw.len() {
        let a = nw[nw.len() - 1 - m];
        let b = tw[tw.len() - 1 - m];
        if a.eq_ignore_ascii_case(b) {
            m += 1;
            continue;
        }
        if a.len() < b.len()
            && a.chars().all(|c| c.is_ascii_uppercase())
            && b.to_ascii_lowercase().ends_with(&a.to_ascii_lowercase())
        {
            m += 1;
        }
        break;
    }
    if m == 0 || m >= nw.len() {
        return None;
    }
    let joined = join_words(&nw[..nw.len() - m]);
    if matches!(joined.as_str(), "set" | "get") {
        return None;
    }
    Some(joined)
}

/// Joins words back.
pub(super) fn join_words(ws: &[&str]) -> String {
    ws.concat()
}

/// A label after omit-needless-words against its parameter's type name for omission
/// (`None`: a type the importer does not match against, such as scalars and typedefs).
pub(super) fn prune_label(label: &str, type_name: Option<&str>) -> String {
    let Some(t) = type_name else {
        return label.to_owned();
    };
    let mut candidates = vec![t];
    if t == "Int" {
        candidates.insert(0, "Index");
    }
    for c in candidates {
        if let Some(s) = strip_type_suffix(label, c) {
            // A label loses its type words when they are the whole type name (less a prefix
            // such as `UI`: `didShowViewController` → `didShow`) or when what is left ends in
            // a preposition (`forState` → `for`); `horizontalSizeClass` stays.
            let tw = words(c);
            let matched = words(label).len() - words(&s).len();
            let whole = matched >= tw.len()
                || (matched + 1 == tw.len() && tw[0].chars().all(|c| c.is_ascii_uppercase()));
            if whole || words(&s).last().is_some_and(|w| is_preposition(w)) {
                return lower_first(&s);
            }
        }
    }
    lower_first(label)
}

/// Splits the first selector piece at its last preposition: `objectForKey` →
/// (`object`, `forKey`). `None` when it has no preposition after its first word.
pub(super) fn split_first_piece(piece: &str) -> Option<(String, String)> {
    let ws = words(piece);
    let k = (1..ws.len()).rev().find(|&k| {
        is_preposition(ws[k])
            && k + 1 < ws.len()
            && ws[k].chars().next().is_some_and(|c| c.is_ascii_uppercase())
    })?;
    let base = join_words(&ws[..k]);
    let label = lower_first(&join_words(&ws[k..]));
    Some((base, label))
}

/// `With` is dropped before a completion handler: `…WithCompletionHandler:` → `completionHandler:`.
pub(super) fn drop_with_before_handler(label: &str) -> String {
    if let Some(rest) = label.strip_prefix("with") {
        let l = lower_first(rest);
        if is_handler_name(&l) {
            return l;
        }
    }
    label.to_owned()
}

pub(super) fn is_handler_name(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.contains("completion") || l.ends_with("handler") || l == "reply" || l.ends_with("withreply")
}

/// Whether `piece` begins with the class's name tail (`colorWithRed` for `UIColor`,
/// `URLWithString` for `NSURL`); returns the rest (`WithRed`, `WithString`).
pub(super) fn factory_rest<'p>(piece: &'p str, class: &str) -> Option<&'p str> {
    let cw = words(class);
    // `NSURL` is one word; its tail after a two- or three-letter prefix is a candidate too.
    let unprefixed = (2..=3)
        .filter_map(|n| class.get(n..))
        .filter(|t| t.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(str::to_owned);
    let tails: Vec<String> = (0..cw.len())
        .map(|k| join_words(&cw[k..]))
        .chain(unprefixed)
        .collect();
    for tail in tails {
        if tail.len() < 3 {
            continue;
        }
        let lower = lower_first(&tail);
        if piece
            .get(..lower.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(&lower))
        {
            let rest = piece.get(lower.len()..).unwrap_or("");
            if rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_uppercase()) {
                return Some(rest);
            }
        }
    }
    None
}

/// A case name without the common prefix (`UIModalTransitionStyleCoverVertical` →
/// `coverVertical`); keeps one more word when the rest would start with a digit.
pub(super) fn strip_case_prefix(name: &str, prefix_words: usize) -> String {
    let ws = words(name);
    let mut k = prefix_words.min(ws.len().saturating_sub(1));
    while k > 0 && ws[k].starts_with(|c: char| c.is_ascii_digit()) {
        k -= 1;
    }
    lower_first(&join_words(&ws[k..]))
}

/// Number of words a case name shares with its enum type's C name, where a word of the
/// type may be the plural of the case's (`AVAudioSessionSetActiveOptions` and
/// `AVAudioSessionSetActiveOptionNotifyOthersOnDeactivation` share six words), as the
/// importer compares them.
pub(super) fn prefix_words_with_type(case: &str, type_name: &str) -> usize {
    let (cw, tw) = (words(case), words(type_name));
    let mut k = 0;
    while k < cw.len() && k < tw.len() {
        let (c, t) = (&cw[k], &tw[k]);
        let plural = *t == format!("{c}s")
            || *t == format!("{c}es")
            || c.strip_suffix('y')
                .is_some_and(|stem| *t == format!("{stem}ies"));
        if c != t && !plural {
            break;
        }
        k += 1;
    }
    k
}

/// Number of words in the common prefix of `names`.
pub(super) fn common_prefix_words(names: &[&str]) -> usize {
    let Some(first) = names.first() else {
        return 0;
    };
    let fw = words(first);
    let mut n = fw.len();
    for other in &names[1..] {
        let ow = words(other);
        let mut k = 0;
        while k < n && k < ow.len() && fw[k] == ow[k] {
            k += 1;
        }
        n = k;
    }
    n
}

/// Labels of a Swift name (`init(red:green:)` → `["red", "green"]`), base name separate.
pub(super) fn split_swift_name(name: &str) -> (String, Option<Vec<String>>) {
    match name.split_once('(') {
        Some((base, rest)) => {
            let inner = rest.trim_end_matches(')');
            let labels = inner
                .split(':')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            (base.to_owned(), Some(labels))
        }
        None => (name.to_owned(), None),
    }
}

pub(super) fn title(base: &str, labels: &[String]) -> String {
    let mut s = format!("{base}(");
    for l in labels {
        s.push_str(if l.is_empty() { "_" } else { l });
        s.push(':');
    }
    s.push(')');
    s
}

/// Foundation classes and protocols whose Swift name drops `NS` (the Swift 3 list).
pub(super) fn foundation_rename(name: &str) -> Option<&'static str> {
    const LIST: &[(&str, &str)] = &[
        ("NSCachedURLResponse", "CachedURLResponse"),
        (
            "NSDistributedNotificationCenter",
            "DistributedNotificationCenter",
        ),
        ("NSHTTPCookie", "HTTPCookie"),
        ("NSHTTPCookieStorage", "HTTPCookieStorage"),
        ("NSHTTPURLResponse", "HTTPURLResponse"),
        ("NSProcessInfo", "ProcessInfo"),
        ("NSURLResponse", "URLResponse"),
        ("NSURLSession", "URLSession"),
        ("NSURLSessionConfiguration", "URLSessionConfiguration"),
        ("NSURLSessionDataTask", "URLSessionDataTask"),
        ("NSURLSessionDownloadTask", "URLSessionDownloadTask"),
        ("NSURLSessionStreamTask", "URLSessionStreamTask"),
        ("NSURLSessionTask", "URLSessionTask"),
        ("NSURLSessionTaskMetrics", "URLSessionTaskMetrics"),
        (
            "NSURLSessionTaskTransactionMetrics",
            "URLSessionTaskTransactionMetrics",
        ),
        ("NSURLSessionUploadTask", "URLSessionUploadTask"),
        ("NSURLSessionWebSocketTask", "URLSessionWebSocketTask"),
        ("NSMessagePort", "MessagePort"),
        ("NSPort", "Port"),
        ("NSPortMessage", "PortMessage"),
        ("NSSocketPort", "SocketPort"),
        ("NSTask", "Process"),
        ("NSXMLDTD", "XMLDTD"),
        ("NSXMLDTDNode", "XMLDTDNode"),
        ("NSXMLDocument", "XMLDocument"),
        ("NSXMLElement", "XMLElement"),
        ("NSXMLNode", "XMLNode"),
        ("NSXMLParser", "XMLParser"),
        ("NSBlockOperation", "BlockOperation"),
        ("NSBundle", "Bundle"),
        ("NSByteCountFormatter", "ByteCountFormatter"),
        ("NSHost", "Host"),
        ("NSDateComponentsFormatter", "DateComponentsFormatter"),
        ("NSDateFormatter", "DateFormatter"),
        ("NSDateIntervalFormatter", "DateIntervalFormatter"),
        ("NSEnergyFormatter", "EnergyFormatter"),
        ("NSFileHandle", "FileHandle"),
        ("NSFileManager", "FileManager"),
        ("NSFileWrapper", "FileWrapper"),
        ("NSFormatter", "Formatter"),
        ("NSInputStream", "InputStream"),
        ("NSISO8601DateFormatter", "ISO8601DateFormatter"),
        ("NSJSONSerialization", "JSONSerialization"),
        ("NSLengthFormatter", "LengthFormatter"),
        ("NSListFormatter", "ListFormatter"),
        ("NSMassFormatter", "MassFormatter"),
        ("NSMeasurementFormatter", "MeasurementFormatter"),
        ("NSNetService", "NetService"),
        ("NSNetServiceBrowser", "NetServiceBrowser"),
        ("NSNotificationCenter", "NotificationCenter"),
        ("NSNotificationQueue", "NotificationQueue"),
        ("NSNumberFormatter", "NumberFormatter"),
        ("NSOperation", "Operation"),
        ("NSOperationQueue", "OperationQueue"),
        ("NSOutputStream", "OutputStream"),
        (
            "NSPersonNameComponentsFormatter",
            "PersonNameComponentsFormatter",
        ),
        ("NSPipe", "Pipe"),
        ("NSProgress", "Progress"),
        ("NSPropertyListSerialization", "PropertyListSerialization"),
        ("NSRelativeDateTimeFormatter", "RelativeDateTimeFormatter"),
        ("NSRunLoop", "RunLoop"),
        ("NSScanner", "Scanner"),
        ("NSStream", "Stream"),
        ("NSThread", "Thread"),
        ("NSTimer", "Timer"),
        ("NSURLAuthenticationChallenge", "URLAuthenticationChallenge"),
        ("NSURLCache", "URLCache"),
        ("NSURLCredential", "URLCredential"),
        ("NSURLCredentialStorage", "URLCredentialStorage"),
        ("NSURLProtectionSpace", "URLProtectionSpace"),
        ("NSURLProtocol", "URLProtocol"),
        ("NSUndoManager", "UndoManager"),
        ("NSUserDefaults", "UserDefaults"),
        ("NSValueTransformer", "ValueTransformer"),
        ("NSDirectoryEnumerator", "FileManager.DirectoryEnumerator"),
        ("NSDimension", "Dimension"),
        ("NSUnit", "Unit"),
        ("NSUnitAcceleration", "UnitAcceleration"),
        ("NSUnitAngle", "UnitAngle"),
        ("NSUnitArea", "UnitArea"),
        ("NSUnitConcentrationMass", "UnitConcentrationMass"),
        ("NSUnitConverter", "UnitConverter"),
        ("NSUnitConverterLinear", "UnitConverterLinear"),
        ("NSUnitDispersion", "UnitDispersion"),
        ("NSUnitDuration", "UnitDuration"),
        ("NSUnitElectricCharge", "UnitElectricCharge"),
        ("NSUnitElectricCurrent", "UnitElectricCurrent"),
        (
            "NSUnitElectricPotentialDifference",
            "UnitElectricPotentialDifference",
        ),
        ("NSUnitElectricResistance", "UnitElectricResistance"),
        ("NSUnitEnergy", "UnitEnergy"),
        ("NSUnitFrequency", "UnitFrequency"),
        ("NSUnitFuelEfficiency", "UnitFuelEfficiency"),
        ("NSUnitIlluminance", "UnitIlluminance"),
        ("NSUnitLength", "UnitLength"),
        ("NSUnitMass", "UnitMass"),
        ("NSUnitPower", "UnitPower"),
        ("NSUnitPressure", "UnitPressure"),
        ("NSUnitSpeed", "UnitSpeed"),
        ("NSUnitVolume", "UnitVolume"),
        ("NSUnitTemperature", "UnitTemperature"),
        ("NSNetServiceBrowserDelegate", "NetServiceBrowserDelegate"),
        ("NSNetServiceDelegate", "NetServiceDelegate"),
        ("NSPortDelegate", "PortDelegate"),
        ("NSProgressReporting", "ProgressReporting"),
        ("NSStreamDelegate", "StreamDelegate"),
        (
            "NSURLAuthenticationChallengeSender",
            "URLAuthenticationChallengeSender",
        ),
        ("NSXMLParserDelegate", "XMLParserDelegate"),
        ("NSFileManagerDelegate", "FileManagerDelegate"),
        ("NSURLProtocolClient", "URLProtocolClient"),
        ("NSURLSessionDataDelegate", "URLSessionDataDelegate"),
        ("NSURLSessionDelegate", "URLSessionDelegate"),
        ("NSURLSessionDownloadDelegate", "URLSessionDownloadDelegate"),
        ("NSURLSessionStreamDelegate", "URLSessionStreamDelegate"),
        ("NSURLSessionTaskDelegate", "URLSessionTaskDelegate"),
        (
            "NSURLSessionWebSocketDelegate",
            "URLSessionWebSocketDelegate",
        ),
    ];
    LIST.iter().find(|(o, _)| *o == name).map(|(_, s)| *s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_case() {
        assert_eq!(words("dataTaskWithURL"), ["data", "Task", "With", "URL"]);
        assert_eq!(
            words("URLSessionDataTask"),
            ["URL", "Session", "Data", "Task"]
        );
        assert_eq!(lower_first("URLSession"), "urlSession");
        assert_eq!(lower_first("URL"), "url");
        assert_eq!(lower_first("Frame"), "frame");
    }

    #[test]
    fn omit_needless_words() {
        assert_eq!(
            strip_type_suffix("presentViewController", "UIViewController").as_deref(),
            Some("present")
        );
        assert_eq!(strip_type_suffix("addSubview", "UIView"), None);
        assert_eq!(strip_type_suffix("setObject", "Object"), None);
        assert_eq!(prune_label("withURL", Some("URL")), "with");
        assert_eq!(prune_label("withURLAsset", Some("AVURLAsset")), "with");
        assert_eq!(prune_label("atIndex", Some("Int")), "at");
        assert_eq!(prune_label("mediaType", Some("AVMediaType")), "mediaType");
        assert_eq!(prune_label("animated", None), "animated");
        assert_eq!(
            prune_label("horizontalSizeClass", Some("UIUserInterfaceSizeClass")),
            "horizontalSizeClass"
        );
        assert_eq!(
            prune_label("cellForRowAtIndexPath", Some("IndexPath")),
            "cellForRowAt"
        );
        assert_eq!(
            split_first_piece("objectForKey"),
            Some(("object".into(), "forKey".into()))
        );
        assert_eq!(split_first_piece("presentViewController"), None);
        assert_eq!(factory_rest("colorWithRed", "UIColor"), Some("WithRed"));
        assert_eq!(factory_rest("URLWithString", "NSURL"), Some("WithString"));
        assert_eq!(factory_rest("imageNamed", "UIColor"), None);
    }

    #[test]
    fn case_prefixes() {
        let names = ["FooStyleBar", "FooStyleBazQux", "FooStyle"];
        let n = common_prefix_words(&names);
        assert_eq!(strip_case_prefix("FooStyleBazQux", n), "bazQux");
        assert_eq!(strip_case_prefix("FooSize2x", 2), "size2x");
    }
}
