// One Chromium page of Otterscan and what it did: console errors, requests that failed, requests
// to any host but 127.0.0.1 (aborted before they leave, and kept by host), and every JSON-RPC call
// the page made to blocktrace with its answer (ethers batches them; each call is kept apart).
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

export interface RpcCall {
  readonly method: string;
  readonly params: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

export interface Events {
  readonly consoleErrors: { readonly text: string; readonly url: string; readonly page: string }[];
  /** Local requests that failed (not those cancelled by leaving the page) or answered 4xx/5xx. */
  readonly failedRequests: string[];
  /** host → the requests to it the page tried (all aborted). */
  readonly external: Map<string, string[]>;
  readonly rpc: RpcCall[];
}

export interface Session {
  readonly page: Page;
  readonly events: Events;
  /** The app's URL for `path` (`/block/10`). */
  url(path: string): string;
  /** Saves a full-page PNG as `<out>/<name>.png`; returns its path. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

interface JsonRpcMessage {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: { code: number; message: string };
}

const asList = (body: unknown): JsonRpcMessage[] => (Array.isArray(body) ? body : [body]) as JsonRpcMessage[];

export async function openSession(origin: string, rpcUrl: string, out: string): Promise<Session> {
  // Chromium's own resolver sends every host but 127.0.0.1 nowhere, for what the routes below do not see
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const events: Events = { consoleErrors: [], failedRequests: [], external: new Map(), rpc: [] };
    await page.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => {
        const url = new URL(route.request().url());
        events.external.set(url.host, [...(events.external.get(url.host) ?? []), url.href]);
        return route.abort('blockedbyclient');
      },
    );
    page.on('console', (message) => {
      if (message.type() === 'error') events.consoleErrors.push({ text: message.text(), url: message.location().url, page: page.url() });
    });
    page.on('requestfailed', (request) => {
      const why = request.failure()?.errorText;
      // ERR_ABORTED: still in flight when the check moved on to the next page
      if (new URL(request.url()).hostname === '127.0.0.1' && why !== 'net::ERR_ABORTED') events.failedRequests.push(`${request.method()} ${request.url()}: ${why}`);
    });
    page.on('response', async (response) => {
      const request = response.request();
      if (response.status() >= 400) events.failedRequests.push(`${request.method()} ${response.url()}: HTTP ${response.status()}`);
      if (response.url() !== rpcUrl || request.method() !== 'POST') return;
      const calls = asList(request.postDataJSON());
      const answers = asList(await response.json().catch(() => null));
      for (const call of calls) {
        const answer = answers.find((a) => a !== null && a.id === call.id);
        events.rpc.push({ method: call.method ?? '', params: call.params, ...(answer?.error === undefined ? { result: answer?.result } : { error: answer.error }) });
      }
    });
    return {
      page,
      events,
      url: (path) => `${origin}${path}`,
      async screenshot(name) {
        const path = join(out, `${name}.png`);
        await page.screenshot({ path, fullPage: true });
        return path;
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
