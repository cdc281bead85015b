// Starting farsight for the client checks: one owner of the clean environment
// (nothing from the caller's providers or settings leaks in) and of how an HTTP
// server is started and its address read.
import { spawn } from 'node:child_process';

/** The environment farsight runs in: the caller's, minus farsight's and providers' settings. */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(FARSIGHT_|WEB_FETCH|WEB_SEARCH|RUST_LOG)/.test(k)) continue;
    if (/(_API_KEY|_ENGINE_ID)$/.test(k) || k === 'SEARXNG_URL') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** Starts `farsight mcp --http` on a free port; resolves with its URL and process. */
export function startHttpServer(binary, extraEnv) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['mcp', '--http', '127.0.0.1:0'], {
      env: cleanEnv(extraEnv),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let seen = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      const m = seen.match(/serving MCP at (\S+)\r?\n/);
      if (m) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`farsight mcp --http exited (${code}): ${seen}`)));
  });
}
