#!/usr/bin/env python3
"""Every metric the Grafana dashboard and the Prometheus rules use exists on a real sfcl server.

Starts `$SFCL serve` on a tiny model, sends requests that touch every family (a streamed generation
with an unsupported anchor and a flag fallback, and one refused by --max-decision-points), scrapes
/metrics, runs `promtool check metrics` on the scrape, and checks the names and `by (...)` labels of
ops/grafana/sfcl.json and ops/prometheus/sfcl-rules.yml against it. The dashboard's PromQL is parsed
by promtool too. The server is stopped on every exit path; the whole run is bounded by DEADLINE_S.
"""
import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DASHBOARD = os.path.join(ROOT, "ops", "grafana", "sfcl.json")
RULES = os.path.join(ROOT, "ops", "prometheus", "sfcl-rules.yml")
PROMTOOL = os.environ.get("PROMTOOL", "promtool")
DEADLINE_S = 120
STARTED = time.monotonic()
NAME = re.compile(r"\bsfcl_[a-z0-9_]+")
failures = []


def check(ok, what, detail=""):
    print(("ok - " if ok else "FAIL - ") + what + ("" if ok or not detail else "\n" + detail), flush=True)
    if not ok:
        failures.append(what)


def time_left():
    return max(1.0, DEADLINE_S - (time.monotonic() - STARTED))


def http(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=min(30.0, time_left())) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def listening_port(log_path):
    """The port the server printed once listening (it binds --port 0 itself: a port picked here and
    bound later could be picked by a test running beside this one too), or None before it did."""
    with open(log_path) as f:
        m = re.search(r"listening on http://\S*:(\d+)", f.read())
    return int(m.group(1)) if m else None


def die_with_parent():
    """Runs in the server's process before exec: a SIGKILLed test (a CTest timeout) takes the server along."""
    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)


def scrape_families(text):
    """Family name -> set of label names seen on its samples."""
    families = {}
    for line in text.splitlines():
        m = re.match(r"# TYPE (\S+) ", line)
        if m:
            families.setdefault(m.group(1), set())
            continue
        if not line or line.startswith("#"):
            continue
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?", line)
        name = re.sub(r"_(bucket|sum|count)$", "", m.group(1))
        families.setdefault(name, set()).update(re.findall(r"([a-zA-Z_][a-zA-Z0-9_]*)=\"", m.group(2) or ""))
    return families


def referenced(text):
    return {re.sub(r"_(bucket|sum|count)$", "", n) for n in NAME.findall(text)}


def dashboard_exprs(dashboard):
    return [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]


def check_dashboard_shape(dashboard):
    check(dashboard.get("schemaVersion") == 39, "dashboard schemaVersion 39")
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    check(variables.get("DS_PROMETHEUS", {}).get("type") == "datasource" and
          variables["DS_PROMETHEUS"].get("query") == "prometheus", "dashboard has a DS_PROMETHEUS data source variable")
    ids = [p["id"] for p in dashboard["panels"]]
    check(len(ids) == len(set(ids)), "dashboard panel ids are unique")
    core = {"row", "timeseries", "gauge", "stat"}
    for p in dashboard["panels"]:
        g = p["gridPos"]
        check(p["type"] in core, f"panel {p['title']!r} is a core panel type")
        check(g["x"] + g["w"] <= 24, f"panel {p['title']!r} fits the 24-column grid")
        if p["type"] == "row":
            continue
        uses_ds = p["datasource"]["uid"] == "${DS_PROMETHEUS}" and p["targets"] and all(
            t["datasource"]["uid"] == "${DS_PROMETHEUS}" and t["expr"].strip() for t in p["targets"])
        check(uses_ds, f"panel {p['title']!r} queries ${{DS_PROMETHEUS}}")


def check_dashboard_promql(dashboard, tmp):
    """promtool parses rule expressions: wrap each panel query, Grafana variables substituted, as a rule."""
    path = os.path.join(tmp, "dashboard-queries.yml")
    with open(path, "w") as f:
        f.write("groups:\n  - name: dashboard\n    rules:\n")
        for i, e in enumerate(dashboard_exprs(dashboard)):
            e = e.replace("$__rate_interval", "5m").replace("$instance", ".*")
            f.write(f"      - record: dashboard:query_{i}\n        expr: {json.dumps(e)}\n")
    r = subprocess.run([PROMTOOL, "check", "rules", path], capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, "promtool parses every dashboard query", r.stdout + r.stderr)


