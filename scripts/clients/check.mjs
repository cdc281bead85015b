#!/usr/bin/env node
// Drives farsight's MCP server with the clients most agents are built on, and
// fails (exit 1) on any protocol error or schema violation:
//   1. the official TypeScript SDK `Client` (@modelcontextprotocol/sdk) over
//      stdio and Streamable HTTP: both tools, success and every error path
//      reachable without the internet. The SDK validates `structuredContent`
//      against the tool's outputSchema, errors included, once tools/list has
//      been read; the check makes sure that validation is armed.
//   2. the MCP Inspector CLI (@modelcontextprotocol/inspector), which sends
//      every --tool-arg as a string (maxLength="2000", includeLinks="false").
//
//     cd scripts/clients && npm ci && node check.mjs --binary ../../target/debug/farsight
//
// A local server on 127.0.0.1 stands in for the web and for Brave's API (in
// its documented wire format); nothing reaches the internet.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { startFakeWeb } from './fake_web.mjs';
import { cleanEnv, startHttpServer as startFarsightHttp } from './farsight_process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const TOKEN = 'client-check-token';
const failures = [];

function check(cond, what) {
  console.log(`${cond ? '  ok   ' : '  FAIL '}${what}`);
  if (!cond) failures.push(what);
}

const { values: opts } = parseArgs({
  options: {
    binary: { type: 'string', default: '../../target/debug/farsight' },
    only: { type: 'string' }, // "sdk" or "inspector"
  },
});
const binary = path.resolve(process.cwd(), opts.binary);

/** What every transport is asked: [label, tool, arguments, expectation]. */
function cases(base) {
  const success = (status = 'success') => ({ isError: false, status });
  const error = (errorKind, more = {}) => ({ isError: true, errorKind, ...more });
  return [
    ['a page', 'web_fetch', { url: `${base}/page`, format: 'text' }, success()],
    ['a long page in windows', 'web_fetch', { url: `${base}/long`, maxLength: 2000 }, { ...success(), truncated: true }],
    ['focus on a question', 'web_fetch', { url: `${base}/long`, focus: 'when does the keeper light the lamp' }, { isError: false }],
    ['a selector', 'web_fetch', { url: `${base}/page`, selector: 'main p' }, success()],
    ['a JavaScript-only page is partial', 'web_fetch', { url: `${base}/app` }, success('partial')],
    ['string arguments (as the Inspector sends them)', 'web_fetch',
      { url: `${base}/long`, maxLength: '2000', startIndex: '0', includeLinks: 'false' }, success()],
    ['invalidUrl', 'web_fetch', { url: 'not a url' }, error('invalidUrl')],
    ['blockedUrl (a private address)', 'web_fetch', { url: 'http://10.1.2.3/' }, error('blockedUrl')],
    ['httpStatus 404', 'web_fetch', { url: `${base}/missing` }, error('httpStatus', { errorCode: 404 })],
    ['robotsDisallowed', 'web_fetch', { url: `${base}/private/page` }, error('robotsDisallowed')],
    ['unsupportedContent', 'web_fetch', { url: `${base}/image.png` }, error('unsupportedContent')],
    ['tooLarge', 'web_fetch', { url: `${base}/huge` }, error('tooLarge')],
    ['invalidArgument (a number that is not one)', 'web_fetch', { url: `${base}/page`, maxLength: 'lots' }, error('invalidArgument')],
    ['invalidArgument (a selector that is not CSS)', 'web_fetch', { url: `${base}/page`, selector: 'p[' }, error('invalidArgument')],
    // Several pages: `results` items are checked against the root schema ({"$ref": "#"}).
    ['several pages (urls), one failing', 'web_fetch', { urls: [`${base}/page`, `${base}/missing`, `${base}/app`] }, success('partial')],
    ['several pages, every one failing', 'web_fetch', { urls: [`${base}/missing`, 'http://10.1.2.3/'] }, { isError: true, status: 'error' }],
    ['invalidArgument (url and urls both)', 'web_fetch', { url: `${base}/page`, urls: [`${base}/page`] }, error('invalidArgument')],
    ['invalidArgument (11 urls)', 'web_fetch', { urls: Array.from({ length: 11 }, (_, i) => `${base}/page?${i}`) }, error('invalidArgument')],
    ['a search', 'web_search', { query: 'client check', maxResults: 2 }, { isError: false }],
    ['a search with string arguments', 'web_search', { query: 'client check', maxResults: '2', safeSearch: 'true' }, { isError: false }],
    ['invalidQuery', 'web_search', { query: 'x' }, error('invalidQuery')],
    ['invalidArgument (an unknown dateRange)', 'web_search', { query: 'client check', dateRange: 'fortnight' }, error('invalidArgument')],
    ['authenticationFailed (Brave answers 401)', 'web_search', { query: 'wrong key check' }, error('authenticationFailed')],
    ['notConfigured (a provider without a key)', 'web_search', { query: 'client check', provider: 'tavily' }, error('notConfigured')],
  ];
}

