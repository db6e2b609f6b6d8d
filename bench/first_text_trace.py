#!/usr/bin/env python3
"""Where first texts wait: N streams x M requests against `sfcl serve` (SFCL on, events on), the body
`sfcl bench --peer` sends (demo/eval.jsonl items, a first system line unique to each request, 32
tokens, ignore_eos). Per request: sent, first text (bytes, time), end, and the backtrack/fallback
events before the first text; prints the TTFT p50 and the slowest six, writes every row to OUT.

  python3 bench/first_text_trace.py SFCL_BIN MODEL STREAMS REQUESTS_PER_STREAM OUT.json
"""
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import wait_ready  # noqa: E402

exe, model, streams, per, out_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
items = [json.loads(line) for line in open(os.path.join(root, 'demo', 'eval.jsonl'), encoding='utf-8')][:60]
log_path = tempfile.mktemp(prefix='first-text-trace-', suffix='.log')
log = open(log_path, 'w')
server = subprocess.Popen([exe, 'serve', '-m', model, '--port', '0', '--parallel', '32', '--ctx', '1024',
                           '--kv-unified', '-b', '512', '--ubatch-size', '512', '--cache-ram', '2048', '-t', '2',
                           '--threads-batch', '2', '--queue', '1024'], stdout=log, stderr=subprocess.STDOUT)
port = None
for _ in range(600):
    time.sleep(0.5)
    m = re.search(r'listening on http://[0-9.]+:(\d+)', open(log_path).read())
    if m:
        port = int(m.group(1))
        break
if port is None:
    server.kill()
    sys.exit(f'no port in {log_path}')
wait_ready(port)


def body(k, item):
    return json.dumps({'model': 'm', 'max_tokens': 32, 'temperature': 0, 'ignore_eos': True, 'stream': True,
                       'stream_options': {'include_usage': True}, 'sfcl': {'events': True},
                       'messages': [{'role': 'system', 'content': f'Request {k} of the trace.\n' + item['document']},
                                    {'role': 'user', 'content': item['question']}]})


rows, lock, t0 = [], threading.Lock(), time.time()


def one(k):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=600)
    sent = time.time()
    c.request('POST', '/v1/chat/completions', body(k, items[k % len(items)]), {'Content-Type': 'application/json'})
    first, first_text, before, text = None, '', [], ''
    for line in c.getresponse():
        line = line.strip()
        if not line.startswith(b'data: ') or line == b'data: [DONE]':
            continue
        d = json.loads(line[6:])
        event = d.get('sfcl') if isinstance(d.get('sfcl'), dict) else None
        if event and 'event' in event:
            if event['event'] in ('backtrack', 'fallback') and first is None:
                before.append([event['event'], event.get('text'), round(time.time() - sent, 2)])
            continue
        content = (d.get('choices') or [{}])[0].get('delta', {}).get('content')
        if content:
            if first is None:
                first, first_text = time.time() - sent, content
            text += content
    with lock:
        rows.append({'k': k, 'sent': round(sent - t0, 2), 'ttft': round(first or -1, 2),
                     'end': round(time.time() - sent, 2), 'first': first_text[:80], 'before': before,
                     'text': text[:200]})


for w in range(2):  # warm-up
    one(1000 + w)
rows.clear()
threads = [threading.Thread(target=lambda j=j: [one(j * per + q) for q in range(per)]) for j in range(streams)]
for t in threads:
    t.start()
for t in threads:
    t.join()
server.terminate()
server.wait()
os.remove(log_path)
rows.sort(key=lambda r: -r['ttft'])
json.dump(rows, open(out_path, 'w'), ensure_ascii=False, indent=1)
ttfts = sorted(r['ttft'] for r in rows)
print('requests', len(rows), 'ttft p50', ttfts[len(ttfts) // 2], 'max', ttfts[-1],
      'longest request', max(r['end'] for r in rows))
for r in rows[:6]:
    print(json.dumps(r, ensure_ascii=False))
