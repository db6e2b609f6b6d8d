#!/usr/bin/env python3
"""Runs `sfcl anchors check` on each case of the role sets (see README.md) and prints the right
answers flagged and the wrong values passed, then the counts: `run.py SFCL round1.txt ...`."""
import json
import re
import subprocess
import sys
import tempfile


def cases(path):
    for block in re.split(r'\n(?=### )', '\n' + open(path, encoding='utf-8').read()):
        lines = block.strip().split('\n')
        if not lines[0].startswith('### '):
            continue
        fields = dict(line.split(': ', 1) for line in lines[1:] if ': ' in line)
        kind = 'recall' if '[recall]' in lines[0] else 'faithful'
        value = re.search(r'`([^`]+)`', fields['EXPECT']) if kind == 'recall' else None
        yield lines[0][4:].split(' ')[0], kind, fields['SOURCE'], fields['ANSWER'], value and value.group(1)


def unsupported(exe, source, answer):
    with tempfile.NamedTemporaryFile('w', suffix='.txt', encoding='utf-8') as s, \
            tempfile.NamedTemporaryFile('w', suffix='.txt', encoding='utf-8') as a:
        s.write(source + '\n')
        a.write(answer + '\n')
        s.flush()
        a.flush()
        out = subprocess.run([exe, 'anchors', 'check', a.name, '--source', s.name],
                             capture_output=True, text=True, check=True).stdout
    return [j['text'] for j in map(json.loads, out.splitlines()) if j.get('verdict') == 'unsupported']


exe = sys.argv[1]
flagged = passed = right = wrong = 0
for path in sys.argv[2:]:
    for name, kind, source, answer, value in cases(path):
        hits = unsupported(exe, source, answer)
        if kind == 'faithful':
            right += 1
            if hits:
                flagged += 1
                print(f'right answer flagged: {name}: {hits}')
        else:
            wrong += 1
            # Caught when an unsupported anchor overlaps the wrong value's text.
            if not any(value in h or h in value for h in hits):
                passed += 1
                print(f'wrong value passed: {name}: `{value}`')
print(f'right answers flagged {flagged} of {right}; wrong values caught {wrong - passed} of {wrong}')
