# What the server benchmarks share: a free local port, and waiting for a server's /health to be 200.
import http.client, socket, time


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_ready(port, tries=2400):
    for _ in range(tries):
        try:
            c = http.client.HTTPConnection('127.0.0.1', port, timeout=5)
            c.request('GET', '/health')
            r = c.getresponse()
            r.read()
            if r.status == 200:
                return
        except OSError:
            pass
        time.sleep(0.25)
    raise SystemExit(f'server on {port} never became ready')
