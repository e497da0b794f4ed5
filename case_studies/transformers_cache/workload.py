"""generate() with a static KV cache under torch.compile on the CPU, on a tiny randomly initialised Llama model.

Run with torch and transformers installed by pip (see README.md); never imported by the tests.

    python workload.py lazy  --oracle OUT.json   # baseline: the cache allocates itself on the first request
    python workload.py early --oracle OUT.json   # candidate: the cache is allocated before the first request

The model's forward is compiled by the user (``model.forward = torch.compile(...)``), so the prefill of every
request runs compiled as well as each decode step. One ``StaticCache`` serves all requests (``reset()`` between
them). Every request is also generated eagerly (no compile, same model, same cache size) and the tokens compared;
the result goes into the oracle JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "0")

import torch
import transformers
from transformers import LlamaConfig, LlamaForCausalLM, StaticCache

PROMPT_LEN = 6
NEW_TOKENS = 4
MAX_CACHE_LEN = 16


def tiny_model(seed: int) -> LlamaForCausalLM:
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=96,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
    )
    model = LlamaForCausalLM(config).eval()
    model.generation_config.pad_token_id = 0
    model.generation_config.eos_token_id = None  # never stop early: every request makes NEW_TOKENS tokens
    return model


def prompts(seed: int, calls: int) -> list[torch.Tensor]:
    gen = torch.Generator().manual_seed(seed + 1)
    return [torch.randint(3, 96, (1, PROMPT_LEN), generator=gen) for _ in range(calls)]


def new_cache(model: LlamaForCausalLM, early: bool) -> StaticCache:
    cache = StaticCache(config=model.config, max_cache_len=MAX_CACHE_LEN)
    if early:
        head_dim = model.config.hidden_size // model.config.num_attention_heads
        cache.early_initialization(
            batch_size=1,
            num_heads=model.config.num_key_value_heads,
            head_dim=head_dim,
            dtype=model.dtype,
            device=model.device,
        )
    return cache


def generate(model: LlamaForCausalLM, cache: StaticCache, ids: torch.Tensor) -> list[int]:
    cache.reset()
    with torch.no_grad():
        out = model.generate(ids, cache=cache, max_new_tokens=NEW_TOKENS, do_sample=False)
    return out[0, ids.shape[1] :].tolist()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("init", choices=["lazy", "early"])
    parser.add_argument("--oracle", type=Path, required=True)
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--backend", default="eager")
    args = parser.parse_args()

    requests = prompts(args.seed, args.calls)
    reference = tiny_model(args.seed)
    eager_cache = new_cache(reference, early=False)
    expected = [generate(reference, eager_cache, ids) for ids in requests]

    model = tiny_model(args.seed)
    model.forward = torch.compile(model.forward, backend=args.backend, dynamic=False)
    cache = new_cache(model, early=args.init == "early")
    results = []
    for index, ids in enumerate(requests):
        start = time.perf_counter()
        tokens = generate(model, cache, ids)
        results.append(
            {
                "request": index,
                "prompt": ids[0].tolist(),
                "tokens": tokens,
                "eager_tokens": expected[index],
                "matches_eager": tokens == expected[index],
                "wall_s": round(time.perf_counter() - start, 3),
            }
        )
        print(f"request {index}: {tokens} (eager {expected[index]})", flush=True)

    oracle = {
        "workload": "case_studies/transformers_cache/workload.py",
        "init": args.init,
        "torch_version": torch.__version__,
        "transformers_version": transformers.__version__,
        "backend": args.backend,
        "dynamic": False,
        "seed": args.seed,
        "calls": args.calls,
        "prompt_len": PROMPT_LEN,
        "new_tokens": NEW_TOKENS,
        "max_cache_len": MAX_CACHE_LEN,
        "requests": results,
        "all_match_eager": all(r["matches_eager"] for r in results),
    }
    args.oracle.parent.mkdir(parents=True, exist_ok=True)
    args.oracle.write_text(json.dumps(oracle, indent=2) + "\n", encoding="utf-8")
    return 0 if oracle["all_match_eager"] else 1


if __name__ == "__main__":
    sys.exit(main())