def check_by_labels(dashboard, families):
    for e in dashboard_exprs(dashboard):
        labels = {l.strip() for grp in re.findall(r"\bby \(([^)]*)\)", e) for l in grp.split(",")}
        labels -= {"le", "job", "instance", ""}
        seen = set().union(*(families.get(n, set()) for n in referenced(e)))
        for label in sorted(labels):
            check(label in seen, f"label {label!r} of {e!r} is on its metric")


def main():
    sfcl = os.environ.get("SFCL")
    if not sfcl:
        print("SFCL (the sfcl binary) is not set", file=sys.stderr)
        return 2
    with open(DASHBOARD) as f:
        dashboard_text = f.read()
    dashboard = json.loads(dashboard_text)
    with open(RULES) as f:
        rules_text = f.read()

    with tempfile.TemporaryDirectory() as tmp:
        check_dashboard_shape(dashboard)
        check_dashboard_promql(dashboard, tmp)

        model = os.path.join(tmp, "m.gguf")
        subprocess.run([sfcl, "make-test-model", model], check=True, capture_output=True, timeout=60)
        log = open(os.path.join(tmp, "server.log"), "w")
        # The test script forces an output with an amount the source does not hold: an unsupported
        # anchor, and with max_backtracks 0 a flag fallback.
        server = subprocess.Popen(
            [sfcl, "serve", "--model", model, "--port", "0", "--threads", "1", "--max-decision-points", "3",
             "--test-script", " The total is $12,600.00 now."],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=die_with_parent)

        def stop(*_):
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)

        signal.signal(signal.SIGTERM, lambda *a: (stop(), sys.exit(143)))
        signal.signal(signal.SIGINT, lambda *a: (stop(), sys.exit(130)))
        try:
            while True:
                if server.poll() is not None:
                    log.flush()
                    print(open(log.name).read(), file=sys.stderr)
                    check(False, "server stayed up")
                    return 1
                log.flush()
                port = listening_port(log.name)
                try:
                    if port is not None and http(port, "GET", "/health")[0] == 200:
                        break
                except OSError:
                    pass
                if time_left() <= 1.0:
                    check(False, "server became healthy in time")
                    return 1
                time.sleep(0.1)

            status, body = http(port, "POST", "/v1/messages", {
                "model": "m", "max_tokens": 40, "stream": True, "system": "Invoice total: $12,500.00.",
                "messages": [{"role": "user", "content": "What is the total?"}],
                "sfcl": {"max_backtracks": 0, "fallback": "flag"}})
            check(status == 200 and "message_stop" in body, "streamed generation answers 200")
            status, body = http(port, "POST", "/v1/messages", {
                "model": "m", "max_tokens": 4,
                "messages": [{"role": "user", "content": "The Buyer shall pay $5 by June 1, 2024 and must not resell."}]})
            check(status == 400 and "decision points" in body, "over --max-decision-points answers 400")

            # Request counters are written by the HTTP logger right after the response.
            scrape = ""
            while time_left() > 1.0:
                scrape = http(port, "GET", "/metrics")[1]
                if 'endpoint="/v1/messages",status="400"' in scrape:
                    break
                time.sleep(0.05)
        finally:
            stop()
            log.close()

        # llama-server's llamacpp:* names break promlint's naming conventions by design (":" and a
        # counter without _total); the sfcl_* families are linted (tests/server/app/llama_metrics_test.cpp
        # checks that the llamacpp:* ones parse).
        path = os.path.join(tmp, "scrape.txt")
        with open(path, "w") as f:
            f.write("".join(l for l in scrape.splitlines(True) if "llamacpp:" not in l))
        with open(path) as f:
            r = subprocess.run([PROMTOOL, "check", "metrics"], stdin=f, capture_output=True, text=True, timeout=60)
        check(r.returncode == 0, "promtool check metrics accepts the sfcl_* scrape", r.stdout + r.stderr)

    families = scrape_families(scrape)
    for source, text in (("dashboard", dashboard_text), ("rules", rules_text)):
        names = referenced(text)
        check(len(names) >= 10, f"the {source} file names {len(names)} sfcl metrics")
        for name in sorted(names):
            check(name in families, f"{source}: {name} is in the scrape")
    for name in ("sfcl_anchors_total", "sfcl_fallbacks_total", "sfcl_admission_rejected_total"):
        check(bool(families.get(name)), f"{name} has samples")
    check_by_labels(dashboard, families)

    print("ops metrics test " + ("FAILED: " + "; ".join(failures) if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
