// The viewer's one HTML page: styles and the bundled script inline, so GET / is one response and
// nothing is fetched from elsewhere (the machine may be offline). The script is imported as text:
// Bun, the esbuild bundle and the compiled binary carry it inside.
import bundle from './client.bundle.txt' with { type: 'text' };
import { STYLE } from './styles.ts';

export function viewerPage(): string {
  const script = bundle.replace(/<\/script/gi, '<\\/script');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>blocktrace</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header><a href="/">blocktrace</a><span id="chain"></span><form id="search"><input name="q" placeholder="block, hash or address" aria-label="search" spellcheck="false"></form></header>
<main id="main"><p class="loading">loading…</p></main>
<script>${script}</script>
</body>
</html>
`;
}
