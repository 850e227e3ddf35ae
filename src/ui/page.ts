// The viewer's one HTML page: styles and the bundled script inline, so GET / is one response and
// nothing is fetched from elsewhere (the machine may be offline). The script is imported as text:
// Bun, the esbuild bundle and the compiled binary carry it inside.
import bundle from './client.bundle.txt' with { type: 'text' };
import { htmlDocument } from './document.ts';

export function viewerPage(): string {
  return htmlDocument({
    title: 'blocktrace',
    body: `<header><a href="/">blocktrace</a><span id="chain"></span><form id="search"><input name="q" placeholder="block, hash or address" aria-label="search" spellcheck="false"></form></header>
<main id="main"><p class="loading">loading…</p></main>`,
    script: bundle,
  });
}
