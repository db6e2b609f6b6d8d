// The official SDKs, unmodified, against a real `sfcl serve` on 127.0.0.1 (checks: sdk_suite.js).
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess } from './processes.js';
import { registerSdkTests, SCRIPTS } from './sdk_suite.js';
import { registerResponsesTests } from './responses_suite.js';
import { registerEmbeddingsOffTest, registerEmbeddingsTests } from './embeddings_suite.js';
import { registerLoraTests } from './lora_suite.js';

const SFCL = process.env.SFCL;
const targets = { key: 'sdk-test-key' };
const children = [];
let dir;

async function startServer(model, extra) {
  const s = await startProcess(SFCL, ['serve', '--model', model, '--model-id', 'tiny', '--port', '{port}',
    '--threads', '1', '--parallel', '2', '--ctx', '1024', '--api-key', targets.key, ...extra]);
  children.push(s.child);
  return s.url;
}

before(async () => {
  assert.ok(SFCL, 'SFCL must point at the sfcl binary');
  dir = mkdtempSync(join(tmpdir(), 'sfcl-sdk-'));
  const model = join(dir, 'tiny.gguf');
  execFileSync(SFCL, ['make-test-model', model], { stdio: 'ignore' });
  targets.base = await startServer(model, []);
  targets.scriptedBase = await startServer(model, ['--test-script', SCRIPTS.scripted]);
  targets.demoBase = await startServer(join(process.cwd(), '../../demo/sfcl-demo.gguf'), ['--test-script', SCRIPTS.demo]);
  targets.jsonBase = await startServer(model, ['--test-script', SCRIPTS.json]);
  targets.embedBase = await startServer(join(process.cwd(), '../../demo/sfcl-demo.gguf'), ['--embeddings', '--pooling', 'mean']);
  const adapter = join(dir, 'tiny-lora.gguf');
  execFileSync(SFCL, ['make-test-lora', adapter, '--base', model, '--rank', '8', '--seed', '7', '--scale', '0.3'],
    { stdio: 'ignore' });
  targets.loraBase = await startServer(model, ['--lora-scaled', `${adapter}:0`]);
});

after(() => {
  for (const c of children) c.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

registerSdkTests(targets);
registerResponsesTests(targets);
registerEmbeddingsOffTest(targets);
registerEmbeddingsTests(targets);
registerLoraTests(targets);
