// Starts a real `sfcl serve` on 127.0.0.1 (the binary in $SFCL) over a tiny model it writes.
import {execFileSync, spawn} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

// The port a child printed once listening ("listening on http://HOST:PORT", on its piped stdout or
// stderr): it binds port 0 itself, so no other process can be handed the same port between a pick
// here and its bind. Rejects when the child exits first.
export function listeningPort(child) {
  return new Promise((resolve, reject) => {
    let seen = '';
    let found = false;
    const read = (chunk) => {
      if (found) return;  // still drained, so the child never blocks on a full pipe
      seen += chunk.toString();
      const m = /listening on http:\/\/\S*:(\d+)/.exec(seen);
      if (m) {
        found = true;
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => {
      if (!found) reject(new Error(`exited (${code}) before listening: ${seen}`));
    });
  });
}

/** @returns {Promise<{url: string, stop: () => void}>} */
export async function startServer(extraArgs = []) {
  const sfcl = process.env.SFCL;
  if (!sfcl) throw new Error('SFCL must point at the sfcl binary');
  const dir = mkdtempSync(join(tmpdir(), 'sfcl-anchorstream-'));
  const model = join(dir, 'tiny.gguf');
  execFileSync(sfcl, ['make-test-model', model], { stdio: 'ignore' });
  const child = spawn(
      sfcl,
      [
        'serve', '--model', model, '--model-id', 'tiny', '--port', '0', '--threads', '1', '--parallel', '2', '--ctx',
        '1024', ...extraArgs
      ],
      {stdio: ['ignore', 'ignore', 'pipe']});
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  let port;
  try {
    port = await listeningPort(child);
  } catch (e) {
    stop();
    throw e;
  }
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) return { url, stop };
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  stop();
  throw new Error('server did not start');
}
