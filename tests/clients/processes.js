// Starting the servers the SDK tests talk to: real processes on 127.0.0.1, each on a free port.
import {spawn} from 'node:child_process';

import {listeningPort} from '../../clients/js/serve_for_tests.js';

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
