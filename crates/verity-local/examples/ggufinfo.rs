//! Prints a GGUF file's metadata (arrays summarised) and tensors.
use candle_core::quantized::gguf_file;
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: ggufinfo PATH")?;
    let mut f = std::fs::File::open(&path)?;
    let ct = gguf_file::Content::read(&mut f)?;
    let mut keys: Vec<_> = ct.metadata.keys().collect();
    keys.sort();
    for k in keys {
        let v = &ct.metadata[k];
        match v {
            gguf_file::Value::Array(a) => println!(
                "{k} = [{} items] first: {:?}",
                a.len(),
                a.iter().take(3).collect::<Vec<_>>()
            ),
            gguf_file::Value::String(s) if s.len() > 200 => println!("{k} = {:?}...", &s[..200]),
            _ => println!("{k} = {v:?}"),
        }
    }
    let mut by: std::collections::BTreeMap<String, usize> = Default::default();
    for (name, info) in ct.tensor_infos.iter() {
        let bytes =
            info.shape.elem_count() / info.ggml_dtype.block_size() * info.ggml_dtype.type_size();
        *by.entry(format!("{:?}", info.ggml_dtype)).or_default() += bytes;
        if name.starts_with("blk.0.") || name.starts_with("blk.1.") || !name.starts_with("blk.") {
            println!("{name} {:?} {:?}", info.ggml_dtype, info.shape);
        }
    }
    println!("{by:?}");
    Ok(())
}
