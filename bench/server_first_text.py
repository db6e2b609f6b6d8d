# Time to first text in the server, one streaming request per eval prompt (the body `sfcl bench
# --peer` sends) to a fresh `sfcl serve` in one SFCL mode: the time to the first content delta,
# what it carried, the whole answer. With GLUE, every answer is made one glued word by a logit bias
# on that word's token (the hold-back of a growing word, docs/DESIGN.md 'Hold-back and emission').
# Usage (from the repository root): python3 bench/server_first_text.py SFCL MODE MODEL [GLUE]
import json, socket, subprocess, sys, time, urllib.request
exe, mode, model = sys.argv[1], sys.argv[2], sys.argv[3]
glue = sys.argv[4] if len(sys.argv) > 4 else ''  # a word to make the model repeat (logit_bias)
items = [json.loads(l) for l in open('demo/eval.jsonl')][:6]
s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
srv = subprocess.Popen([exe, 'serve', '-m', model, '--host', '127.0.0.1', '--port', str(port), '--parallel', '8',
                        '--ctx', '1024', '-t', '2', '--queue', '1024', '--sfcl', mode],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
url = f'http://127.0.0.1:{port}'
try:
    for _ in range(600):
        try:
            if json.load(urllib.request.urlopen(url + '/health', timeout=1)).get('status') == 'ok': break
        except Exception: pass
        time.sleep(0.5)
    bias = {}
    if glue:
        tr = urllib.request.Request(url + '/tokenize', json.dumps({'content': glue}).encode(), {'Content-Type': 'application/json'})
        toks = json.load(urllib.request.urlopen(tr))['tokens']
        assert len(toks) == 1, toks
        bias = {str(toks[0]): 100}
    for it in items:
        body = {'logit_bias': bias} if bias else {}
        body |= {'model': 'm', 'messages': [{'role': 'system', 'content': it['document']}, {'role': 'user', 'content': it['question']}],
                'max_tokens': 32, 'temperature': 0, 'stream': True, 'stream_options': {'include_usage': True}}
        req = urllib.request.Request(url + '/v1/chat/completions', json.dumps(body).encode(), {'Content-Type': 'application/json'})
        t0 = time.time(); first = None; first_text = ''; text = ''; usage = None
        with urllib.request.urlopen(req, timeout=600) as r:
            for line in r:
                line = line.decode().strip()
                if not line.startswith('data: ') or line == 'data: [DONE]': continue
                ev = json.loads(line[6:])
                if ev.get('usage'): usage = ev['usage']
                for ch in ev.get('choices', []):
                    c = ch.get('delta', {}).get('content')
                    if c:
                        if first is None: first = time.time() - t0; first_text = c
                        text += c
        total = time.time() - t0
        print(json.dumps({'id': it['id'], 'mode': mode, 'ttft_s': round(first or total, 2), 'total_s': round(total, 2),
                          'first_chunk_chars': len(first_text), 'chars': len(text),
                          'tokens': (usage or {}).get('completion_tokens'), 'text': text}, ensure_ascii=False), flush=True)
finally:
    srv.terminate(); srv.wait()
