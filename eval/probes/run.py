#!/usr/bin/env python3
"""Runs `sfcl anchors check` on each probe pair of a file (see its header) and prints the pairs
whose verdict differs from the one expected, then how many are as expected."""
import json
import subprocess
import sys
import tempfile

exe, path = sys.argv[1], sys.argv[2]
cases = [line.rstrip('\n').split(' || ') for line in open(path, encoding='utf-8')
         if line.strip() and not line.startswith('#')]
wrong = 0
with tempfile.NamedTemporaryFile('w', suffix='.txt', encoding='utf-8') as src:
    for expected, source, answer in cases:
        source, answer = source.replace('\\n', '\n'), answer.replace('\\n', '\n')
        src.seek(0)
        src.truncate()
        src.write(source)
        src.flush()
        p = subprocess.run([exe, 'anchors', 'check', '--source', src.name, '-'], input=answer,
                           capture_output=True, text=True, check=True)
        rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith('{')]
        flagged = [(r['text'], r.get('reason')) for r in rows
                   if r.get('checked') and r.get('verdict') == 'unsupported']
        got = 'flag' if flagged else 'ok'
        if got != expected:
            wrong += 1
            print(f'expected {expected}, got {got}: {answer!r} against {source[:80]!r} {flagged}')
print(f'{len(cases) - wrong}/{len(cases)} as expected')