/** Calls one tool through the SDK and checks the answer against the expectation. */
async function callAndCheck(client, label, tool, args, expect) {
  let result;
  try {
    result = await client.callTool({ name: tool, arguments: args });
  } catch (e) {
    // A protocol error (-32602 "Structured content does not match the tool's
    // output schema", or arguments refused) is exactly what must not happen.
    check(false, `${tool}: ${label}: protocol error ${e.code ?? ''} ${e.message}`);
    return undefined;
  }
  const sc = result.structuredContent ?? {};
  const got = [];
  let ok = (result.isError === true) === expect.isError;
  got.push(`isError=${result.isError}`);
  for (const key of ['status', 'errorKind', 'errorCode', 'truncated']) {
    if (key in expect) {
      ok &&= sc[key] === expect[key];
      got.push(`${key}=${sc[key]}`);
    }
  }
  if (expect.isError) {
    ok &&= typeof sc.message === 'string' && typeof sc.suggestion === 'string';
    got.push(`suggestion=${sc.suggestion ? 'yes' : 'no'}`);
  }
  check(ok, `${tool}: ${label} (${got.join(', ')})`);
  return result;
}

/** Lists the tools (which arms the SDK's output validation) and runs every case. */
async function exercise(client, web, label, { overloadedCheck }) {
  console.log(`[TypeScript SDK, ${label}]`);
  const warnings = [];
  const warn = console.warn;
  console.warn = (...a) => warnings.push(a.join(' '));
  let tools;
  try {
    tools = (await client.listTools()).tools;
  } finally {
    console.warn = warn;
  }
  check(warnings.length === 0, `tools/list: no schema warnings from the SDK's validator ${JSON.stringify(warnings)}`);
  const names = tools.map((t) => t.name);
  check(JSON.stringify(names) === '["web_search","web_fetch"]', `tools in order: ${names}`);
  for (const name of names) {
    check(client.getToolOutputValidator(name) !== undefined, `${name}: the SDK validates its structuredContent`);
  }
  for (const [what, tool, args, expect] of cases(web.base)) {
    await callAndCheck(client, what, tool, args, expect);
  }
  if (overloadedCheck) {
    // One call holds the only slot (the page server keeps /slow waiting);
    // the next calls are refused at once with an `overloaded` error.
    const held = client.callTool({ name: 'web_fetch', arguments: { url: `${web.base}/slow` } });
    await web.waitFor('/slow');
    await callAndCheck(client, 'overloaded (the call limit is reached)', 'web_search',
      { query: 'client check' }, { isError: true, errorKind: 'overloaded' });
    await callAndCheck(client, 'overloaded (the call limit is reached)', 'web_fetch',
      { url: `${web.base}/page` }, { isError: true, errorKind: 'overloaded' });
    web.release('/slow');
    try {
      const r = await held;
      check(r.isError !== true, 'web_fetch: the call that held the slot answers');
    } catch (e) {
      check(false, `web_fetch: the call that held the slot: protocol error ${e.message}`);
    }
  }
}

async function sdkOverStdio(web, config) {
  const transport = new StdioClientTransport({
    command: binary,
    args: ['mcp'],
    env: cleanEnv({ FARSIGHT_CONFIG: config }),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'farsight-ts-check', version: '1.0.0' });
  await client.connect(transport);
  check(client.getServerVersion()?.name === 'farsight', 'serverInfo.name is farsight');
  await exercise(client, web, 'stdio', { overloadedCheck: false });
  await client.close();
}

/** Starts `farsight mcp --http` with the check's token; resolves with its URL and process. */
function startHttpServer(config, extraEnv = {}) {
  return startFarsightHttp(binary, { FARSIGHT_CONFIG: config, FARSIGHT_HTTP_TOKEN: TOKEN, ...extraEnv });
}

async function sdkOverHttp(web, config) {
  const server = await startHttpServer(config, { FARSIGHT_HTTP_MAX_IN_FLIGHT: '1' });
  try {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
    });
    const client = new Client({ name: 'farsight-ts-check', version: '1.0.0' });
    await client.connect(transport);
    await exercise(client, web, 'Streamable HTTP', { overloadedCheck: true });
    await client.close();
  } finally {
    server.child.kill('SIGTERM');
  }
}

const run = promisify(execFile);

