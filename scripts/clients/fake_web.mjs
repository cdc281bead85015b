// A stand-in for the web and for Brave's Web Search API on 127.0.0.1, for
// check.mjs: the pages each fetch case needs, robots.txt, and Brave's answers
// in its documented wire format (success, and the 401 of a wrong key).

import http from 'node:http';

const BRAVE_KEY = 'client-check-key';

const PAGE = `<html><head><title>Client check</title><meta name="description" content="A page"></head>
<body><main><h1>Client check</h1><p>This page is served to farsight during the client check. It has
enough words to be taken as the main content of the page.</p><p>A second paragraph with
<a href="/other">a link</a> in it, for the links list.</p></main></body></html>`;

/** A long article: 60 paragraphs, one of which answers the focus question. */
function longPage() {
  const paragraphs = Array.from({ length: 60 }, (_, i) => (i === 41
    ? '<p>Every evening the lighthouse keeper climbs the tower and lights the lamp at dusk.</p>'
    : `<p>Paragraph ${i} of the long article explains one more thing about lighthouses, their <a href="/keepers/${i % 3}">keepers</a> and the ships they guided home.</p>`));
  return `<!doctype html><html lang="en"><head><title>Lighthouses</title></head><body>
<article><h1>Lighthouses</h1>${paragraphs.join('\n')}</article></body></html>`;
}

/** Brave's answer to a query (https://api-dashboard.search.brave.com/app/documentation/web-search/responses). */
function brave(query, key) {
  if (key !== BRAVE_KEY || query === 'wrong key check') {
    // What Brave answers to a subscription token it does not know.
    return [401, {
      type: 'ErrorResponse',
      error: { id: 'c1c2', status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.', meta: { component: 'authentication' } },
      time: 1700000000,
    }];
  }
  return [200, {
    type: 'search',
    query: { original: query },
    web: {
      type: 'search',
      results: [
        { title: 'The <strong>client</strong> check', url: 'https://example.org/check?utm_source=x', description: 'A page about the TypeScript SDK &amp; farsight.', age: 'August 24, 2023' },
        { title: 'Second result', url: 'https://docs.example.net/second', description: 'Another result.' },
      ],
    },
  }];
}

/**
 * Starts the server. `waitFor(path)` resolves once a request for `path` has
 * arrived; `/slow` is answered only after `release('/slow')`.
 */
export async function startFakeWeb() {
  const seen = new Map();
  const waiting = new Map();
  const held = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const send = (status, type, body) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    seen.set(url.pathname, (seen.get(url.pathname) ?? 0) + 1);
    (waiting.get(url.pathname) ?? []).forEach((resolve) => resolve());
    waiting.delete(url.pathname);
    switch (url.pathname) {
      case '/robots.txt':
        return send(200, 'text/plain', 'User-agent: *\nDisallow: /private/\n');
      case '/page':
        return send(200, 'text/html; charset=utf-8', PAGE);
      case '/long':
        return send(200, 'text/html; charset=utf-8', longPage());
      case '/app':
        return send(200, 'text/html; charset=utf-8',
          '<html><head><title>App</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>');
      case '/huge':
        // Nothing readable before farsight's download cap (max_bytes = 100000).
        return send(200, 'text/html; charset=utf-8', ' '.repeat(300_000));
      case '/image.png':
        return send(200, 'image/png', '\x89PNG\r\n\x1a\n fake image bytes');
      case '/slow':
        held.push(() => send(200, 'text/html; charset=utf-8', PAGE));
        return undefined;
      case '/res/v1/web/search': {
        const [status, body] = brave(url.searchParams.get('q') ?? '', req.headers['x-subscription-token']);
        return send(status, 'application/json', JSON.stringify(body));
      }
      default:
        return send(404, 'text/plain', 'not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    base,
    braveKey: BRAVE_KEY,
    waitFor(p) {
      if (seen.has(p)) return Promise.resolve();
      return new Promise((resolve) => waiting.set(p, [...(waiting.get(p) ?? []), resolve]));
    },
    release() {
      held.splice(0).forEach((answer) => answer());
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
