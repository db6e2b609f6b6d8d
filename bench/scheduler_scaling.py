# Where the scheduler thread's time goes as streams grow: for each stream count S and SFCL mode, a
# fresh `sfcl serve` with S slots and S clients that each send streaming chat requests back to back
# (one shared document, a question of its own per request, `ignore_eos`, max_tokens fixed) for SECONDS; then
# the deltas of sfcl_decode_seconds_total, sfcl_token_work_seconds_total and sfcl_token_steps_total
# from /metrics give the decode time per step and the per-token work (sampling, detokenising, lexer,
# checker, stream write) per slot step; the server's RSS is read every 10 s, and the completion tokens
# of the requests that ended inside the window give the delivered rate; with SMAPS=1 set, the
# mappings of /proc/PID/smaps whose resident size grew most over the window; with TRIM_AT_END=1,
# the RSS after malloc_trim(0) is called in the server by gdb at the window's end (what of the
# growth is memory the allocator holds free). A request that fails or ends
# in an error event fails the run.
# Usage (from the repository root):
#   python3 bench/scheduler_scaling.py SFCL MODEL STREAMS[,STREAMS...] [SECONDS] [MODES] [EXTRA_ARGS]
# e.g. python3 bench/scheduler_scaling.py build/release/src/cli/sfcl demo/sfcl-demo.gguf 1,8,64 20 off,anchor
import http.client, json, os, re, subprocess, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import free_port, wait_ready  # noqa: E402

exe, model = sys.argv[1], sys.argv[2]
streams = [int(x) for x in sys.argv[3].split(',')]
seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 20
modes = sys.argv[5].split(',') if len(sys.argv) > 5 else ['off', 'anchor']
extra = sys.argv[6].split() if len(sys.argv) > 6 else []
doc = open(os.environ.get('DOCUMENT', 'bench/per_request_document.txt')).read()  # env DOCUMENT: another file
# Long answers: the steady state is decoding, the shared document stays cached (env MAX_TOKENS).
max_tokens = int(os.environ.get('MAX_TOKENS', '200'))



def metric(text, name):
    m = re.search(r'^' + name + r'(?:\{\})? ([0-9.e+-]+)$', text, re.M)
    return float(m.group(1)) if m else 0.0


def scrape(port):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=60)
    c.request('GET', '/metrics')
    text = c.getresponse().read().decode()
    return {k: metric(text, k) for k in ('sfcl_decode_seconds_total', 'sfcl_token_work_seconds_total',
                                         'sfcl_token_work_cpu_seconds_total', 'sfcl_token_steps_total',
                                         'llamacpp:n_decode_total', 'sfcl_host_cache_bytes')}


def rss_mib(pid):
    for line in open(f'/proc/{pid}/status'):
        if line.startswith('VmRSS:'):
            return round(int(line.split()[1]) / 1024)
    return 0


def smaps(pid):
    """Resident KiB per mapping (start address and name) of /proc/PID/smaps."""
    out, key = {}, None
    for line in open(f'/proc/{pid}/smaps'):
        head = line.split()
        if '-' in head[0] and not head[0].endswith(':'):
            key = (head[0].split('-')[0], head[5] if len(head) > 5 else '[anon]',
                   (int(head[0].split('-')[1], 16) - int(head[0].split('-')[0], 16)) // 1024)
        elif head[0] == 'Rss:':
            out[key] = int(head[1])
    return out


def smaps_growth(before, after, top=8):
    """The mappings whose resident size grew most, as (name, size MiB, grown MiB), and the total grown in
    mappings that came or went between the two snapshots (an allocator's new or unmapped arenas)."""
    grown = sorted(((after[k] - before.get(k, 0), k) for k in after), reverse=True)[:top]
    new = sum(v for k, v in after.items() if k not in before) - sum(v for k, v in before.items() if k not in after)
    return {'top': [[k[1], round(k[2] / 1024, 1), round(g / 1024, 1)] for g, k in grown if g > 0],
            'new_minus_gone_mib': round(new / 1024, 1)}


def client(port, k, stop, out, started, done):
    try:
        requests(port, k, stop, out, started, done)
    except Exception as e:  # the run fails with it, not waits for it
        out.append(f'{type(e).__name__}: {e}')
    if len(out) == 1 and not isinstance(out[0], tuple):
        started.release()


def requests(port, k, stop, out, started, done):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=600)
    n = 0
    tokens = 0
    while not stop.is_set():
        body = json.dumps({'model': 'm', 'stream': True, 'stream_options': {'include_usage': True},
                           'messages': [{'role': 'system', 'content': doc},
                                        {'role': 'user', 'content': f'Client {k}, request {n}: what is the monthly base fee?'}],
                           'max_tokens': max_tokens, 'temperature': 0, 'ignore_eos': True})
        c.request('POST', '/v1/chat/completions', body, {'Content-Type': 'application/json'})
        r = c.getresponse()
        if r.status != 200:
            out.append(f'HTTP {r.status}: {r.read()[:200]!r}')
            return
        usage = None
        for line in r:
            line = line.decode().strip()
            if not line.startswith('data: ') or line == 'data: [DONE]':
                continue
            ev = json.loads(line[6:])
            if 'error' in ev:
                out.append(f'error event: {ev["error"]}')
                return
            if ev.get('usage'):
                usage = ev['usage']
        if usage is None:
            out.append('no usage')
            return
        tokens += usage['completion_tokens']
        done.append((time.time(), usage['completion_tokens']))
        n += 1
        if n == 1:
            started.release()
    out.append((n, tokens))


