# Per-request overhead: N non-streaming chat requests with max_tokens 1 on one keep-alive
# connection, the same document and question every time (so the prompt cache holds the prompt and
# what is left is the server's fixed cost per request plus one decode step), against sfcl serve
# (SFCL off and anchor) and llama-server from the same llama.cpp build, each started fresh with the
# same slots, context, threads, batch and unified KV cache (sfcl's answer cache off: it would answer
# the repeats without the engine), one server at a time in rotating order.
# Usage (from the repository root):
#   python3 bench/per_request.py SFCL LLAMA_SERVER MODEL [N] [ROUNDS] [DOCUMENT]
# Prints one JSON line per (round, server) and a summary: median and p90 ms, and each sfcl mode's
# median minus llama-server's in the same round.
import http.client, json, os, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import free_port, wait_ready  # noqa: E402

exe, peer, model = sys.argv[1], sys.argv[2], sys.argv[3]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 200
rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 3
item = json.loads(open('demo/eval.jsonl').readline())
if len(sys.argv) > 6:  # a longer document in place of the eval item's
    item['document'] = open(sys.argv[6]).read()
common = ['--host', '127.0.0.1', '-np', '4', '-c', '4096', '-t', '2', '-b', '512', '-ub', '512']



def start(kind, port):
    if kind == 'llama-server':
        cmd = [peer, '-m', model, '--port', str(port), '-kvu', '--cache-ram', '2048', '--fit', 'off',
               '--no-webui'] + common
    else:
        cmd = [exe, 'serve', '-m', model, '--port', str(port), '--cache-ram', '2048', '--answer-cache-mib', '0', '--sfcl', kind] + common
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)



def run(port):
    body = json.dumps({'model': 'm', 'messages': [{'role': 'system', 'content': item['document']},
                                                  {'role': 'user', 'content': item['question']}],
                       'max_tokens': 1, 'temperature': 0})
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=600)
    times = []
    for i in range(n + 5):  # the first five warm the prompt cache and are not counted
        t0 = time.perf_counter()
        c.request('POST', '/v1/chat/completions', body, {'Content-Type': 'application/json'})
        r = c.getresponse()
        data = r.read()
        dt = (time.perf_counter() - t0) * 1000
        if r.status != 200:
            raise SystemExit(f'HTTP {r.status}: {data[:300]!r}')
        usage = json.loads(data)['usage']
        if usage['completion_tokens'] != 1:
            raise SystemExit(f'completion_tokens {usage["completion_tokens"]}, want 1')
        if i >= 5:
            times.append(dt)
    return times


kinds = ['llama-server', 'off', 'anchor']
medians = {k: [] for k in kinds}
for rnd in range(rounds):
    order = kinds[rnd % 3:] + kinds[:rnd % 3]
    got = {}
    for kind in order:
        port = free_port()
        srv = start(kind, port)
        try:
            wait_ready(port)
            t = sorted(run(port))
        finally:
            srv.terminate()
            srv.wait()
        got[kind] = statistics.median(t)
        medians[kind].append(got[kind])
        print(json.dumps({'round': rnd, 'server': kind, 'n': len(t), 'median_ms': round(got[kind], 2),
                          'p90_ms': round(t[int(len(t) * 0.9)], 2), 'min_ms': round(t[0], 2)}), flush=True)
    print(json.dumps({'round': rnd, 'off_minus_peer_ms': round(got['off'] - got['llama-server'], 2),
                      'anchor_minus_peer_ms': round(got['anchor'] - got['llama-server'], 2)}), flush=True)
print(json.dumps({k: [round(v, 2) for v in medians[k]] for k in kinds}))
