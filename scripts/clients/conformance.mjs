#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
// against `farsight mcp --http`, and fails (exit 1) if a scenario fails.
//
//     cd scripts/clients && npm ci && npm run conformance -- --binary ../../target/debug/farsight
//
// The suite's server scenarios mostly drive fixture tools, prompts and
// resources that a conforming test server must implement (test_simple_text,
// test_image_content, prompts/get, resources/subscribe, json_schema_2020_12_tool...);
// farsight is a tools-only server with two web tools, so only the scenarios
// that test any server are run: the handshake, ping, tools/list and DNS
// rebinding protection. The suite's client sends no bearer token, so the
// server listens on loopback without one (as a local user runs it).

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { startHttpServer } from './farsight_process.mjs';

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: opts } = parseArgs({
  options: { binary: { type: 'string', default: '../../target/debug/farsight' } },
});
const binary = path.resolve(process.cwd(), opts.binary);


async function main() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'farsight-conformance-'));
  const config = path.join(tmp, 'farsight.toml');
  // No call reaches a provider or a page; the cache stays in the temporary directory.
  writeFileSync(config, `[cache]\ndir = ${JSON.stringify(path.join(tmp, 'cache'))}\n`);
  const server = await startHttpServer(binary, { FARSIGHT_CONFIG: config });
  const bin = path.join(here, 'node_modules', '.bin', 'conformance');
  const failed = [];
  try {
    for (const scenario of SCENARIOS) {
      try {
        const { stdout } = await promisify(execFile)(bin, ['server', '--url', server.url, '--scenario', scenario],
          { cwd: tmp, timeout: 60_000 });
        console.log(`  ok   ${scenario}`);
        if (process.env.VERBOSE) console.log(stdout);
      } catch (e) {
        console.log(`  FAIL ${scenario}\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
        failed.push(scenario);
      }
    }
  } finally {
    server.child.kill('SIGTERM');
    rmSync(tmp, { recursive: true, force: true });
  }
  if (failed.length > 0) {
    console.log(`\nconformance scenarios failed: ${failed.join(', ')}`);
    process.exit(1);
  }
  console.log(`\nMCP conformance suite: ${SCENARIOS.join(', ')} passed`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
