#!/usr/bin/env python3
"""Writes a prompt set for `sfcl bench --set` whose documents are long (RAG-sized sources).

Each output line joins consecutive documents of one language from an eval set until the text
reaches MIN_CHARS (2,800 characters of English is about 700 Qwen2 tokens; Chinese needs a third
of the characters for as many tokens, so it stops at MIN_CHARS / 3) and keeps the first
item's question, so prefill is a large part of each request, as with retrieved sources.

usage: python3 bench/long_set.py demo/eval.jsonl [MIN_CHARS] > /tmp/long.jsonl
"""
import json
import sys


def main():
    src = sys.argv[1]
    min_chars = int(sys.argv[2]) if len(sys.argv) > 2 else 2800
    items = [json.loads(line) for line in open(src, encoding="utf-8") if line.strip()]
    by_lang = {}
    for it in items:
        by_lang.setdefault(it.get("lang", "en"), []).append(it)
    for lang, group in sorted(by_lang.items()):
        want = min_chars // 3 if lang == "zh" else min_chars
        i = 0
        while i < len(group):
            head = group[i]
            parts = []
            while i < len(group) and sum(len(p) for p in parts) < want:
                parts.append(group[i]["document"])
                i += 1
            if sum(len(p) for p in parts) < want:
                break  # the tail is too short to be one more long document
            out = dict(head)
            out["document"] = "\n\n".join(parts)
            out["id"] = f"long-{lang}-{head['id']}"
            print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