/** Runs the Inspector CLI; resolves with its exit code, stdout and stderr. */
async function inspector(target, args) {
  const bin = path.join(here, 'node_modules', '.bin', 'mcp-inspector');
  try {
    const { stdout, stderr } = await run(bin, ['--cli', ...target, ...args], {
      cwd: here,
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message };
  }
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the Inspector CLI is asked, over one transport. */
async function inspectorChecks(label, target, base) {
  console.log(`[MCP Inspector CLI, ${label}]`);
  const listed = await inspector(target, ['--method', 'tools/list', '--strict']);
  const list = parseJson(listed.stdout);
  const names = (list?.tools ?? []).map((t) => t.name);
  check(listed.code === 0 && names.length === 2,
    `tools/list --strict: exit ${listed.code}, tools ${names} ${listed.code === 0 ? '' : listed.stderr.slice(0, 400)}`);
  // Portability warnings (legal JSON Schema that some model providers' dialects
  // handle badly) are reported, not failed on: --strict exits 6 on errors only.
  const paths = [...listed.stderr.matchAll(/^\s*Path: (\S+)/gm)].map((m) => m[1]);
  console.log(`  info tools/list --strict: ${paths.length} portability warning(s) ${paths.join(', ')}`);
  const calls = [
    ['web_fetch with string arguments', ['--tool-name', 'web_fetch', '--tool-arg', `url=${base}/long`, 'maxLength=2000', 'includeLinks=false'],
      (sc, r) => !r.isError && sc.status === 'success' && sc.truncated === true && sc.links === undefined],
    ['web_fetch 404 (an error result)', ['--tool-name', 'web_fetch', '--tool-arg', `url=${base}/missing`],
      (sc, r) => r.isError === true && sc.errorKind === 'httpStatus'],
    ['web_fetch with urls as a JSON string', ['--tool-name', 'web_fetch', '--tool-arg', `urls=["${base}/page","${base}/missing"]`],
      (sc, r) => !r.isError && sc.status === 'partial' && sc.results?.length === 2 && sc.results[1].errorKind === 'httpStatus'],
    ['web_search with string arguments', ['--tool-name', 'web_search', '--tool-arg', 'query=client check', 'maxResults=2'],
      (sc, r) => !r.isError && Array.isArray(sc.results) && sc.results.length === 2],
    ['web_search invalidQuery (an error result)', ['--tool-name', 'web_search', '--tool-arg', 'query=x'],
      (sc, r) => r.isError === true && sc.errorKind === 'invalidQuery'],
    ['web_search authenticationFailed (an error result)', ['--tool-name', 'web_search', '--tool-arg', 'query=wrong key check'],
      (sc, r) => r.isError === true && sc.errorKind === 'authenticationFailed'],
  ];
  for (const [what, args, ok] of calls) {
    const r = await inspector(target, ['--method', 'tools/call', ...args]);
    const result = parseJson(r.stdout);
    const sc = result?.structuredContent ?? {};
    const good = result !== undefined && ok(sc, result);
    check(good, `tools/call ${what}: exit ${r.code}${good ? '' : `; ${(r.stdout || r.stderr).slice(0, 400)}`}`);
  }
}

async function inspectorOverStdio(config, base) {
  // The target first: options that take several values (--header, --tool-arg)
  // would swallow a positional argument that follows them.
  await inspectorChecks('stdio', [binary, 'mcp', '-e', `FARSIGHT_CONFIG=${config}`], base);
}

async function inspectorOverHttp(config, base) {
  const server = await startHttpServer(config);
  try {
    await inspectorChecks('Streamable HTTP',
      [server.url, '--transport', 'http', '--header', `Authorization: Bearer ${TOKEN}`], base);
  } finally {
    server.child.kill('SIGTERM');
  }
}

async function main() {
  const web = await startFakeWeb();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'farsight-clients-'));
  const config = path.join(tmp, 'farsight.toml');
  writeFileSync(config, [
    '[fetch]', 'allow_hosts = ["127.0.0.1"]', 'max_bytes = 100000', '',
    '[cache]', `dir = ${JSON.stringify(path.join(tmp, 'cache'))}`, '',
    '[search]', 'provider = "brave"', 'fallbacks = []', '',
    '[providers.brave]', `api_key = ${JSON.stringify(web.braveKey)}`, `base_url = ${JSON.stringify(web.base)}`, '',
  ].join('\n'));
  try {
    if (opts.only !== 'inspector') {
      await sdkOverStdio(web, config);
      await sdkOverHttp(web, config);
    }
    if (opts.only !== 'sdk') {
      await inspectorOverStdio(config, web.base);
      await inspectorOverHttp(config, web.base);
    }
  } finally {
    web.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.log(`\n${failures.length} check(s) failed:`);
    for (const f of failures) console.log(`  - ${f}`);
    process.exit(1);
  }
  console.log('\nall MCP checks passed with the TypeScript SDK and the MCP Inspector over stdio and Streamable HTTP');
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
