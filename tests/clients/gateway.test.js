// The official SDKs, unmodified, against a real `sfcl gateway` in front of real llama-server
// processes (scripts/build-llama-server; LLAMA_SERVER names its binary), all on 127.0.0.1: the same
// checks as against `sfcl serve` (sdk_suite.js), since the gateway serves the same API.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess } from './processes.js';
import { registerSdkTests, SCRIPTS } from './sdk_suite.js';
import { registerResponsesTests } from './responses_suite.js';
import { registerEmbeddingsOffTest } from './embeddings_suite.js';

const SFCL = process.env.SFCL;
const LLAMA_SERVER = process.env.LLAMA_SERVER;
const targets = { key: 'sdk-test-key' };
const children = [];
let dir;

async function start(bin, args) {
  const s = await startProcess(bin, args);
  children.push(s.child);
  return s.url;
}

const backend = (model) => start(LLAMA_SERVER, ['-m', model, '--host', '127.0.0.1', '--port', '{port}', '-np', '2',
  '-c', '2048', '-t', '1', '--no-webui']);

const gateway = (backendUrl, model, extra) => start(SFCL, ['gateway', '--backend', backendUrl, '--tokenizer', model,
  '--model-id', 'tiny', '--port', '{port}', '--backend-slots', '2', '--api-key', targets.key, ...extra]);

before(async () => {
  assert.ok(SFCL, 'SFCL must point at the sfcl binary');
  assert.ok(LLAMA_SERVER, 'LLAMA_SERVER must point at scripts/build-llama-server\'s binary');
  dir = mkdtempSync(join(tmpdir(), 'sfcl-sdk-gateway-'));
  const model = join(dir, 'tiny.gguf');
  execFileSync(SFCL, ['make-test-model', model], { stdio: 'ignore' });
  const demoModel = join(process.cwd(), '../../demo/sfcl-demo.gguf');
  const [tiny, demo] = await Promise.all([backend(model), backend(demoModel)]);
  targets.base = await gateway(tiny, model, []);
  targets.scriptedBase = await gateway(tiny, model, ['--test-script', SCRIPTS.scripted]);
  targets.demoBase = await gateway(demo, demoModel, ['--test-script', SCRIPTS.demo]);
  targets.jsonBase = await gateway(tiny, model, ['--test-script', SCRIPTS.json]);
});

after(() => {
  for (const c of children) c.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

registerSdkTests(targets);
registerResponsesTests(targets);
registerEmbeddingsOffTest(targets);
