// The corpus of signed responses, whole and tampered with (tests/data/signed), read by this client
// and by `sfcl verify` ($SFCL): verify accepts exactly the untouched ones, and for every stream the
// client shows the text the case says it shows, which is the signed text only where verify accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { streamWithSFCL } from '../anchorstream.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '../../../tests/data/signed');
const { script, cases } = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));

function verify(c) {
  const args = ['verify', '--public-key', join(dir, 'key.pub'), join(dir, c.file)];
  if (c.request) args.push('--request', join(dir, c.request));
  try {
    return { code: 0, out: execFileSync(process.env.SFCL, args, { encoding: 'utf8' }) };
  } catch (e) {
    return { code: e.status, out: `${e.stdout}` };
  }
}

// The saved stream fed to the client as the body of a fetch.
async function clientShows(c) {
  const saved = readFileSync(join(dir, c.file), 'utf8');
  const body = saved.slice(saved.indexOf('\r\n\r\n') + 4);
  const fetch = async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  return streamWithSFCL({ api: c.api, fetch, body: {} });
}

// sfcl.signed.content_sha256 of a reply of one text block (server/api/signing.h).
const contentSha256 = (text) => createHash('sha256').update(JSON.stringify([{ text, type: 'text' }])).digest('hex');

for (const c of cases) {
  test(`${c.name}: verify ${c.expect === 'ok' ? 'accepts' : 'refuses'} it`, async () => {
    const { code, out } = verify(c);
    assert.equal(code, c.expect === 'ok' ? 0 : 1, out);
    assert.match(out, c.expect === 'ok' ? /signature OK/ : /signature INVALID/);
    if (c.api === undefined) return;
    const result = await clientShows(c);
    assert.equal(result.text, c.shows);
    if (c.expect === 'ok') {
      const [, signed] = readFileSync(join(dir, c.file), 'utf8').match(/"content_sha256":"([0-9a-f]+)"/);
      assert.equal(contentSha256(result.text), signed);
      assert.equal(result.text, script);
    }
  });
}
