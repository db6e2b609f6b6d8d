// Starting the servers the SDK tests talk to: real processes on 127.0.0.1, each on a free port.
import { spawn } from 'node:child_process';
import net from 'node:net';

export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Spawns `bin args` (args may hold {port}) and waits until GET /health answers 200.
export async function startProcess(bin, args, { tries = 600 } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(bin, args.map((a) => a.replaceAll('{port}', String(port))), { stdio: 'ignore' });
  let exited = false;
  child.on('exit', () => { exited = true; });
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
