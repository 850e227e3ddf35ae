// Otterscan's static files on 127.0.0.1, served as its nginx image serves them
// (nginx/conf.d/default.conf: `try_files $uri /index.html`, so every route of the app, and every
// missing file, answers index.html), with /config.json answered by the check: the app fetches it
// at start (src/useConfig.ts DEFAULT_CONFIG_FILE) and reads the node's URL from its erigonURL.
import { resolve, sep } from 'node:path';

export interface StaticServer {
  /** `http://127.0.0.1:PORT`, the page's origin (what blocktrace's --cors is given). */
  readonly origin: string;
  /** Paths with a file extension that the build lacks (answered index.html), as the app asked them. */
  readonly missing: ReadonlySet<string>;
  /** Sets the `{"erigonURL": url}` that /config.json answers from now on. */
  pointAt(url: string): void;
  stop(): void;
}

export function serveStatic(root: string): StaticServer {
  const base = resolve(root);
  const index = Bun.file(resolve(base, 'index.html'));
  let config = {};
  const missing = new Set<string>();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const path = decodeURIComponent(new URL(request.url).pathname);
      if (path === '/config.json') return Response.json(config);
      const file = resolve(base, `.${path}`);
      if (file.startsWith(`${base}${sep}`)) {
        const found = Bun.file(file);
        if (await found.exists()) return new Response(found);
      }
      if (/\.[a-z0-9]+$/i.test(path)) missing.add(path);
      return new Response(index);
    },
  });
  return {
    origin: `http://127.0.0.1:${server.port}`,
    missing,
    pointAt: (url) => void (config = { erigonURL: url }),
    stop: () => void server.stop(true),
  };
}
