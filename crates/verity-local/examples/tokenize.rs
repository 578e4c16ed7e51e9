//! Prints the token ids of each string of a JSON array file, as JSON (for comparisons with
//! other implementations): `tokenize MODEL.gguf STRINGS.json`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let buf = std::fs::read(&args[1]).expect("model");
    let g = verity_local::gguf::Gguf::parse(&buf).expect("gguf");
    let t = verity_local::tokenizer::Tokenizer::from_gguf(&g).expect("tokenizer");
    let strings: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(&args[2]).expect("strings")).expect("json");
    let ids: Vec<Vec<u32>> = strings
        .iter()
        .map(|s| t.encode(s).expect("encode"))
        .collect();
    println!("{}", serde_json::to_string(&ids).expect("json"));
}