for s in streams:
    for mode in modes:
        port = free_port()
        srv = subprocess.Popen([exe, 'serve', '-m', model, '--host', '127.0.0.1', '--port', str(port), '-np', str(s),
                                '-c', str(2048 * s), '--sfcl', mode, '--queue', '1024'] + extra,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_ready(port)
            stop = threading.Event()
            outs = [[] for _ in range(s)]
            started = threading.Semaphore(0)
            dones = [[] for _ in range(s)]
            threads = [threading.Thread(target=client, args=(port, k, stop, outs[k], started, dones[k]))
                       for k in range(s)]
            for t in threads:
                t.start()
            # Warm-up: every client's first request has ended (each slot has its document cached).
            for _ in range(s):
                if not started.acquire(timeout=900):
                    raise SystemExit(f'{s} streams, {mode}: a first request took over 900 s')
            if any(o and not isinstance(o[0], tuple) for o in outs):
                stop.set()
            m0 = scrape(port)
            maps0 = smaps(srv.pid) if os.environ.get('SMAPS') else None
            t0 = time.time()
            rss = []
            while time.time() < t0 + seconds:
                rss.append(rss_mib(srv.pid))
                time.sleep(min(10.0, max(0.0, t0 + seconds - time.time())))
            rss.append(rss_mib(srv.pid))
            m1 = scrape(port)
            growth = smaps_growth(maps0, smaps(srv.pid)) if maps0 is not None else None
            trimmed = None
            if os.environ.get('TRIM_AT_END'):  # how much of the RSS is memory malloc holds free
                subprocess.run(['gdb', '-p', str(srv.pid), '-batch', '-ex', 'call (int) malloc_trim(0)'],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
                trimmed = rss_mib(srv.pid)
            t1 = time.time()
            stop.set()
            for t in threads:
                t.join()
        finally:
            srv.terminate()
            srv.wait()
        bad = [o[0] for o in outs if not o or not isinstance(o[0], tuple)]
        if bad:
            raise SystemExit(f'{s} streams, {mode}: {bad[:3]}')
        d = {k: m1[k] - m0[k] for k in m0}
        steps = max(1.0, d['llamacpp:n_decode_total'])
        slot_steps = max(1.0, d['sfcl_token_steps_total'])
        print(json.dumps({
            'streams': s, 'mode': mode, 'seconds': round(t1 - t0, 1),
            'requests': sum(o[0][0] for o in outs),
            'delivered_tokens_per_s': round(sum(n for d in dones for (t, n) in d if t0 <= t <= t1) / (t1 - t0), 2),
            'rss_mib_first_last_max': [rss[0], rss[-1], max(rss)],
            'rss_mib_every_10s': rss,
            # the host prompt cache (--cache-ram) at the window's start and end: RSS it holds by design
            'host_cache_mib_first_last': [round(m0['sfcl_host_cache_bytes'] / 2**20), round(m1['sfcl_host_cache_bytes'] / 2**20)],
            **({'smaps_growth': growth} if growth is not None else {}),
            **({'rss_mib_after_malloc_trim': trimmed} if trimmed is not None else {}),
            'slot_steps_per_s': round(slot_steps / (t1 - t0), 1),
            'decode_ms_per_step': round(1e3 * d['sfcl_decode_seconds_total'] / steps, 3),
            'token_work_us_per_slot_step': round(1e6 * d['sfcl_token_work_seconds_total'] / slot_steps, 1),
            'token_work_cpu_us_per_slot_step': round(1e6 * d['sfcl_token_work_cpu_seconds_total'] / slot_steps, 1),
            'token_work_ms_per_step': round(1e3 * d['sfcl_token_work_seconds_total'] / steps, 3),
            'token_work_share': round(d['sfcl_token_work_seconds_total'] /
                                      max(1e-9, d['sfcl_token_work_seconds_total'] + d['sfcl_decode_seconds_total']), 3),
        }), flush=True)
