# llama.cpp peer for BENCHMARKS.md (llama-cpp-python 0.3.36 built from its PyPI sdist with
# CMAKE_ARGS="-DGGML_NATIVE=ON"): python bench.py MODEL_NAME [THREADS]
import os, sys, time, statistics
import numpy as np
from llama_cpp import Llama
h = os.path.expanduser('~/.cache/verity/models/')
name = sys.argv[1]
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
t = time.time()
llm = Llama(model_path=h + name + '.gguf', n_ctx=2048, n_threads=threads, n_threads_batch=threads, n_batch=1024, verbose=False)
load = time.time() - t
def chat(text):
    sys_ = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant." if name.startswith('qwen') else "You are a helpful AI assistant named SmolLM, trained by Hugging Face"
    s = f"<|im_start|>system\n{sys_}<|im_end|>\n<|im_start|>user\n{text}<|im_end|>\n<|im_start|>assistant\n"
    return llm.tokenize(s.encode(), add_bos=False, special=True)
short = chat("Write a Python function that returns the sum of a list.")
long_text = "".join(f"def f{i}(x):\n    return x * {i} + {i*i}\n" for i in range(30)) + "\nExplain what these functions do."
long = chat(long_text)
def prefill(ids):
    llm.reset()
    t = time.time(); llm.eval(ids); return len(ids) / (time.time() - t)
for label, ids in [('short', short), ('long', long)]:
    rates = [prefill(ids) for _ in range(6)][1:]
    print(f"llama.cpp prefill {label} ({len(ids)} tokens): median {statistics.median(rates):.1f} tok/s runs {[round(r,1) for r in rates]}")
rates = []
for _ in range(5):
    llm.reset(); llm.eval(short)
    t = time.time()
    for _ in range(64):
        tok = int(np.argmax(llm.scores[llm.n_tokens - 1]))
        llm.eval([tok])
    rates.append(64 / (time.time() - t))
print(f"llama.cpp decode single stream (64 tokens): median {statistics.median(rates):.1f} tok/s runs {[round(r,1) for r in rates]}")
print(f"llama.cpp load {load:.2f} s")
