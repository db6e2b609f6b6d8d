# The verified-answer cache on a replayed workload: N questions of demo/eval.jsonl (document as the
# system message, temperature 0, non-streamed chat completions) sent in R shuffled rounds to one
# `sfcl serve --answer-cache-mib 64`; latency of misses and of hits, and the hit rate.
# Usage (from the repository root): python3 bench/answer_cache.py SFCL MODEL [N] [R]
import json, random, socket, statistics, subprocess, sys, time, urllib.request
sfcl, model = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 20
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
items = [json.loads(l) for l in open("demo/eval.jsonl")][:n]
def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
def ask(port, item):
    body = json.dumps({"model": "m", "max_tokens": 48, "temperature": 0,
                       "messages": [{"role": "system", "content": item["document"]},
                                    {"role": "user", "content": item["question"]}]}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", body, {"Content-Type": "application/json"})
    t0 = time.perf_counter()
    with urllib.request.urlopen(req, timeout=600) as r:
        r.read()
        return time.perf_counter() - t0, r.headers.get("X-SFCL-Cache")
port = free_port()
p = subprocess.Popen([sfcl, "serve", "-m", model, "--port", str(port), "--answer-cache-mib", "64", "-t", "2"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(600):
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).status == 200: break
        except Exception: time.sleep(0.5)
    work = [it for _ in range(rounds) for it in items]
    random.Random(1).shuffle(work)
    got = {"hit": [], "miss": []}
    for it in work:
        dt, mark = ask(port, it)
        got[mark or "none"] = got.get(mark or "none", []) + [dt]
finally:
    p.terminate(); p.wait()
hits, misses = got["hit"], got["miss"]
print(f"requests {len(work)} ({n} distinct x {rounds} rounds): hits {len(hits)}, misses {len(misses)}, "
      f"hit rate {len(hits) / len(work):.1%}")
for name, xs in (("miss", misses), ("hit", hits)):
    if xs:
        xs = sorted(xs)
        print(f"{name}: p50 {statistics.median(xs) * 1000:.2f} ms, p90 {xs[int(0.9 * (len(xs) - 1))] * 1000:.2f} ms")
