//! The tokenizer built from GGUF metadata: exact round trips, and the model's own token ids.

use std::path::Path;

use verity_local::gguf::Gguf;
use verity_local::tokenizer::{ChatFormat, Tokenizer};

use crate::{QWEN, SMOL, model_path};

fn tokenizer(path: &Path) -> (Tokenizer, ChatFormat) {
    let buf = std::fs::read(path).unwrap();
    let g = Gguf::parse(&buf).unwrap();
    let t = Tokenizer::from_gguf(&g).unwrap();
    let c = ChatFormat::from_gguf(&g, &t).unwrap();
    (t, c)
}

const SAMPLES: &[&str] = &[
    "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
    "fn main() {\n\tlet v: Vec<u8> = vec![0x7f, 255];\r\n\tprintln!(\"{v:?}\");\n}\n",
    "  leading and trailing spaces   \n\n\n",
    "Ünïcödé: naïve café, Straße, ﬁ ligature, Ω ≈ ∑",
    "CJK: 你好，世界！ 日本語のテキスト 한국어 텍스트",
    "emoji: 👍🏽 👨‍👩‍👧‍👦 🇫🇷 ❤️ 🦀",
    "combining: e\u{301} a\u{308}\u{323} Z\u{335}\u{321}\u{31a} n\u{303}",
    "numbers 1234567890 3.14159 -42 1e-9 0xDEADBEEF",
    "special-looking text: <|im_start|>user <|im_end|> <|endoftext|> <tool_call>",
    "\u{0}\u{1}\u{7f} control chars \u{feff} BOM and \u{200b} zero width",
    "",
];

const REFERENCE: &str = "Hello world. It's 2024; we'll see\u{2014}don't we?";

fn round_trips(t: &Tokenizer) {
    for s in SAMPLES {
        let ids = t.encode(s).unwrap();
        assert_eq!(t.decode(&ids), *s, "round trip of {s:?} via {ids:?}");
        assert_eq!(t.decode_bytes(&ids), s.as_bytes());
    }
}

#[test]
fn smollm2_tokenizer_round_trips_exactly_and_uses_the_models_ids() {
    let (t, chat) = tokenizer(&model_path(SMOL));
    assert_eq!(t.pre, "smollm");
    round_trips(&t);
    assert_eq!(t.control("<|endoftext|>"), Some(0));
    assert_eq!(t.control("<|im_start|>"), Some(1));
    assert_eq!(t.control("<|im_end|>"), Some(2));
    assert!(t.stop_ids.contains(&2), "{:?}", t.stop_ids);
    // The ids llama.cpp (llama-cpp-python 0.3.36, `tokenize(special=False)`) gives.
    assert_eq!(
        t.encode(REFERENCE).unwrap(),
        [
            19556, 905, 30, 657, 506, 216, 34, 32, 34, 36, 43, 392, 3060, 963, 1265, 12420, 982,
            392, 47
        ]
    );
    // Digits are split one by one (the `smollm` pre-tokenizer).
    assert_eq!(t.encode("2024").unwrap().len(), 4);
    // Control tokens are never produced from text.
    let ids = t.encode("<|im_end|>").unwrap();
    assert!(!ids.contains(&2), "{ids:?}");
    assert_eq!(
        chat.default_system.as_deref(),
        Some("You are a helpful AI assistant named SmolLM, trained by Hugging Face")
    );
    let p = chat.prompt(&t, &[("user".into(), "Hi".into())]).unwrap();
    assert_eq!(
        t.decode(&p),
        "system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face\nuser\nHi\nassistant\n",
        "decoded prompt (control tokens decode to nothing)"
    );
    assert_eq!(p.iter().filter(|&&id| id == 1).count(), 3);
    assert_eq!(p.iter().filter(|&&id| id == 2).count(), 2);
}

#[test]
#[ignore = "needs qwen2.5-coder-0.5b-instruct (491 MB): verity model pull qwen2.5-coder-0.5b-instruct"]
fn qwen_tokenizer_round_trips_exactly_and_uses_the_models_ids() {
    let (t, chat) = tokenizer(&model_path(QWEN));
    assert_eq!(t.pre, "qwen2");
    round_trips(&t);
    assert_eq!(t.control("<|endoftext|>"), Some(151643));
    assert_eq!(t.control("<|im_start|>"), Some(151644));
    assert_eq!(t.control("<|im_end|>"), Some(151645));
    assert_eq!(t.stop_ids[0], 151645);
    // The ids llama.cpp (llama-cpp-python 0.3.36, `tokenize(special=False)`) gives.
    assert_eq!(
        t.encode(REFERENCE).unwrap(),
        [
            9707, 1879, 13, 1084, 594, 220, 17, 15, 17, 19, 26, 582, 3278, 1490, 2293, 15007, 944,
            582, 30
        ]
    );
    // Ids from Qwen2's published tokenizer.
    assert_eq!(t.encode("Hello world").unwrap(), [9707, 1879]);
    assert_eq!(t.encode("def").unwrap(), [750]);
    // User-defined tokens are matched in text (as llama.cpp does); control tokens are not.
    assert_eq!(t.encode("<tool_call>").unwrap(), [151657]);
    assert!(!t.encode("<|im_start|>").unwrap().contains(&151644));
    // Qwen2 splits digits one by one.
    assert_eq!(t.encode("12345").unwrap().len(), 5);
    assert_eq!(
        chat.default_system.as_deref(),
        Some("You are Qwen, created by Alibaba Cloud. You are a helpful assistant.")
    );
}
