// Starting the servers the SDK tests talk to: real processes on 127.0.0.1, each on a free port.
import {spawn} from 'node:child_process';

// The port a child printed once listening ("listening on http://HOST:PORT"); rejects when it exits
// first. The child binds port 0 itself: a port picked here and bound later by the child could be
// picked by a test running beside this one too.
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
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      if (!found) reject(new Error(`exited (${code}) before listening: ${seen}`));
    });
  });
}

// Spawns `bin args` (args may hold {port}, passed as 0) and waits until GET /health answers 200.
export async function startProcess(bin, args, { tries = 600 } = {}) {
  const child = spawn(bin, args.map((a) => a.replaceAll('{port}', '0')), {stdio: ['ignore', 'pipe', 'pipe']});
  let exited = false;
  child.on('exit', () => { exited = true; });
  let port;
  try {
    port = await listeningPort(child);
  } catch (e) {
    throw new Error(`${bin} ${args.join(' ')} did not start: ${e.message}`);
  }
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < tries && !exited; i++) {
    try {
      const r = await fetch(`${url}/health`);
      if (r.status === 200) return { child, url };
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`${bin} ${args.join(' ')} did not start`);
}
