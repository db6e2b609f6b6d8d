# The host-memory prompt cache on a long document: one slot, the document, another request that
# takes the slot, the document again; time to first text and cached tokens per --cache-ram value.
# Usage (from the repository root): python3 bench/prompt_cache_ttft.py SFCL MODEL CACHE_MIB...
import json, subprocess, sys, time, urllib.request, socket, os
sfcl, model = sys.argv[1], sys.argv[2]
docs = [json.loads(l)["document"] for l in open("demo/eval.jsonl") if '"lang":"en"' in l]
doc = " ".join(docs)[:7000]
def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
def ask(port, system, user):
    body = json.dumps({"model": "m", "max_tokens": 8, "temperature": 0, "stream": True,
                       "stream_options": {"include_usage": True}, "sfcl": {"mode": "anchor"},
                       "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}]}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", body, {"Content-Type": "application/json"})
    t0 = time.time(); first = None; usage = None; text = ""
    with urllib.request.urlopen(req, timeout=600) as r:
        for line in r:
            line = line.decode().strip()
            if not line.startswith("data: ") or line == "data: [DONE]": continue
            j = json.loads(line[6:])
            if j.get("usage"): usage = j["usage"]
            for c in j.get("choices", []):
                t = c.get("delta", {}).get("content")
                if t:
                    text += t
                    if first is None: first = time.time() - t0
    return first, time.time() - t0, usage, text
for cache in sys.argv[3:]:
    port = free_port()
    p = subprocess.Popen([sfcl, "serve", "-m", model, "--port", str(port), "--parallel", "1", "--ctx", "4096", "-t", "2",
                          "--cache-ram", cache], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).status == 200: break
        except Exception: time.sleep(0.5)
    a = ask(port, doc, "Who filed the ticket?")
    b = ask(port, "A different short document.", "Anything?")
    c = ask(port, doc, "Who filed the ticket?")
    p.terminate(); p.wait()
    for name, r in (("document", a), ("other", b), ("document again", c)):
        u = r[2] or {}
        print(f"cache-ram {cache:>5} {name:15} ttft {r[0]:7.2f} s  total {r[1]:7.2f} s  prompt {u.get('prompt_tokens')} "
              f"cached {(u.get('prompt_tokens_details') or {}).get('cached_tokens')}", flush=True)
    print(f"cache-ram {cache:>5} same answer: {a[3] == c[3]}", flush=True)
