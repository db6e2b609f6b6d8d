// Starts a real `sfcl serve` on 127.0.0.1 (the binary in $SFCL) over a tiny model it writes.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
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
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(sfcl, ['serve', '--model', model, '--model-id', 'tiny', '--port', String(port), '--threads', '1',
                             '--parallel', '2', '--ctx', '1024', ...extraArgs], { stdio: 'ignore' });
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/health`)).status === 200) return { url, stop };
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  stop();
  throw new Error('server did not start');
}
